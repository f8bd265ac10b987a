package verify_test

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/sdscgen/sdscgen/alloc"
	"github.com/sdscgen/sdscgen/frontend"
	"github.com/sdscgen/sdscgen/internal/randgraph"
	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/planner"
	"github.com/sdscgen/sdscgen/synth"
	"github.com/sdscgen/sdscgen/verify"
)

// setup is how one plan is requested.
type setup struct {
	budget    int64
	disabled  bool
	unfused   bool
	allocator string
}

func check(t testing.TB, name string, src []byte) *ir.Graph {
	t.Helper()
	f, errs := frontend.Parse(name, src)
	if len(errs) > 0 {
		t.Fatalf("%s: %v\n%s", name, errs, src)
	}
	g, errs := frontend.Check(f)
	if len(errs) > 0 {
		t.Fatalf("%s: %v\n%s", name, errs, src)
	}
	return g
}

func plan(t testing.TB, g *ir.Graph, s setup) *planner.Result {
	t.Helper()
	p, err := planE(g, s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// planE is plan without a testing.TB, for worker goroutines.
func planE(g *ir.Graph, s setup) (*planner.Result, error) {
	if s.unfused {
		g = g.Unfused()
	}
	if s.allocator == "" {
		s.allocator = "first-fit"
	}
	// A short search keeps the optimizing allocators quick; the verifier
	// does not care how good a placement is, only that it is legal.
	place, err := alloc.Lookup(s.allocator, alloc.Options{MaxNodes: 3000})
	if err != nil {
		return nil, err
	}
	return planner.Plan(g, planner.Options{Disabled: s.disabled, Budget: s.budget, Allocator: place}), nil
}

// verifyAll runs both checks, the JSON one on planner.WriteJSON's output.
func verifyAll(p *planner.Result, s setup) error {
	if err := verify.Plan(p.Graph, p, verify.Options{Disabled: s.disabled, Budget: s.budget}); err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := planner.WriteJSON(&buf, p); err != nil {
		return err
	}
	return verify.JSON(p.Graph, p, buf.Bytes())
}

// goldenSetup reads a golden case's args file. Flags that do not change
// the plan are ignored; an unknown one fails, so new cases are not
// silently verified under the wrong settings.
func goldenSetup(t *testing.T, dir string) setup {
	s := setup{budget: planner.DefaultBudget}
	data, err := os.ReadFile(filepath.Join(dir, "args"))
	if os.IsNotExist(err) {
		return s
	}
	if err != nil {
		t.Fatal(err)
	}
	var args []string
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "env "):
			kv := strings.TrimPrefix(line, "env ")
			switch kv {
			case "HBM_POOL_PLANNING=0", "HBM_POOL_PLANNING=false", "HBM_POOL_PLANNING=no":
				s.disabled = true
			case "BUNDLE_SYMBOLIC_ARGS=0", "BUNDLE_SYMBOLIC_ARGS=false", "BUNDLE_SYMBOLIC_ARGS=no":
				s.unfused = true
			default:
				t.Fatalf("%s: unhandled env %q", dir, kv)
			}
		default:
			args = append(args, line)
		}
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		val := func() string {
			if k := strings.IndexByte(a, '='); k >= 0 {
				return a[k+1:]
			}
			i++
			if i >= len(args) {
				t.Fatalf("%s: %s needs a value", dir, a)
			}
			return args[i]
		}
		name := strings.TrimLeft(a, "-")
		if k := strings.IndexByte(name, '='); k >= 0 {
			name = name[:k]
		}
		switch name {
		case "budget":
			n, err := strconv.ParseInt(val(), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			s.budget = n
		case "allocator":
			s.allocator = val()
		case "no-pool":
			s.disabled = true
		case "bundle-symbolic-args":
			s.unfused = strings.Contains(a, "=false") || strings.Contains(a, "=0")
		case "generic", "frontend-pool-allocation", "verify", "sdsc-cache":
			// output form only
		case "emit":
			val()
		default:
			t.Fatalf("%s: unhandled golden flag %q", dir, a)
		}
	}
	return s
}

// TestGoldens verifies the plan of every golden case, and its committed
// plan.json.golden, under the case's flags.
func TestGoldens(t *testing.T) {
	dirs, err := filepath.Glob("../golden/testdata/*/input.bir")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	for _, in := range dirs {
		dir := filepath.Dir(in)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			s := goldenSetup(t, dir)
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			// The name the golden test runs the case under (from
			// golden/), which the plan's source positions carry.
			name := filepath.Join("testdata", filepath.Base(dir), "input.bir")
			p := plan(t, check(t, name, src), s)
			if err := verifyAll(p, s); err != nil {
				t.Fatalf("verify: %v", err)
			}
			golden, err := os.ReadFile(filepath.Join(dir, "plan.json.golden"))
			if err != nil {
				t.Fatal(err)
			}
			if err := verify.JSON(p.Graph, p, golden); err != nil {
				t.Errorf("plan.json.golden: %v", err)
			}
		})
	}
}

// randomSetup draws the planning settings for one random graph: budgets
// from none at all through tight to the default, every allocator, fusion
// on and off, planning on and (rarely) off.
func randomSetup(r *rand.Rand) setup {
	s := setup{allocator: alloc.Names()[r.Intn(len(alloc.Names()))]}
	switch r.Intn(6) {
	case 0:
		s.budget = 0
	case 1:
		s.budget = planner.DefaultBudget
	case 2:
		s.budget = int64(r.Intn(64)) * 128
	default:
		s.budget = int64(r.Intn(200)) * 128
	}
	s.disabled = r.Intn(20) == 0
	s.unfused = r.Intn(4) == 0
	return s
}

func randomConfig(r *rand.Rand) randgraph.Config {
	return randgraph.Config{
		Buffers:  1 + r.Intn(20),
		Bundles:  1 + r.Intn(6),
		MaxOps:   1 + r.Intn(10),
		MaxDepth: r.Intn(4),
	}
}

// TestRandomGraphs is the property test: for 10,000 seeded random graphs
// with random budgets, allocators, loops, aliases and renames, every plan
// passes the verifier.
func TestRandomGraphs(t *testing.T) {
	n := 10000
	if testing.Short() {
		n = 1000
	}
	var failures atomic.Int32
	var reasons [16]atomic.Int64
	workers := 4
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for seed := int64(w); seed < int64(n); seed += int64(workers) {
				if failures.Load() > 5 {
					return
				}
				r := rand.New(rand.NewSource(seed))
				src := randgraph.Generate(r, randomConfig(r))
				s := randomSetup(r)
				f, errs := frontend.Parse("rand.bir", []byte(src))
				if len(errs) > 0 {
					failures.Add(1)
					t.Errorf("seed %d: randgraph wrote invalid input: %v\n%s", seed, errs, src)
					continue
				}
				g, errs := frontend.Check(f)
				if len(errs) > 0 {
					failures.Add(1)
					t.Errorf("seed %d: randgraph wrote invalid input: %v\n%s", seed, errs, src)
					continue
				}
				p, err := planE(g, s)
				if err != nil {
					failures.Add(1)
					t.Errorf("seed %d: %v", seed, err)
					continue
				}
				if err := verifyAll(p, s); err != nil {
					failures.Add(1)
					t.Errorf("seed %d, %+v: %v\n%s", seed, s, err, src)
				}
				for _, pg := range p.Groups {
					for k, r := range planner.Reasons() {
						if pg.Reason == r {
							reasons[k+1].Add(1)
						}
					}
					if pg.Reason == planner.Pooled {
						reasons[0].Add(1)
					}
				}
			}
		}(w)
	}
	wg.Wait()
	// The generator must exercise every outcome, or the property says
	// little.
	for k := range planner.Reasons() {
		if reasons[k+1].Load() == 0 {
			t.Errorf("no random graph produced reason %s", planner.Reasons()[k])
		}
	}
	if reasons[0].Load() == 0 {
		t.Errorf("no random graph pooled anything")
	}
	t.Logf("pooled %d; reasons: %s", reasons[0].Load(), func() string {
		var b strings.Builder
		for k, r := range planner.Reasons() {
			fmt.Fprintf(&b, "%s=%d ", r, reasons[k+1].Load())
		}
		return b.String()
	}())
}

// TestCatchesMutations shows that the verifier has teeth: each way of
// corrupting a correct plan is reported.
func TestCatchesMutations(t *testing.T) {
	type mutation struct {
		name string
		// apply corrupts p and reports whether it applied.
		apply func(p *planner.Result, r *rand.Rand) bool
	}
	pooledPair := func(p *planner.Result) (int, int, bool) {
		// Two pooled groups of one bundle whose ranges intersect.
		for bi := range p.Bundles {
			for _, a := range p.Candidates(bi) {
				for _, b := range p.Candidates(bi) {
					ga, gb := p.Groups[a], p.Groups[b]
					if a != b && p.Pooled(int(a), bi) && p.Pooled(int(b), bi) && ga.Start <= gb.End && gb.Start <= ga.End {
						return int(a), int(b), true
					}
				}
			}
		}
		return 0, 0, false
	}
	firstPooled := func(p *planner.Result) int {
		for gi, pg := range p.Groups {
			if pg.Reason == planner.Pooled {
				return gi
			}
		}
		return -1
	}
	muts := []mutation{
		{"overlap under another allocator name", func(p *planner.Result, r *rand.Rand) bool {
			a, b, ok := pooledPair(p)
			if ok {
				p.Allocator = "someone-else"
				p.Groups[a].Offset = p.Groups[b].Offset
			}
			return ok
		}},
		{"first-fit offset moved", func(p *planner.Result, r *rand.Rand) bool {
			gi := firstPooled(p)
			if gi >= 0 {
				p.Groups[gi].Offset += 128
			}
			return gi >= 0
		}},
		{"offset off the stick", func(p *planner.Result, r *rand.Rand) bool {
			// Only where every candidate of the bundle is a whole
			// number of sticks: a view at an uneven offset makes its
			// group's size, and offsets after it, uneven by right.
			for gi, pg := range p.Groups {
				if pg.Reason != planner.Pooled {
					continue
				}
				even := true
				for _, c := range p.Candidates(int(pg.Bundle)) {
					even = even && p.Graph.Groups[c].Size%128 == 0
				}
				if even {
					p.Allocator = "someone-else"
					p.Groups[gi].Offset += 64
					return true
				}
			}
			return false
		}},
		{"pool size grown", func(p *planner.Result, r *rand.Rand) bool {
			for bi := range p.Bundles {
				if p.Bundles[bi].HasPool() {
					p.Bundles[bi].PoolSize += 128
					return true
				}
			}
			return false
		}},
		{"live range shortened", func(p *planner.Result, r *rand.Rand) bool {
			for gi, pg := range p.Groups {
				if pg.Bundle >= 0 && pg.End > pg.Start {
					p.Groups[gi].End--
					return true
				}
			}
			return false
		}},
		{"reason swapped", func(p *planner.Result, r *rand.Rand) bool {
			for gi, pg := range p.Groups {
				if pg.Bundle < 0 && pg.Reason != planner.Disabled {
					p.Groups[gi].Reason = planner.Reasons()[(r.Intn(planner.NumReasons-2) + 1)]
					if p.Groups[gi].Reason == pg.Reason {
						p.Groups[gi].Reason = planner.OverBudget
					}
					return true
				}
			}
			return false
		}},
		{"fell back though it fits", func(p *planner.Result, r *rand.Rand) bool {
			gi := firstPooled(p)
			if gi >= 0 && p.Budget > 1<<30 {
				p.Allocator = "someone-else"
				p.Groups[gi].Offset = -1
				p.Groups[gi].Reason = planner.OverBudget
				return true
			}
			return false
		}},
		{"pool entry dropped", func(p *planner.Result, r *rand.Rand) bool {
			for bi := range p.Bundles {
				if p.Bundles[bi].HasPool() {
					p.Bundles[bi].Candidates = ir.Span{}
					return true
				}
			}
			return false
		}},
		{"pooled group's bundle past the graph's", func(p *planner.Result, r *rand.Rand) bool {
			for gi := range p.Groups {
				if p.Groups[gi].Offset >= 0 {
					p.Groups[gi].Bundle = int32(len(p.Bundles) + r.Intn(3))
					return true
				}
			}
			return false
		}},
		{"candidates past the plan's", func(p *planner.Result, r *rand.Rand) bool {
			for bi := range p.Bundles {
				if p.Bundles[bi].HasPool() {
					p.Bundles[bi].Candidates.Off += int32(len(p.CandidateGroups))
					return true
				}
			}
			return false
		}},
		{"view offset shifted", func(p *planner.Result, r *rand.Rand) bool {
			for _, b := range p.Graph.Buffers.All() {
				if b.View >= 0 {
					p.Graph.EditView(b).ViewOffset += 128
					return true
				}
			}
			return false
		}},
		{"pooled group with views shrunk by a byte", func(p *planner.Result, r *rand.Rand) bool {
			for gi, pg := range p.Groups {
				gr := &p.Graph.Groups[gi]
				if pg.Reason == planner.Pooled && gr.Members.Len > 1 {
					gr.Size -= 1
					return true
				}
			}
			return false
		}},
		{"lower bound off", func(p *planner.Result, r *rand.Rand) bool {
			for bi := range p.Bundles {
				if p.Bundles[bi].HasPool() {
					p.Bundles[bi].LowerBound++
					return true
				}
			}
			return false
		}},
	}
	for _, m := range muts {
		t.Run(m.name, func(t *testing.T) {
			applied := 0
			for seed := int64(0); seed < 1000 && applied < 40; seed++ {
				r := rand.New(rand.NewSource(seed))
				src := randgraph.Generate(r, randomConfig(r))
				s := setup{budget: planner.DefaultBudget}
				p := plan(t, check(t, "rand.bir", []byte(src)), s)
				var js bytes.Buffer // the correct plan's (the writer may index what a mutation breaks)
				if err := planner.WriteJSON(&js, p); err != nil {
					t.Fatal(err)
				}
				if !m.apply(p, r) {
					continue
				}
				applied++
				err := verify.Plan(p.Graph, p, verify.Options{Budget: s.budget})
				if err == nil {
					t.Fatalf("seed %d: corruption not detected\n%s", seed, src)
				}
				// With the JSON's checks beside the plan's (as the
				// command runs them), the same verdict, and no panic.
				if perr, _ := verify.PlanAndJSON(p.Graph, p, verify.Options{Budget: s.budget}, &js); perr == nil || perr.Error() != err.Error() {
					t.Fatalf("seed %d: Plan reports\n%v\nPlanAndJSON\n%v", seed, err, perr)
				}
				// Checked on several goroutines, the same violations.
				if err4 := verify.Plan(p.Graph, p, verify.Options{Budget: s.budget, Workers: 4}); err4 == nil || err4.Error() != err.Error() {
					t.Fatalf("seed %d: one worker reports\n%v\nfour report\n%v", seed, err, err4)
				}
			}
			if applied < 10 {
				t.Fatalf("mutation applied to only %d graphs", applied)
			}
		})
	}
}

// TestJSONCatchesEdits: the JSON check notices a document that does not
// state the plan.
func TestJSONCatchesEdits(t *testing.T) {
	src, err := os.ReadFile("../golden/testdata/spec_example/input.bir")
	if err != nil {
		t.Fatal(err)
	}
	s := setup{budget: planner.DefaultBudget}
	p := plan(t, check(t, "spec.bir", src), s)
	var buf bytes.Buffer
	if err := planner.WriteJSON(&buf, p); err != nil {
		t.Fatal(err)
	}
	good := buf.String()
	if err := verify.JSON(p.Graph, p, []byte(good)); err != nil {
		t.Fatal(err)
	}
	edits := [][2]string{
		{`"offset": 0`, `"offset": 128`},
		{`"pool_sizes": {"mm_block": 256}`, `"pool_sizes": {"mm_block": 256, "k_loop": 0}`},
		{`"reason": "lx"`, `"reason": "cpu-read"`},
		{`{"name": "v", "size": 4096, "bundle": null`, `{"name": "v", "size": 4096, "bundle": "k_loop"`},
		{`"lower_bound": 256`, `"lower_bound": 0`},
		{`"budget": 15032385536`, `"budget": 1`},
		{`"graph": "decoder_block"`, `"graph": "decoder_block", "extra": 1`},
		// Version 2's keys.
		{`"format_version": 2`, `"format_version": 3`},
		{"\"format_version\": 2,\n", ""}, // v2 keys in a v1 document
		{`"peak_bytes": 17152`, `"peak_bytes": 17024`},
		{`"peak_position": 0`, `"peak_position": 1`},
		{`"resident_pools_peak_bytes": 17152`, `"resident_pools_peak_bytes": 16896`},
		{`"standalone_bytes": 16896, "pool_bytes": 256`, `"standalone_bytes": 16896, "pool_bytes": 0`},
		{`{"node": "sin4", "kind": "cpu"`, `{"node": "sin4", "kind": "bundle"`},
		{`{"node": "k_loop", "kind": "bundle"`, `{"node": "relu3", "kind": "bundle"`},
		{",\n      {\"node\": \"sin4\", \"kind\": \"cpu\", \"standalone_bytes\": 16896, \"pool_bytes\": 0}", ""},
		{"\"pool_bytes\": 0}\n    ]", "\"pool_bytes\": 0},\n      {\"node\": \"x\", \"kind\": \"cpu\", \"standalone_bytes\": 0, \"pool_bytes\": 0}\n    ]"},
		{`{"arg": 0, "group": "x"`, `{"arg": 0, "group": "w"`},
		{`"names": ["v", "t0"]`, `"names": ["t0", "v"]`},
		{`"reason": "cpu-read", "group": "t0", "pos": "spec.bir:16:10"`, `"reason": "cpu-read", "group": "v", "pos": "spec.bir:16:10"`},
		{`"pos": "spec.bir:16:10"`, `"pos": "spec.bir:16:11"`},
		{`{"name": "mul1", "step": 1`, `{"name": "mul1", "step": 2`},
		{`{"name": "mul1", "step": 1, "pos": "spec.bir:27:10"}`, `{"name": "mul1", "step": 1, "pos": "spec.bir:27:10", "sdsc": 1}`},
		{`"group": "x", "pos": "spec.bir:10:10"}`, `"pos": "spec.bir:10:10"}`},
	}
	for _, e := range edits {
		if !strings.Contains(good, e[0]) {
			t.Fatalf("plan JSON lacks %q:\n%s", e[0], good)
		}
		bad := strings.Replace(good, e[0], e[1], 1)
		if err := verify.JSON(p.Graph, p, []byte(bad)); err == nil {
			t.Errorf("edit %q -> %q not detected", e[0], e[1])
		}
	}
	// The timeline is checked as it is read; what differs is reported
	// at its position, and a timeline of another length as that alone.
	bad := strings.Replace(good, `{"node": "k_loop", "kind": "bundle", "standalone_bytes": 16896`, `{"node": "k_loop", "kind": "bundle", "standalone_bytes": 1`, 1)
	want := `plan JSON: footprint: timeline[1] is "k_loop" (bundle) 1 + 0, want "k_loop" (bundle) 16896 + 0`
	if err := verify.JSON(p.Graph, p, []byte(bad)); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("timeline[1] edited: %v; want %q", err, want)
	}
	bad = strings.Replace(bad, ",\n      {\"node\": \"sin4\"", ",\n      {\"node\": \"sin4\"}, {\"node\": \"sin4\"", 1)
	want = "plan JSON: footprint: timeline of 5 positions, want 4"
	if err := verify.JSON(p.Graph, p, []byte(bad)); err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "timeline[") {
		t.Errorf("timeline of 5: %v; want %q alone", err, want)
	}
}

// TestJSONVersion1: the check still reads a version 1 document (no
// format_version, footprint, group, pos, kernel_args or ops): the
// spec example's plan as sdscgen wrote it before version 2, and accepts
// an op's sdsc_file in version 2.
func TestJSONVersion1(t *testing.T) {
	src, err := os.ReadFile("../golden/testdata/spec_example/input.bir")
	if err != nil {
		t.Fatal(err)
	}
	p := plan(t, check(t, "spec.bir", src), setup{budget: planner.DefaultBudget})
	v1, err := os.ReadFile("testdata/spec_example_v1.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := verify.JSON(p.Graph, p, v1); err != nil {
		t.Fatalf("version 1: %v", err)
	}
	var buf bytes.Buffer
	if err := planner.WriteJSON(&buf, p); err != nil {
		t.Fatal(err)
	}
	withFile := strings.Replace(buf.String(), `"pos": "spec.bir:25:8"}`, `"pos": "spec.bir:25:8", "sdsc_file": "sdsc_0.json"}`, 1)
	if withFile == buf.String() {
		t.Fatal("no op mm0 in the plan JSON")
	}
	if err := verify.JSON(p.Graph, p, []byte(withFile)); err != nil {
		t.Fatalf("an op's sdsc_file: %v", err)
	}
}

// corruptedSynth plans a synthetic graph of 4,000 ops in 40 bundles and
// corrupts it in several bundles, each corruption caught by another
// phase of the check: a live range (checkGroups), pool sizes, a lower
// bound and a first-fit offset (the bundles' pools), an access stride
// (the bundle's tree) and a group size that a pooled access then leaves
// (the bounds). It returns the plan and the indices of the bundles hit.
func corruptedSynth(t *testing.T) (*planner.Result, []int) {
	t.Helper()
	var src bytes.Buffer
	if err := synth.Generate(&src, synth.Config{Ops: 4000, Bundles: 40, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	p := plan(t, check(t, "synth.bir", src.Bytes()), setup{budget: planner.DefaultBudget})
	if err := verify.Plan(p.Graph, p, verify.Options{Budget: planner.DefaultBudget}); err != nil {
		t.Fatal(err)
	}
	var hit []int
	// The first pooled group of bundle bi.
	pooledIn := func(bi int) int {
		for _, gi := range p.Candidates(bi) {
			if p.Groups[gi].Offset >= 0 {
				return int(gi)
			}
		}
		t.Fatalf("bundle %d pools nothing", bi)
		return -1
	}
	for _, bi := range []int{3, 11, 17, 25, 38} {
		switch bi {
		case 3, 25:
			p.Bundles[bi].PoolSize += 128
			p.Bundles[bi].LowerBound++
		case 11:
			p.Groups[pooledIn(bi)].Offset += 128
		case 17:
			gi := pooledIn(bi)
			p.Groups[gi].End++
			p.Graph.Groups[gi].Size -= 128
		case 38:
			b := &p.Graph.Bundles[bi]
			op := &b.Ops[len(b.Ops)-1]
			a := &p.Graph.Reads(op)[0]
			p.Graph.SetStrides(a, append(p.Graph.Strides(a), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
		}
		hit = append(hit, bi)
	}
	return p, hit
}

// TestWorkersSameError: corruptions in several bundles give exactly the
// same Error (the same first violations in the same order, the same
// total) with one worker and with several, however the bundles are cut
// into chunks; and the violations come in the order of the checks:
// live ranges before pools, pools in bundle order.
func TestWorkersSameError(t *testing.T) {
	p, hit := corruptedSynth(t)
	one := verify.Plan(p.Graph, p, verify.Options{Budget: planner.DefaultBudget, Workers: 1})
	if one == nil {
		t.Fatal("corruptions not detected")
	}
	for _, w := range []int{2, 3, 8, 64} {
		got := verify.Plan(p.Graph, p, verify.Options{Budget: planner.DefaultBudget, Workers: w})
		if got == nil || got.Error() != one.Error() {
			t.Fatalf("%d workers report\n%v\none reports\n%v", w, got, one)
		}
	}
	e := one.(*verify.Error)
	// Every corrupted bundle is named, and they come in bundle order
	// among the pool-size violations.
	last := -1
	for _, bi := range hit[:2] { // 3 and 11: both before bundle 17's
		name := p.Graph.Bundles[bi].Name
		k := slices.IndexFunc(e.Violations, func(v string) bool { return strings.Contains(v, "bundle "+strconv.Quote(name)+":") })
		if k < 0 {
			t.Fatalf("bundle %q not reported:\n%v", name, one)
		}
		if k < last {
			t.Fatalf("bundle %q reported out of order:\n%v", name, one)
		}
		last = k
	}
	// The live range (checkGroups) comes before every pool violation.
	lr := slices.IndexFunc(e.Violations, func(v string) bool { return strings.Contains(v, "live range") })
	pool := slices.IndexFunc(e.Violations, func(v string) bool { return strings.Contains(v, "pool size") })
	if lr < 0 || pool < 0 || lr > pool {
		t.Fatalf("live range at %d, pool size at %d:\n%v", lr, pool, one)
	}
}

// TestPlanAndJSON: the two checks side by side, the document streamed,
// each error in its place.
func TestPlanAndJSON(t *testing.T) {
	src, err := os.ReadFile("../golden/testdata/spec_example/input.bir")
	if err != nil {
		t.Fatal(err)
	}
	s := setup{budget: planner.DefaultBudget}
	opt := verify.Options{Budget: s.budget, Workers: 2}
	p := plan(t, check(t, "spec.bir", src), s)
	var buf bytes.Buffer
	if err := planner.WriteJSON(&buf, p); err != nil {
		t.Fatal(err)
	}
	good := buf.String()
	if perr, jerr := verify.PlanAndJSON(p.Graph, p, opt, strings.NewReader(good)); perr != nil || jerr != nil {
		t.Fatalf("a good plan: %v, %v", perr, jerr)
	}
	bad := strings.Replace(good, `"lower_bound": 256`, `"lower_bound": 0`, 1)
	perr, jerr := verify.PlanAndJSON(p.Graph, p, opt, strings.NewReader(bad))
	if perr != nil || jerr == nil || !strings.Contains(jerr.Error(), "lower_bound 0, want 256") {
		t.Fatalf("an edited document: %v, %v", perr, jerr)
	}
	p.Bundles[0].LowerBound++ // now the document states a plan that is wrong
	perr, jerr = verify.PlanAndJSON(p.Graph, p, opt, strings.NewReader(good))
	if perr == nil || !strings.Contains(perr.Error(), "lower bound 257, the live bytes peak at 256") || jerr == nil {
		t.Fatalf("a corrupted plan: %v, %v", perr, jerr)
	}
}
