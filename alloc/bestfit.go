package alloc

import (
	"math"
)

// BestFit keeps the seed's processing order (StartOrder, blocks freed
// when their interval ended strictly before the next start) but manages
// the free list like a general-purpose allocator: freed blocks coalesce
// with free neighbours, each buffer takes the smallest free block that
// holds it (lowest offset on ties) at that block's low end, and when none
// does, a free block touching the pool end is extended upward instead of
// bumping past it, so the top of the pool is never left as a hole.
//
// Over budget: exactly like first-fit, a buffer falls back (offset -1)
// when no free block holds it and placing it at the top (extended free
// block or bump) would take the pool end past the budget; nothing changes
// and later buffers are placed as if it did not exist.
func BestFit(items []Interval, budget int64) Result {
	r, _ := bestFit(items, budget, StartOrder(items), nil)
	return r
}

// bestFit runs the best-fit policy over items in the given order; order
// must be sorted by start (blocks are released by end < start). stop,
// when non-nil, is polled every 1024 buffers; ok is false when it cut the
// run short.
func bestFit(items []Interval, budget int64, order []int, stop func() bool) (res Result, ok bool) {
	res = Result{Offsets: make([]int64, len(items))}
	byOff := newPairSet()  // (offset, size) of free blocks
	bySize := newPairSet() // (size, offset) of the same blocks
	var live liveHeap
	seq := 0
	addFree := func(off, size int64) {
		byOff.Insert(pair{off, size})
		bySize.Insert(pair{size, off})
	}
	delFree := func(off, size int64) {
		byOff.Delete(pair{off, size})
		bySize.Delete(pair{size, off})
	}
	for k, i := range order {
		if stop != nil && k&1023 == 1023 && stop() {
			return res, false
		}
		it := items[i]
		for live.Len() > 0 && live[0].end < it.Start {
			b := live.pop()
			off, size := b.off, b.size
			if p, ok := byOff.Floor(pair{off, math.MinInt64}); ok && p.a+p.b == off {
				delFree(p.a, p.b)
				off, size = p.a, size+p.b
			}
			if q, ok := byOff.Ceil(pair{off + size, math.MinInt64}); ok && q.a == off+size {
				delFree(q.a, q.b)
				size += q.b
			}
			addFree(off, size)
		}
		if it.Size <= 0 {
			// Nothing to place; keep it out of the free list's way.
			res.Offsets[i] = 0
			continue
		}
		var off int64
		if p, ok := bySize.Ceil(pair{it.Size, math.MinInt64}); ok {
			off = p.b
			delFree(p.b, p.a)
			if p.a > it.Size {
				addFree(off+it.Size, p.a-it.Size)
			}
		} else {
			off = res.PoolEnd
			top, ok := byOff.Floor(pair{res.PoolEnd, math.MinInt64})
			useTop := ok && top.a+top.b == res.PoolEnd
			if useTop {
				off = top.a
			}
			if it.Size > budget-off {
				res.Offsets[i] = -1
				continue
			}
			if useTop {
				delFree(top.a, top.b)
			}
			res.PoolEnd = off + it.Size
		}
		res.Offsets[i] = off
		live.push(liveBlock{end: it.End, seq: seq, off: off, size: it.Size})
		seq++
	}
	return res, true
}
