package verify

import (
	"math/rand"
	"testing"

	"github.com/sdscgen/sdscgen/frontend"
	"github.com/sdscgen/sdscgen/internal/randgraph"
	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/planner"
)

// TestLiveRangesLiteral: on random graphs with nested loops, the live
// ranges of liveRanges' one sweep equal bundle-ir.md §3.2 applied as
// worded: from the first to the last step touching the candidate, and
// for every loop around such a step (by the ops' recorded loops and the
// loops' own First/Last, plus the whole bundle for a bare loop bundle),
// when its first read in the loop is at or before its first write there:
// end to the loop's last step, and with a write there, start to its
// first.
func TestLiveRangesLiteral(t *testing.T) {
	cands := 0
	for seed := range int64(400) {
		cfg := randgraph.Config{Buffers: 4 + int(seed%30), Bundles: 1 + int(seed%5), MaxOps: 2 + int(seed%14), MaxDepth: int(seed % 5)}
		src := randgraph.Generate(rand.New(rand.NewSource(seed)), cfg)
		g, errs := frontend.ParseCheck("r.bir", []byte(src))
		if errs != nil {
			t.Fatalf("seed %d: %v", seed, errs)
		}
		p := planner.Plan(g, planner.Options{Budget: planner.DefaultBudget})
		c := &checker{g: g, p: p, opt: Options{Budget: planner.DefaultBudget}}
		if !c.begin() {
			t.Fatalf("seed %d: %v", seed, c.result())
		}
		c.reasons()
		s := new(scratch)
		for bi := range g.Bundles {
			c.liveRanges(s, bi)
			for _, gi := range c.candOf(bi) {
				start, end := literalRange(g, bi, gi)
				if w := c.ws[gi]; w.start != start || w.end != end {
					t.Fatalf("seed %d: group %q in bundle %q: [%d, %d], the rule as worded gives [%d, %d]\n%s",
						seed, c.groupName(int(gi)), g.Bundles[bi].Name, w.start, w.end, start, end, src)
				}
				cands++
			}
		}
		if err := c.result(); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
	if cands < 1000 {
		t.Fatalf("only %d candidates compared", cands)
	}
}

// literalRange applies the live-range rule to group gi of bundle bi,
// quadratic and plain.
func literalRange(g *ir.Graph, bi int, gi int32) (start, end int32) {
	b := &g.Bundles[bi]
	var reads, writes []int
	for st := range b.Ops {
		for _, a := range g.Reads(&b.Ops[st]) {
			if g.GroupOf(&a) == gi {
				reads = append(reads, st)
			}
		}
		for _, a := range g.Writes(&b.Ops[st]) {
			if g.GroupOf(&a) == gi {
				writes = append(writes, st)
			}
		}
	}
	touches := append(append([]int(nil), reads...), writes...)
	lo, hi := touches[0], touches[0]
	for _, st := range touches {
		lo, hi = min(lo, st), max(hi, st)
	}
	type span struct{ first, last int }
	var loops []span
	for _, st := range touches {
		for _, l := range g.OpLoops(&b.Ops[st]) {
			loops = append(loops, span{int(b.Loops[l].First), int(b.Loops[l].Last)})
		}
	}
	if b.Kind == ir.KindLoop {
		loops = append(loops, span{0, len(b.Ops) - 1})
	}
	first := func(steps []int, sp span) int {
		f := -1
		for _, st := range steps {
			if st >= sp.first && st <= sp.last && (f < 0 || st < f) {
				f = st
			}
		}
		return f
	}
	for _, sp := range loops {
		r, w := first(reads, sp), first(writes, sp)
		if r < 0 || (w >= 0 && r > w) {
			continue
		}
		hi = max(hi, sp.last)
		if w >= 0 {
			lo = min(lo, sp.first)
		}
	}
	return int32(lo), int32(hi)
}
