package planner_test

import (
	"bytes"
	"math/rand"
	"reflect"
	"testing"

	"github.com/sdscgen/sdscgen/alloc"
	"github.com/sdscgen/sdscgen/internal/randgraph"
	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/planner"
	"github.com/sdscgen/sdscgen/synth"
)

// samePlan fails unless a and b decide the same for every group and
// bundle (deeply: reasons, ranges, offsets, candidate orders, pool sizes,
// lower bounds, compare columns).
func samePlan(t *testing.T, what string, a, b *planner.Result) {
	t.Helper()
	if a.Allocator != b.Allocator || a.Budget != b.Budget || a.Disabled != b.Disabled {
		t.Fatalf("%s: header %s/%d/%v vs %s/%d/%v", what, a.Allocator, a.Budget, a.Disabled, b.Allocator, b.Budget, b.Disabled)
	}
	if !reflect.DeepEqual(a.Groups, b.Groups) {
		for gi := range a.Groups {
			if a.Groups[gi] != b.Groups[gi] {
				t.Fatalf("%s: group %s: %+v vs %+v", what, a.Graph.GroupKey(&a.Graph.Groups[gi]), a.Groups[gi], b.Groups[gi])
			}
		}
		t.Fatalf("%s: groups differ", what)
	}
	if !reflect.DeepEqual(a.Bundles, b.Bundles) {
		t.Fatalf("%s: bundles differ:\n%+v\nvs\n%+v", what, a.Bundles, b.Bundles)
	}
	if !reflect.DeepEqual(a.Compare, b.Compare) {
		t.Fatalf("%s: compare differs:\n%+v\nvs\n%+v", what, a.Compare, b.Compare)
	}
}

// allocators is every allocator of alloc.Table(); best with a small node
// budget, so that its search runs (and is cut) on the larger graphs.
func allocators() []alloc.Placer {
	var all []alloc.Placer
	for _, a := range alloc.Table() {
		all = append(all, a.With(alloc.Options{MaxNodes: 2000}))
	}
	return all
}

// TestPlanWorkers: planning bundles on several goroutines gives exactly
// the plan of one goroutine, for every allocator and with --compare, on
// random graphs of up to 8 bundles and on synthetic graphs of 40 and 300
// bundles (more bundles than workers, of uneven sizes).
func TestPlanWorkers(t *testing.T) {
	all := allocators()
	check := func(what string, g *ir.Graph, budget int64, disabled bool) {
		for _, a := range all {
			one := planner.Options{Budget: budget, Disabled: disabled, Allocator: a, Workers: 1}
			want := planner.Plan(g, one)
			want.Compare = planner.Compare(g, one, all)
			for _, w := range []int{0, 2, 3, 8} {
				o := one
				o.Workers = w
				got := planner.Plan(g, o)
				got.Compare = planner.Compare(g, o, all)
				samePlan(t, what+"/"+a.Name, want, got)
			}
		}
	}
	n := 300
	if testing.Short() {
		n = 50
	}
	for seed := 0; seed < n; seed++ {
		r := rand.New(rand.NewSource(int64(seed)))
		cfg := randgraph.Config{Buffers: 2 + r.Intn(30), Bundles: 1 + r.Intn(8), MaxOps: 1 + r.Intn(8), MaxDepth: r.Intn(4)}
		g := mustGraph(t, randgraph.Generate(r, cfg))
		budget := []int64{0, 128, 4096, DefaultBudgetForTest}[r.Intn(4)]
		check("random", g, budget, seed%50 == 7)
	}
	for _, c := range []struct{ ops, bundles int }{{4000, 40}, {3000, 300}} {
		var src bytes.Buffer
		if err := synth.Generate(&src, synth.Config{Ops: c.ops, Bundles: c.bundles, Seed: 3}); err != nil {
			t.Fatal(err)
		}
		g := mustGraph(t, src.String())
		check("synth", g, planner.DefaultBudget, false)
		check("synth-tight", g, 1<<16, false)
	}
}

// TestCompareColumns: each --compare column is the pool sizes of a plan
// made with that allocator alone, also when the options Compare starts
// from carry first-fit (with its ordered form, as sdscgen.Compile's do):
// a column must never be first-fit's placement under another
// allocator's name.
// The synthetic graph has bundles where best-fit and first-fit differ,
// which the test checks, so a wrong column cannot pass unnoticed.
func TestCompareColumns(t *testing.T) {
	var src bytes.Buffer
	if err := synth.Generate(&src, synth.Config{Ops: 4000, Bundles: 40, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	g := mustGraph(t, src.String())
	base := planner.Options{Budget: 1 << 20, Allocator: alloc.Default()}
	all := allocators()
	cols := planner.Compare(g, base, all)
	differs := false
	for i, a := range all {
		alone := planner.Plan(g, planner.Options{Budget: base.Budget, Allocator: a})
		for bi, b := range alone.Bundles {
			if cols[i].PoolSizes[bi] != b.PoolSize {
				t.Fatalf("%s, bundle %d: compare column %d, a plan with it alone %d", a.Name, bi, cols[i].PoolSizes[bi], b.PoolSize)
			}
			differs = differs || b.PoolSize != cols[0].PoolSizes[bi]
		}
	}
	if !differs {
		t.Fatal("every allocator gave first-fit's pool sizes: the graph cannot tell the columns apart")
	}
}
