package planner

import (
	"math/rand"
	"testing"

	"github.com/sdscgen/sdscgen/alloc"
	"github.com/sdscgen/sdscgen/frontend"
	"github.com/sdscgen/sdscgen/internal/randgraph"
	"github.com/sdscgen/sdscgen/ir"
)

// specRange is bundle-ir.md §2.2 as written, one candidate at a time:
// start and end are its first and last touching steps; then for every
// loop of the bundle, with the group's first read and first write inside
// the loop found by scanning the loop's steps (a read and a write in one
// op: the read counts as first), the loop's start and end are taken as the
// rule says.
func specRange(g *ir.Graph, b *ir.Bundle, gi int32) (start, end int) {
	touches := func(op *ir.Op, as []ir.Access) bool {
		for _, a := range as {
			if g.GroupOf(&a) == gi {
				return true
			}
		}
		return false
	}
	start, end = -1, -1
	for s := range b.Ops {
		if touches(&b.Ops[s], g.Reads(&b.Ops[s])) || touches(&b.Ops[s], g.Writes(&b.Ops[s])) {
			if start < 0 {
				start = s
			}
			end = s
		}
	}
	for _, l := range b.Loops {
		firstRead, firstWrite := -1, -1
		for s := int(l.First); s <= int(l.Last); s++ {
			if firstRead < 0 && touches(&b.Ops[s], g.Reads(&b.Ops[s])) {
				firstRead = s
			}
			if firstWrite < 0 && touches(&b.Ops[s], g.Writes(&b.Ops[s])) {
				firstWrite = s
			}
		}
		if firstRead < 0 || (firstWrite >= 0 && firstRead > firstWrite) {
			continue
		}
		if firstWrite >= 0 {
			start = min(start, int(l.First))
		}
		end = max(end, int(l.Last))
	}
	return start, end
}

// The one-pass live ranges equal the rule applied loop by loop, for every
// candidate of random graphs with loops nested up to four deep (and their
// unfused forms, where every loop spans one step), with either allocator
// path (the ordered one of FirstFit and the []Interval one).
func TestLiveRangesMatchSpec(t *testing.T) {
	checked, extended := 0, 0
	for seed := 0; seed < 1500; seed++ {
		r := rand.New(rand.NewSource(int64(seed)))
		cfg := randgraph.Config{Buffers: 2 + r.Intn(24), Bundles: 1 + r.Intn(4), MaxOps: 1 + r.Intn(12), MaxDepth: r.Intn(5)}
		src := randgraph.Generate(r, cfg)
		g, errs := frontend.ParseCheck("t.bir", []byte(src))
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		if seed%5 == 0 {
			g = g.Unfused()
		}
		for _, o := range []Options{{Budget: 1 << 40}, {Budget: 1 << 40, Allocator: alloc.Placer{Name: "first-fit", Func: wrapFirstFit}}} {
			p := Plan(g, o)
			for gi, pg := range p.Groups {
				if pg.Bundle < 0 {
					continue
				}
				start, end := specRange(g, &g.Bundles[pg.Bundle], int32(gi))
				if int(pg.Start) != start || int(pg.End) != end {
					t.Fatalf("seed %d, group %s: range %d..%d, the rule gives %d..%d\n%s", seed, g.GroupKey(&g.Groups[gi]), pg.Start, pg.End, start, end, src)
				}
				checked++
				first, last := -1, -1
				for s, op := range g.Bundles[pg.Bundle].Ops {
					for _, a := range g.OpAccesses(&op) {
						if g.GroupOf(&a) == int32(gi) {
							if first < 0 {
								first = s
							}
							last = s
						}
					}
				}
				if start != first || end != last {
					extended++
				}
			}
		}
	}
	if checked == 0 || extended == 0 {
		t.Fatalf("%d ranges checked, %d extended by a loop: the rule is not exercised", checked, extended)
	}
}

func wrapFirstFit(items []alloc.Interval, budget int64) alloc.Result {
	return alloc.FirstFit(items, budget)
}
