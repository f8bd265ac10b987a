package planner

import (
	"github.com/sdscgen/sdscgen/alloc"
	"github.com/sdscgen/sdscgen/ir"
)

// access is one touch of a candidate group inside its bundle.
type access struct {
	op   int32
	read bool
}

// planBundle computes live ranges (bundle-ir.md §3.2) for the candidates of bundle
// bi, places them, and fills in the bundle's pool entry.
//
// bundleOf holds every group's Bundle. count is scratch indexed by group,
// all zero on entry and on return. The
// touches of every candidate are gathered into one flat array, grouped by
// candidate and in step order within a candidate (reads before writes
// within an op, which is what "first read at or before first write"
// compares): two passes over the bundle's accesses, no per-group slices.
func planBundle(g *ir.Graph, p *Result, bi int, budget int64, place alloc.Func, bundleOf, count []int32) {
	b := &g.Bundles[bi]
	// eachTouch visits the accesses of the bundle's candidates in step
	// order, reads before writes within an op.
	eachTouch := func(visit func(gi, op int, read bool)) {
		for oi := range b.Ops {
			op := &b.Ops[oi]
			for _, a := range op.Reads {
				if int(bundleOf[a.Group]) == bi {
					visit(a.Group, oi, true)
				}
			}
			for _, a := range op.Writes {
				if int(bundleOf[a.Group]) == bi {
					visit(a.Group, oi, false)
				}
			}
		}
	}
	var cands []int
	ntouch := 0
	eachTouch(func(gi, _ int, _ bool) {
		if count[gi] == 0 {
			cands = append(cands, gi)
		}
		count[gi]++
		ntouch++
	})
	if len(cands) == 0 {
		return
	}
	// count becomes each candidate's next slot in touches; first[k] is
	// where candidate k's touches begin.
	first := make([]int32, len(cands)+1)
	for k, gi := range cands {
		n := count[gi]
		count[gi] = first[k]
		first[k+1] = first[k] + n
	}
	touches := make([]access, ntouch)
	eachTouch(func(gi, op int, read bool) {
		touches[count[gi]] = access{int32(op), read}
		count[gi]++
	})

	// Per-loop scratch, stamped with the group being processed so it
	// needs no clearing between groups.
	nl := len(b.Loops)
	stamp := make([]int, nl)
	for i := range stamp {
		stamp[i] = -1
	}
	firstRead := make([]int, nl)
	firstWrite := make([]int, nl)
	var touched []int
	for k, gi := range cands {
		count[gi] = 0
		ts := touches[first[k]:first[k+1]]
		pg := &p.Groups[gi]
		pg.Start, pg.End = int(ts[0].op), int(ts[len(ts)-1].op)
		if nl == 0 {
			continue
		}
		touched = touched[:0]
		for _, t := range ts {
			for _, li := range b.Ops[t.op].Loops {
				if stamp[li] != gi {
					stamp[li] = gi
					firstRead[li], firstWrite[li] = -1, -1
					touched = append(touched, li)
				}
				if t.read && firstRead[li] < 0 {
					firstRead[li] = int(t.op)
				}
				if !t.read && firstWrite[li] < 0 {
					firstWrite[li] = int(t.op)
				}
			}
		}
		// The order of loops does not matter: each loop's test reads
		// only its own touches, and the updates are min/max.
		for _, li := range touched {
			fr, fw := firstRead[li], firstWrite[li]
			if fr < 0 || (fw >= 0 && fr > fw) {
				continue
			}
			l := &b.Loops[li]
			if fw >= 0 {
				pg.Start = min(pg.Start, l.First)
			}
			pg.End = max(pg.End, l.Last)
		}
	}

	items := make([]alloc.Interval, len(cands))
	for k, gi := range cands {
		pg := &p.Groups[gi]
		items[k] = alloc.Interval{Name: g.Groups[gi].Name, Size: g.Groups[gi].Size, Start: pg.Start, End: pg.End}
	}
	res := place(items, budget)
	pb := &p.Bundles[bi]
	pb.PoolSize = res.PoolEnd
	pb.LowerBound = LowerBound(items)
	pb.Candidates = make([]int, 0, len(cands))
	for _, k := range alloc.StartOrder(items) {
		gi := cands[k]
		pb.Candidates = append(pb.Candidates, gi)
		if off := res.Offsets[k]; off >= 0 {
			p.Groups[gi].Offset = off
		} else {
			p.Groups[gi].Reason = OverBudget
		}
	}
}
