package mlirref

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand"
	"testing"

	"github.com/sdscgen/sdscgen/frontend"
	"github.com/sdscgen/sdscgen/internal/randgraph"
	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/mlirgen"
	"github.com/sdscgen/sdscgen/planner"
)

// graphs is the number of random graphs of each property test (each is
// compared fused and unfused, under three plans and four forms).
var graphs = flag.Int("mlirref.graphs", 600, "random graphs per property test")

func numGraphs() int {
	if testing.Short() {
		return 60
	}
	return *graphs
}

// planVariants are the plans every graph is emitted under: the default
// first-fit plan, planning disabled (everything a kernel arg), and a
// budget small enough that some candidates fall back (over-budget groups
// are kernel args; a bundle whose candidates all overflowed has no pool).
var planVariants = []struct {
	name string
	opt  planner.Options
}{
	{"first-fit", planner.Options{Budget: planner.DefaultBudget}},
	{"disabled", planner.Options{Budget: planner.DefaultBudget, Disabled: true}},
	{"budget-1024", planner.Options{Budget: 1024}},
}

var forms = []Options{
	{},
	{FrontendPoolAllocation: true},
	{Generic: true},
	{Generic: true, FrontendPoolAllocation: true},
}

// caches are the two settings of the sdsc_cache every module is compared
// under.
var caches = []bool{false, true}

// compareGraph plans src every way and compares mlirgen with the reference
// for every bundle and form, with the sdsc_cache off and (when some op has
// a kind) on; it returns the number of modules compared.
func compareGraph(t *testing.T, label, src string) int {
	t.Helper()
	f, errs := frontend.Parse(label+".bir", []byte(src))
	if errs.Len() > 0 {
		t.Fatalf("%s: parse: %v\n%s", label, errs, src)
	}
	g, errs := frontend.Check(f)
	if errs.Len() > 0 {
		t.Fatalf("%s: check: %v\n%s", label, errs, src)
	}
	return compareChecked(t, label, src, g)
}

// hasKind reports whether some op of g has a kind: without one the cache
// changes nothing, and the property tests compare the cache on only when
// it can matter.
func hasKind(g *ir.Graph) bool {
	for bi := range g.Bundles {
		for oi := range g.Bundles[bi].Ops {
			if g.OpKind(&g.Bundles[bi].Ops[oi]) != "" {
				return true
			}
		}
	}
	return false
}

// compareChecked is compareGraph on the checked graph g of src.
func compareChecked(t *testing.T, label, src string, g *ir.Graph) int {
	t.Helper()
	n := 0
	for _, graph := range []struct {
		name string
		g    *ir.Graph
	}{{"fused", g}, {"unfused", g.Unfused()}} {
		for _, pv := range planVariants {
			p := planner.Plan(graph.g, pv.opt)
			for _, cache := range caches {
				if cache && !hasKind(graph.g) {
					continue // the same text as off (Reading 12; TestCacheOnWithoutKindsIsOff)
				}
				// EmitAll: the modules of every bundle joined by the
				// separator.
				var all bytes.Buffer
				if err := mlirgen.EmitAll(&all, p, mlirgen.Options{SDSCCache: cache}); err != nil {
					t.Fatalf("%s: mlirgen.EmitAll: %v", label, err)
				}
				var joined string
				for bi := range graph.g.Bundles {
					if bi > 0 {
						joined += mlirgen.Separator
					}
					joined += Emit(graph.g, p, bi, Options{SDSCCache: cache})
				}
				if all.String() != joined {
					t.Fatalf("%s %s %s cache=%v: mlirgen.EmitAll differs from the reference modules joined by %q\n%s\ninput:\n%s",
						label, graph.name, pv.name, cache, mlirgen.Separator, Diff(joined, all.String()), src)
				}
				for bi := range graph.g.Bundles {
					for _, o := range forms {
						o.SDSCCache = cache
						var buf bytes.Buffer
						err := mlirgen.Emit(&buf, p, bi, mlirgen.Options{Generic: o.Generic, FrontendPoolAllocation: o.FrontendPoolAllocation, SDSCCache: cache})
						if err != nil {
							t.Fatalf("%s: mlirgen.Emit: %v", label, err)
						}
						want := Emit(graph.g, p, bi, o)
						n++
						if got := buf.String(); got != want {
							t.Fatalf("%s %s %s bundle %q %+v: mlirgen differs from the reference\n%s\ninput:\n%s\nreference:\n%s\nmlirgen:\n%s",
								label, graph.name, pv.name, graph.g.Bundles[bi].Name, o, Diff(want, got), src, want, got)
						}
					}
				}
			}
		}
	}
	return n
}

// TestAgainstMlirgen: seeded random v3 graphs from internal/randgraph
// (with a small pool of kinds per graph).
func TestAgainstMlirgen(t *testing.T) {
	cfgs := []randgraph.Config{
		randgraph.Default,
		{Buffers: 6, Bundles: 2, MaxOps: 8, MaxDepth: 2},
		{Buffers: 20, Bundles: 6, MaxOps: 10, MaxDepth: 4},
	}
	modules := 0
	n := numGraphs()
	for seed := 0; seed < n; seed++ {
		cfg := cfgs[seed%len(cfgs)]
		src := randgraph.Generate(rand.New(rand.NewSource(int64(seed))), cfg)
		modules += compareGraph(t, fmt.Sprintf("randgraph-seed-%d", seed), src)
	}
	t.Logf("%d graphs, %d modules compared", n, modules)
}

// TestAgainstMlirgenCache: this package's v3 generator (cacheGraph), aimed
// at the sdsc_cache: ops repeating an earlier op's kind and structure with
// small changes, so that both hits and near misses are common.
func TestAgainstMlirgenCache(t *testing.T) {
	modules := 0
	n := numGraphs()
	for seed := 0; seed < n; seed++ {
		src := cacheGraph(rand.New(rand.NewSource(int64(seed))))
		modules += compareGraph(t, fmt.Sprintf("cache-seed-%d", seed), src)
	}
	t.Logf("%d graphs, %d modules compared", n, modules)
}

// TestAgainstMlirgenSymbols: this package's own generator, aimed at the
// symbol rules randgraph reaches rarely: many views of a few storages at
// offsets that collide (v + o_c sums shared by different views), cores
// whose splits repeat offsets, the same storage read and written by one
// op, steps in shared and differing maps.
func TestAgainstMlirgenSymbols(t *testing.T) {
	modules := 0
	n := numGraphs()
	for seed := 0; seed < n; seed++ {
		src := symbolGraph(rand.New(rand.NewSource(int64(seed))))
		modules += compareGraph(t, fmt.Sprintf("symbols-seed-%d", seed), src)
	}
	t.Logf("%d graphs, %d modules compared", n, modules)
}
