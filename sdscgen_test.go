package sdscgen_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sdscgen/sdscgen"
	"github.com/sdscgen/sdscgen/frontend"
	"github.com/sdscgen/sdscgen/planner"
	"github.com/sdscgen/sdscgen/report"
)

// TestZeroOptions: the zero Options are the contract's defaults: budget
// 15032385536 (16 GiB less 2 GiB), first-fit, planning on, fused.
func TestZeroOptions(t *testing.T) {
	res, err := sdscgen.Compile("g.bir", []byte(src), sdscgen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := res.Plan
	if p.Budget != 15032385536 || p.Allocator != "first-fit" || p.Disabled || len(res.Graph.Bundles) != 1 {
		t.Errorf("budget %d, allocator %q, disabled %v, %d bundles", p.Budget, p.Allocator, p.Disabled, len(res.Graph.Bundles))
	}
	if p.Budget != sdscgen.DefaultBudget {
		t.Errorf("DefaultBudget %d", sdscgen.DefaultBudget)
	}
	// Every allocator named is the one recorded, and verifies.
	for _, name := range []string{"first-fit", "best-fit", "size-best-fit", "best"} {
		res, err := sdscgen.Compile("g.bir", []byte(src), sdscgen.Options{Allocator: name})
		if err != nil || res.Plan.Allocator != name {
			t.Errorf("%s: %v", name, err)
		}
	}
	// ZeroBudget: t cannot be placed.
	res, err = sdscgen.Compile("g.bir", []byte(src), sdscgen.Options{ZeroBudget: true})
	if err != nil || res.Plan.Budget != 0 || reasonOf(res, "t") != planner.OverBudget {
		t.Errorf("ZeroBudget: %v", err)
	}
	// Unfused: a and b each become a bundle, so t is cross-bundle.
	res, err = sdscgen.Compile("g.bir", []byte(src), sdscgen.Options{Unfused: true})
	if err != nil || len(res.Graph.Bundles) != 2 || reasonOf(res, "t") != planner.CrossBundle {
		t.Errorf("Unfused: %v", err)
	}
	res, err = sdscgen.Compile("g.bir", []byte(src), sdscgen.Options{NoPool: true})
	if err != nil || reasonOf(res, "t") != planner.Disabled {
		t.Errorf("NoPool: %v", err)
	}
}

// reasonOf is the decision for the group of buffer name.
func reasonOf(res *sdscgen.Result, name string) planner.Reason {
	for _, b := range res.Graph.Buffers.All() {
		if res.Graph.Str(b.Name) == name {
			return res.Plan.Groups[b.Group].Reason
		}
	}
	return planner.Reason(255) // no such buffer: equal to no reason
}

// TestInvalidOptions: every invalid option is an error, before any
// input is read.
func TestInvalidOptions(t *testing.T) {
	for _, c := range []struct {
		opt  sdscgen.Options
		want string
	}{
		{sdscgen.Options{Budget: -1}, "budget -1 is negative"},
		{sdscgen.Options{Budget: 5, ZeroBudget: true}, "ZeroBudget with a budget of 5 bytes"},
		{sdscgen.Options{Allocator: "First-Fit"}, `unknown allocator "First-Fit"`},
		{sdscgen.Options{SearchNodes: -3}, "search nodes -3 is negative"},
		{sdscgen.Options{SearchTime: -time.Second}, "search time -1s is negative"},
	} {
		res, err := sdscgen.Compile("g.bir", []byte("not even bir"), c.opt)
		if res != nil || err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.opt, err, c.want)
		}
	}
}

// TestBadInput: diagnostics come back as a frontend.ErrorList.
func TestBadInput(t *testing.T) {
	_, err := sdscgen.CompileReader("bad.bir", strings.NewReader("graph g { op a reads nope }"), sdscgen.Options{})
	var list frontend.ErrorList
	if !errors.As(err, &list) || len(list) != 1 || list[0].Error() != `bad.bir:1:22: error: undeclared buffer "nope"` {
		t.Errorf("%v", err)
	}
}

// TestCheckOnly: no plan; the check dump works, the plan's writers say
// why they cannot.
func TestCheckOnly(t *testing.T) {
	res, err := sdscgen.Compile("g.bir", []byte(src), sdscgen.Options{CheckOnly: true})
	if err != nil || res.Plan != nil {
		t.Fatalf("%v", err)
	}
	var b bytes.Buffer
	if err := res.WriteDump(&b, "check"); err != nil || !strings.HasPrefix(b.String(), "graph g  # g.bir:1:7\n") {
		t.Errorf("dump: %v %q", err, b.String())
	}
	for name, err := range map[string]error{
		"mlir": res.WriteMLIR(&b, sdscgen.EmitOptions{}), "plan": res.WritePlanJSON(&b), "stats": res.WriteStats(&b),
		"explain": res.Explain(&b, "t"), "svg": res.WriteSVG(&b, 0), "html": res.WriteHTML(&b), "dump plan": res.WriteDump(&b, "plan"),
		"remarks": res.WriteRemarks(&b, "all"),
	} {
		if err == nil || !strings.Contains(err.Error(), "CheckOnly") {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := res.WriteDump(&b, "parse"); err == nil {
		t.Error("dump after parse: no error")
	}
}

// TestExplainUnknown: an unknown name is a *report.UnknownNameError with
// the closest names.
func TestExplainUnknown(t *testing.T) {
	res, _ := sdscgen.Compile("g.bir", []byte(src), sdscgen.Options{})
	var b bytes.Buffer
	err := res.Explain(&b, "tt")
	var unk *report.UnknownNameError
	if !errors.As(err, &unk) || b.Len() != 0 || len(unk.Suggestions) == 0 || unk.Suggestions[0] != "t" {
		t.Errorf("%v, wrote %q", err, b.String())
	}
}

// TestGoldens: the library writes, for every golden case, exactly the
// golden plan and modules (custom and generic form) the command writes.
// Each case's args file is translated to Options by hand here.
func TestGoldens(t *testing.T) {
	dirs, _ := filepath.Glob("golden/testdata/*/input.bir")
	if len(dirs) < 10 {
		t.Fatalf("%d golden cases", len(dirs))
	}
	for _, in := range dirs {
		dir := filepath.Dir(in)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			var opt sdscgen.Options
			var emit sdscgen.EmitOptions
			if data, err := os.ReadFile(filepath.Join(dir, "args")); err == nil {
				var words []string
				for _, l := range strings.Split(string(data), "\n") {
					if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
						words = append(words, l)
					}
				}
				for i := 0; i < len(words); i++ {
					w := words[i]
					switch {
					case w == "--budget":
						i++
						w = "--budget=" + words[i]
						fallthrough
					case strings.HasPrefix(w, "--budget="):
						n, _ := strconv.ParseInt(strings.TrimPrefix(w, "--budget="), 10, 64)
						opt.Budget = n
					case w == "env HBM_POOL_PLANNING=0":
						opt.NoPool = true
					case w == "--frontend-pool-allocation":
						emit.FrontendPoolAllocation = true
					case w == "--bundle-symbolic-args=false":
						opt.Unfused = true
					case w == "--sdsc-cache=false":
						opt.NoSDSCCache = true
					default:
						t.Fatalf("args: %q has no translation here", w)
					}
				}
			}
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			// The command names its input by the path it was given: the
			// golden test runs it from golden/, on testdata/CASE/input.bir,
			// and the plan's source positions carry that name.
			res, err := sdscgen.Compile(filepath.Join("testdata", filepath.Base(dir), "input.bir"), src, opt)
			if err != nil {
				t.Fatal(err)
			}
			check := func(golden string, write func(*bytes.Buffer) error) {
				t.Helper()
				want, err := os.ReadFile(filepath.Join(dir, golden))
				if err != nil {
					t.Fatal(err)
				}
				var b bytes.Buffer
				if err := write(&b); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(b.Bytes(), want) {
					t.Errorf("%s differs from the library's", golden)
				}
			}
			check("plan.json.golden", func(b *bytes.Buffer) error { return res.WritePlanJSON(b) })
			for bi, bu := range res.Graph.Bundles {
				check(bu.Name+".mlir.golden", func(b *bytes.Buffer) error { return res.WriteBundleMLIR(b, bi, emit) })
				g := emit
				g.Generic = true
				check(bu.Name+".generic.mlir.golden", func(b *bytes.Buffer) error { return res.WriteBundleMLIR(b, bi, g) })
			}
		})
	}
}

// TestExplainRename: the Result knows the renames of its source: in
// spec_example, acc_next is renamed to acc at line 22.
func TestExplainRename(t *testing.T) {
	src, err := os.ReadFile("golden/testdata/spec_example/input.bir")
	if err != nil {
		t.Fatal(err)
	}
	res, err := sdscgen.Compile("s.bir", src, sdscgen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := res.Explain(&b, "acc_next"); err != nil || !strings.HasPrefix(b.String(), "acc_next is renamed to acc (rename at s.bir:22:10): ") {
		t.Errorf("%v\n%s", err, b.String())
	}
}
