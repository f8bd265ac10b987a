package planner

import (
	"slices"

	"github.com/sdscgen/sdscgen/alloc"
	"github.com/sdscgen/sdscgen/internal/par"
	"github.com/sdscgen/sdscgen/internal/slab"
	"github.com/sdscgen/sdscgen/ir"
)

// planBundles plans every bundle, on opt.Workers goroutines. Each bundle
// writes only its own Bundles entry and the Groups entries of its own
// candidates, and reads the graph, the other Groups entries' Bundle and
// the allocator, so the result does not depend on how the bundles are
// shared out.
func planBundles(g *ir.Graph, p *Result, opt Options, place alloc.Func, ordered alloc.Ordered) {
	// Every bundle's candidates go into one array, the plan's
	// CandidateGroups: bundle bi's begin where the candidates of the
	// bundles before it end. Each bundle's are listed in group order,
	// which is name order (ir.Graph.Groups), until place puts them
	// in processing order.
	nb := len(g.Bundles)
	at := make([]int, nb+1)
	for gi := range p.Groups {
		if b := p.Groups[gi].Bundle; b >= 0 {
			at[b+1]++
		}
	}
	for bi := range nb {
		at[bi+1] += at[bi]
	}
	cands := make([]int32, at[nb])
	next := slices.Clone(at[:nb])
	for gi := range p.Groups {
		if b := p.Groups[gi].Bundle; b >= 0 {
			cands[next[b]] = int32(gi)
			next[b]++
		}
	}
	next = nil
	p.CandidateGroups = cands
	// pending is scratch indexed by group, all false between bundles.
	// It is shared by the workers: a bundle touches only its own
	// candidates' entries.
	pending := make([]bool, len(g.Groups))
	// One scratch per worker, dropped with the call.
	scratches := make([]scratch, max(opt.Workers, 1))
	par.ForChunks(opt.Workers, nb, 1, func(w, lo, hi int) {
		for bi := lo; bi < hi; bi++ {
			sc := &scratches[w]
			sc.liveRanges(g, p, bi, pending, cands[at[bi]:at[bi+1]:at[bi+1]], ordered == nil)
			p.Bundles[bi].Candidates = ir.Span{Off: int32(at[bi]), Len: int32(at[bi+1] - at[bi])}
			sc.place(g, p, bi, opt.Budget, place, ordered, cands[at[bi]:at[bi+1]:at[bi+1]])
		}
	})
}

// scratch is one worker's reusable memory for planning a bundle: all of
// it small (per live block or per candidate of the bundle in hand, only
// on the path that hands an allocator a copy of its intervals).
type scratch struct {
	// firstTouch lists the candidates in the order of their first
	// touch, when the allocator takes []alloc.Interval (see place).
	firstTouch []int32
	items      []alloc.Interval
	live       []liveEnd
}

// liveRanges sets Start and End (bundle-ir.md §2.2) of the candidates of
// bundle bi, which cands lists, in one pass over the bundle's accesses in
// step order (within an op, reads before writes), with no per-candidate
// or per-loop scratch: the pass keeps each candidate's range so far in
// its Groups entry, and pending (indexed by group, false on entry and on
// return) for one bit more. With collect, it also lists the candidates
// in the order of their first touch in sc.firstTouch.
//
// The rule reads, for each counted loop L that the group is touched in,
// whether its first touch inside L reads it (a read and a write in one op
// count as the read first), and if so takes L's end, and L's start if the
// group is written inside L. Since loops nest (an op's Loops run from the
// outermost, each inside the one before), the pass decides this touch by
// touch:
//
//   - End: a touch at op o, with E the end so far (-1 before the first
//     touch), is the group's first touch in exactly the loops of o that
//     begin after E. (A loop of o beginning at or before E, but after the
//     group's previous touch, lies inside the loop whose end made E: its
//     end is at most E.) If o reads the group, the outermost of those
//     loops has the largest end, and the end becomes the larger of it and
//     o.
//   - Start: only a loop containing the group's first touch, at op s, can
//     begin before s, and the first touch inside any such loop is s. So
//     when op s reads the group and lies in a loop, the group's start is
//     the outermost loop's start if the group is written at or before
//     that loop's end: the first write after s (or at s) decides, which is
//     what pending waits for.
func (sc *scratch) liveRanges(g *ir.Graph, p *Result, bi int, pending []bool, cands []int32, collect bool) {
	if len(cands) == 0 {
		return
	}
	b := &g.Bundles[bi]
	for _, gi := range cands {
		p.Groups[gi].Start, p.Groups[gi].End = -1, -1
	}
	b32 := int32(bi)
	sc.firstTouch = sc.firstTouch[:0]
	for oi := range b.Ops {
		op := &b.Ops[oi]
		o := int32(oi)
		reads, writes, loops := g.Reads(op), g.Writes(op), g.OpLoops(op)
		for i := range reads {
			gi := g.GroupOf(&reads[i])
			pg := &p.Groups[gi]
			if pg.Bundle != b32 {
				continue
			}
			e := pg.End
			if e < 0 {
				pg.Start = o
				pending[gi] = len(loops) > 0
				if collect {
					sc.firstTouch = append(sc.firstTouch, int32(gi))
				}
			}
			end := max(e, o)
			// The loops of o begin in nondecreasing order (each inside
			// the one before), so when the innermost begins at or
			// before e none begins after it: the common case, a group
			// touched again inside the loops it was touched in.
			if len(loops) > 0 && int32(b.Loops[loops[len(loops)-1]].First) > e {
				for _, li := range loops {
					if l := &b.Loops[li]; int32(l.First) > e {
						end = max(end, int32(l.Last))
						break
					}
				}
			}
			pg.End = end
		}
		for i := range writes {
			gi := g.GroupOf(&writes[i])
			pg := &p.Groups[gi]
			if pg.Bundle != b32 {
				continue
			}
			if pg.End < 0 {
				pg.Start = o
				if collect {
					sc.firstTouch = append(sc.firstTouch, int32(gi))
				}
			} else if pending[gi] {
				pending[gi] = false
				if l := &b.Loops[g.OpLoops(&b.Ops[pg.Start])[0]]; o <= l.Last {
					pg.Start = l.First
				}
			}
			pg.End = max(pg.End, o)
		}
	}
	for _, gi := range cands {
		pending[gi] = false
	}
}

// place places the candidates of bundle bi (cands, in group order) with
// place, records their offsets or over-budget, fills in the bundle's pool
// entry, and leaves cands (its Candidates) in processing order.
//
// An allocator with an ordered form (Options.Ordered) reads the
// candidates straight from the plan; any other is handed them as
// []alloc.Interval, in the order of their first touch, as it always was.
func (sc *scratch) place(g *ir.Graph, p *Result, bi int, budget int64, place alloc.Func, ordered alloc.Ordered, cands []int32) {
	if len(cands) == 0 {
		return
	}
	pb := &p.Bundles[bi]
	steps := func(gi int32) (int, int) { pg := &p.Groups[gi]; return int(pg.Start), int(pg.End) }
	if ordered != nil {
		alloc.SortStartOrder(cands, steps)
		item := func(k int) (int64, int, int) {
			gi := cands[k]
			pg := &p.Groups[gi]
			return g.Groups[gi].Size, int(pg.Start), int(pg.End)
		}
		over := false
		var peak int64
		pb.PoolSize, peak = ordered(len(cands), budget, item, func(k int, off int64) {
			if pg := &p.Groups[cands[k]]; off >= 0 {
				pg.Offset = off
			} else {
				pg.Reason = OverBudget
				over = true
			}
		})
		// With every candidate placed, the live placed bytes the
		// allocator saw at each start are the lower bound's sweep;
		// otherwise the candidates it left out count too.
		pb.LowerBound = peak
		if over {
			pb.LowerBound = sc.lowerBoundOrdered(len(cands), item)
		}
		return
	}
	items := slab.Grow(sc.items, len(cands))
	for k, gi := range sc.firstTouch {
		pg := &p.Groups[gi]
		items[k] = alloc.Interval{Name: g.GroupKey(&g.Groups[gi]), Size: g.Groups[gi].Size, Start: int(pg.Start), End: int(pg.End)}
	}
	res := place(items, budget)
	pb.PoolSize = res.PoolEnd
	pb.LowerBound = LowerBound(items)
	out := alloc.AppendStartOrder(cands[:0], items)
	for j, k := range out {
		gi := sc.firstTouch[k]
		out[j] = gi
		if off := res.Offsets[k]; off >= 0 {
			p.Groups[gi].Offset = off
		} else {
			p.Groups[gi].Reason = OverBudget
		}
	}
	clear(items) // drop the names until the next bundle
	sc.items = items
	sc.firstTouch = sc.firstTouch[:0]
}
