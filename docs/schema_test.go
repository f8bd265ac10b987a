package docs

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sdscgen/sdscgen"
	"github.com/sdscgen/sdscgen/alloc"
	"github.com/sdscgen/sdscgen/internal/planschema"
	"github.com/sdscgen/sdscgen/internal/randgraph"
	"github.com/sdscgen/sdscgen/planner"
)

// TestPlanSchemaGoldens: every committed golden plan is valid under
// plan.schema.json.
func TestPlanSchemaGoldens(t *testing.T) {
	files, err := filepath.Glob("../golden/testdata/*/plan.json.golden")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden plans: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := planschema.Validate(data); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// TestPlanSchemaRandom: the plans of random graphs, under every
// allocator, tight budgets, --compare, fusion off and planning off, are
// valid.
func TestPlanSchemaRandom(t *testing.T) {
	for seed := int64(0); seed < 200; seed++ {
		r := rand.New(rand.NewSource(seed))
		src := randgraph.Generate(r, randgraph.Default)
		opt := sdscgen.Options{Allocator: alloc.Names()[r.Intn(len(alloc.Names()))], Budget: []int64{0, 1024, 128}[r.Intn(3)],
			Compare: r.Intn(3) == 0, Unfused: r.Intn(3) == 0, NoPool: r.Intn(10) == 0}
		res, err := sdscgen.Compile("r.bir", []byte(src), opt)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		var buf bytes.Buffer
		if err := res.WritePlanJSON(&buf); err != nil {
			t.Fatal(err)
		}
		if err := planschema.Validate(buf.Bytes()); err != nil {
			t.Fatalf("seed %d %+v: %v\n%s", seed, opt, err, buf.String())
		}
	}
}

// TestPlanSchemaRejects: the schema is not vacuous: it rejects documents
// that are not version 2 plans.
func TestPlanSchemaRejects(t *testing.T) {
	res, err := sdscgen.Compile("small.bir", mustRead(t, "../examples/small.bir"), sdscgen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := res.WritePlanJSON(&buf); err != nil {
		t.Fatal(err)
	}
	good := buf.String()
	if err := planschema.Validate([]byte(good)); err != nil {
		t.Fatal(err)
	}
	for _, e := range [][2]string{
		{`"format_version": 2`, `"format_version": 1`},
		{`"graph": "mlp_tiny",`, `"graph": "mlp_tiny", "extra": 0,`},
		{`"reason": "cpu-read"`, `"reason": "cpu_read"`},
		{`"kind": "cpu"`, `"kind": "host"`},
		{`"peak_node": "mlp"`, `"peak_node": null`},
		{`"size": 128,`, `"size": 100,`},
		{`"pos": "small.bir:4:10"`, `"pos": "small.bir"`},
		{`{"arg": 0, "group": "x", "names": ["x"]}`, `{"arg": 0, "group": "x", "names": []}`},
		{`{"name": "mm0", "step": 0, `, `{"name": "mm0", "step": -1, `},
		{`"no_pooling_peak_bytes": 262656, `, ``},
	} {
		if !strings.Contains(good, e[0]) {
			t.Fatalf("plan lacks %q:\n%s", e[0], good)
		}
		if err := planschema.Validate([]byte(strings.Replace(good, e[0], e[1], 1))); err == nil {
			t.Errorf("edit %q -> %q passes the schema", e[0], e[1])
		}
	}
}

// TestPlanSchemaEnums: the schema's allocator and reason lists are the
// tool's (alloc.Names(), planner.ReasonTable()).
func TestPlanSchemaEnums(t *testing.T) {
	var s struct {
		Properties struct {
			Allocator struct{ Enum []string } `json:"allocator"`
		} `json:"properties"`
		Defs struct {
			Buffer struct {
				Properties struct {
					Reason struct{ Enum []*string } `json:"reason"`
				} `json:"properties"`
			} `json:"buffer"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(mustRead(t, "plan.schema.json"), &s); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Properties.Allocator.Enum, alloc.Names()) {
		t.Errorf("schema allocators %v, alloc.Names() %v", s.Properties.Allocator.Enum, alloc.Names())
	}
	var reasons []string
	for _, r := range s.Defs.Buffer.Properties.Reason.Enum {
		if r == nil {
			reasons = append(reasons, "null")
		} else {
			reasons = append(reasons, *r)
		}
	}
	want := []string{"null"}
	for _, r := range planner.ReasonTable() {
		want = append(want, r.Name)
	}
	if !slices.Equal(reasons, want) {
		t.Errorf("schema reasons %v, planner.ReasonTable() %v", reasons, want)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
