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

// planBundle computes live ranges (spec §2.2) for the candidates of bundle
// bi, places them, and fills in the bundle's pool entry.
//
// touches is scratch indexed by group, empty on entry and on return; it
// holds each candidate's touches in step order (reads before writes within
// an op, which is what "first read at or before first write" compares).
func planBundle(g *ir.Graph, p *Result, bi int, budget int64, place alloc.Func, touches [][]access) {
	b := &g.Bundles[bi]
	var cands []int
	note := func(gi, op int, read bool) {
		if p.Groups[gi].Bundle != bi {
			return
		}
		if len(touches[gi]) == 0 {
			cands = append(cands, gi)
		}
		touches[gi] = append(touches[gi], access{int32(op), read})
	}
	for oi, op := range b.Ops {
		for _, a := range op.Reads {
			note(a.Group, oi, true)
		}
		for _, a := range op.Writes {
			note(a.Group, oi, false)
		}
	}
	if len(cands) == 0 {
		return
	}

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
	for _, gi := range cands {
		ts := touches[gi]
		pg := &p.Groups[gi]
		pg.Start, pg.End = int(ts[0].op), int(ts[len(ts)-1].op)
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
		touches[gi] = nil
		pg := &p.Groups[gi]
		items[k] = alloc.Interval{Name: g.Groups[gi].Name, Size: g.Groups[gi].Size, Start: pg.Start, End: pg.End}
	}
	res := place(items, budget)
	pb := &p.Bundles[bi]
	pb.PoolSize = res.PoolEnd
	pb.LowerBound = alloc.LowerBound(items)
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
