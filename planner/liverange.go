package planner

import (
	"sync"
	"sync/atomic"

	"github.com/sdscgen/sdscgen/alloc"
	"github.com/sdscgen/sdscgen/ir"
)

// access is one touch of a candidate group inside its bundle: the op's
// index times 2, plus 1 for a read (4 bytes: a bundle of a million ops
// touches its candidates millions of times).
type access uint32

func touch(op int, read bool) access {
	a := access(op) << 1
	if read {
		a |= 1
	}
	return a
}

func (a access) op() int32  { return int32(a >> 1) }
func (a access) read() bool { return a&1 != 0 }

// rawTouch is an access and the group it touches.
type rawTouch struct {
	group int32
	access
}

// planBundles plans every bundle, on opt.Workers goroutines. Each bundle
// writes only its own Bundles entry and the Groups entries of its own
// candidates, and reads the graph, bundleOf and the allocator, so the
// result does not depend on how the bundles are shared out.
func planBundles(g *ir.Graph, p *Result, opt Options, place alloc.Func, bundleOf []int32) {
	// Every bundle's candidates go into one array: where bundle bi's
	// begin is the number of candidates of the bundles before it.
	at := make([]int, len(g.Bundles)+1)
	for _, b := range bundleOf {
		if b >= 0 {
			at[b+1]++
		}
	}
	for bi := range g.Bundles {
		at[bi+1] += at[bi]
	}
	cands := make([]int, at[len(g.Bundles)])
	// count is scratch indexed by group, all zero between bundles. It is
	// shared by the workers: a bundle touches only its own candidates'
	// entries.
	count := make([]int32, len(g.Groups))
	// One scratch per worker, dropped with the call.
	scratches := make([]scratch, max(opt.Workers, 1))
	forChunks(opt.Workers, len(g.Bundles), 1, func(w, lo, hi int) {
		for bi := lo; bi < hi; bi++ {
			scratches[w].planBundle(g, p, bi, opt.Budget, place, bundleOf, count, cands[at[bi]:at[bi]:at[bi+1]])
		}
	})
}

// forChunks calls f on [0, n) cut into runs of chunk indices, on up to
// workers goroutines (the caller's alone when workers <= 1), and returns
// when every call has. The runs are handed out in order as goroutines
// come free, so uneven runs share out well. f's w is the goroutine's
// number, in [0, max(workers, 1)): calls with the same w never overlap.
func forChunks(workers, n, chunk int, f func(w, lo, hi int)) {
	runs := (n + chunk - 1) / chunk
	workers = min(workers, runs)
	if workers <= 1 {
		if n > 0 {
			f(0, 0, n)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for {
				r := int(next.Add(1) - 1)
				if r >= runs {
					return
				}
				f(w, r*chunk, min((r+1)*chunk, n))
			}
		})
	}
	wg.Wait()
}

// scratch is one worker's reusable memory for planBundle.
type scratch struct {
	raw                          []rawTouch
	loopAt, loops                []int32
	cands                        []int
	first                        []int32
	touches                      []access
	stamp, firstRead, firstWrite []int
	touched                      []int32
	items                        []alloc.Interval
}

// grow returns s resized to n, reusing its array when large enough.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// planBundle computes live ranges (bundle-ir.md §3.2) for the candidates of bundle
// bi, places them, and fills in the bundle's pool entry; out (empty, with
// room for exactly the bundle's candidates) becomes its Candidates.
//
// bundleOf holds every group's Bundle. count is scratch indexed by group,
// all zero on entry and on return (for this bundle's candidates, the only
// entries it touches). The
// touches of every candidate are gathered into one flat array, grouped by
// candidate and in step order within a candidate (reads before writes
// within an op, which is what "first read at or before first write"
// compares): two passes over the bundle's accesses, no per-group slices.
func (sc *scratch) planBundle(g *ir.Graph, p *Result, bi int, budget int64, place alloc.Func, bundleOf, count []int32, out []int) {
	b := &g.Bundles[bi]
	if cap(out) == 0 {
		return
	}
	// One pass over the bundle's accesses lists the candidates' touches
	// in step order (raw) and counts them per candidate; the touches are
	// then regrouped by candidate from raw, not from the graph again.
	// With loops, each op's loop list is copied too (loops[loopAt[oi]:
	// loopAt[oi+1]]), so that the range pass below reads it from this
	// small array instead of from each op again, touch by touch.
	b32 := int32(bi)
	cands := sc.cands[:0]
	nl := len(b.Loops)
	nacc, nloops := 0, 0
	for oi := range b.Ops {
		op := &b.Ops[oi]
		nacc += len(g.Reads(op)) + len(g.Writes(op))
		nloops += len(g.OpLoops(op))
	}
	raw := grow(sc.raw, nacc)[:0]
	loopAt, loops := sc.loopAt[:0], sc.loops[:0]
	if nl > 0 {
		loopAt, loops = grow(loopAt, len(b.Ops)+1)[:0], grow(loops, nloops)[:0]
	}
	for oi := range b.Ops {
		op := &b.Ops[oi]
		if nl > 0 {
			loopAt = append(loopAt, int32(len(loops)))
			for _, li := range g.OpLoops(op) {
				loops = append(loops, int32(li))
			}
		}
		for i := range g.Reads(op) {
			if gi := g.Reads(op)[i].Group; bundleOf[gi] == b32 {
				raw = append(raw, rawTouch{int32(gi), touch(oi, true)})
			}
		}
		for i := range g.Writes(op) {
			if gi := g.Writes(op)[i].Group; bundleOf[gi] == b32 {
				raw = append(raw, rawTouch{int32(gi), touch(oi, false)})
			}
		}
	}
	sc.raw = raw
	if nl > 0 {
		loopAt = append(loopAt, int32(len(loops)))
	}
	sc.loopAt, sc.loops = loopAt, loops
	for _, t := range raw {
		if count[t.group] == 0 {
			cands = append(cands, int(t.group))
		}
		count[t.group]++
	}
	sc.cands = cands
	// count becomes each candidate's next slot in touches; first[k] is
	// where candidate k's touches begin.
	first := grow(sc.first, len(cands)+1)
	sc.first = first
	first[0] = 0
	for k, gi := range cands {
		n := count[gi]
		count[gi] = first[k]
		first[k+1] = first[k] + n
	}
	touches := grow(sc.touches, len(raw))
	sc.touches = touches
	for _, t := range raw {
		touches[count[t.group]] = t.access
		count[t.group]++
	}

	// Per-loop scratch, stamped with the group being processed so it
	// needs no clearing between groups.
	stamp := grow(sc.stamp, nl)
	sc.stamp = stamp
	for i := range stamp {
		stamp[i] = -1
	}
	firstRead := grow(sc.firstRead, nl)
	firstWrite := grow(sc.firstWrite, nl)
	sc.firstRead, sc.firstWrite = firstRead, firstWrite
	touched := sc.touched[:0]
	items := grow(sc.items, len(cands))
	sc.items = items
	for k, gi := range cands {
		count[gi] = 0
		ts := touches[first[k]:first[k+1]]
		start, end := int(ts[0].op()), int(ts[len(ts)-1].op())
		if nl > 0 {
			touched = touched[:0]
			for _, t := range ts {
				op := t.op()
				for _, li := range loops[loopAt[op]:loopAt[op+1]] {
					if stamp[li] != gi {
						stamp[li] = gi
						firstRead[li], firstWrite[li] = -1, -1
						touched = append(touched, li)
					}
					if t.read() {
						if firstRead[li] < 0 {
							firstRead[li] = int(op)
						}
					} else if firstWrite[li] < 0 {
						firstWrite[li] = int(op)
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
					start = min(start, int(l.First))
				}
				end = max(end, int(l.Last))
			}
		}
		pg := &p.Groups[gi]
		pg.Start, pg.End = int32(start), int32(end)
		items[k] = alloc.Interval{Name: g.GroupName(&g.Groups[gi]), Size: g.Groups[gi].Size, Start: start, End: end}
	}
	sc.touched = touched
	if len(raw) > 1<<20 {
		// A huge bundle: let the collector have the touches while the
		// allocator runs, rather than keep them for the next bundle.
		sc.raw, sc.touches, sc.loopAt, sc.loops = nil, nil, nil, nil
	}

	res := place(items, budget)
	pb := &p.Bundles[bi]
	pb.PoolSize = res.PoolEnd
	pb.LowerBound = LowerBound(items)
	out = alloc.AppendStartOrder(out, items)
	for j, k := range out {
		gi := cands[k]
		out[j] = gi
		if off := res.Offsets[k]; off >= 0 {
			p.Groups[gi].Offset = off
		} else {
			p.Groups[gi].Reason = OverBudget
		}
	}
	pb.Candidates = out
	clear(items) // drop the names until the next bundle
}
