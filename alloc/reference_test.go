package alloc

import (
	"math"
	"sort"
)

// Plain, quadratic versions of the new policies, written straight from
// their definitions, for the optimized ones to be compared against.

// naiveBestFit: start order; expired blocks freed and merged with
// adjacent free blocks; smallest free block that fits (lowest offset on
// ties), else extend a free block ending at the pool end, else bump.
func naiveBestFit(items []Interval, budget int64) Result {
	type blk struct {
		off, size int64
		end       int
	}
	res := Result{Offsets: make([]int64, len(items))}
	var free, live []blk
	for _, i := range StartOrder(items) {
		it := items[i]
		kept := live[:0:0]
		for _, b := range live {
			if b.end < it.Start {
				free = append(free, b)
			} else {
				kept = append(kept, b)
			}
		}
		live = kept
		// Merge adjacent free blocks.
		sort.Slice(free, func(a, b int) bool { return free[a].off < free[b].off })
		merged := free[:0:0]
		for _, b := range free {
			if k := len(merged) - 1; k >= 0 && merged[k].off+merged[k].size == b.off {
				merged[k].size += b.size
			} else {
				merged = append(merged, b)
			}
		}
		free = merged
		best := -1
		for k, b := range free {
			if b.size >= it.Size && (best < 0 || b.size < free[best].size) {
				best = k
			}
		}
		var off int64
		if best >= 0 {
			off = free[best].off
			free[best].off += it.Size
			free[best].size -= it.Size
			if free[best].size == 0 {
				free = append(free[:best], free[best+1:]...)
			}
		} else {
			off = res.PoolEnd
			top := -1
			if k := len(free) - 1; k >= 0 && free[k].off+free[k].size == res.PoolEnd {
				top, off = k, free[k].off
			}
			if off+it.Size > budget {
				res.Offsets[i] = -1
				continue
			}
			if top >= 0 {
				free = free[:top]
			}
			res.PoolEnd = off + it.Size
		}
		res.Offsets[i] = off
		live = append(live, blk{off, it.Size, it.End})
	}
	return res
}

// naiveSizeBestFit: SizeOrder; for each buffer, the gaps between the
// placed buffers that overlap it in time; the smallest that holds it
// (lowest offset on ties), else on top of them all.
func naiveSizeBestFit(items []Interval, budget int64) Result {
	res := Result{Offsets: make([]int64, len(items))}
	for i := range res.Offsets {
		res.Offsets[i] = -1
	}
	for _, i := range SizeOrder(items) {
		it := items[i]
		type sp struct{ lo, hi int64 }
		var nb []sp
		for j := range items {
			if res.Offsets[j] >= 0 && items[j].Conflicts(it) {
				nb = append(nb, sp{res.Offsets[j], res.Offsets[j] + items[j].Size})
			}
		}
		sort.Slice(nb, func(a, b int) bool { return nb[a].lo < nb[b].lo })
		var cur int64
		best, bestLen := int64(-1), int64(math.MaxInt64)
		for _, s := range nb {
			if g := s.lo - cur; g >= it.Size && g < bestLen {
				best, bestLen = cur, g
			}
			cur = max(cur, s.hi)
		}
		if best < 0 {
			best = cur
		}
		if best+it.Size > budget {
			continue
		}
		res.Offsets[i] = best
		res.PoolEnd = max(res.PoolEnd, best+it.Size)
	}
	return res
}

// naiveDive: repeatedly place the unplaced buffer whose min offset (the
// highest top among placed buffers it overlaps) is lowest, ties by rank,
// at that min offset; one over budget falls back.
func naiveDive(items []Interval, rank []int32, budget int64) Result {
	n := len(items)
	res := Result{Offsets: make([]int64, n)}
	done := make([]bool, n)
	for k := 0; k < n; k++ {
		best, bestOff := -1, int64(0)
		for i := 0; i < n; i++ {
			if done[i] {
				continue
			}
			var mo int64
			for j := 0; j < n; j++ {
				if done[j] && res.Offsets[j] >= 0 && items[i].Conflicts(items[j]) {
					mo = max(mo, res.Offsets[j]+items[j].Size)
				}
			}
			if best < 0 || mo < bestOff || (mo == bestOff && rank[i] < rank[best]) {
				best, bestOff = i, mo
			}
		}
		done[best] = true
		if bestOff+items[best].Size > budget {
			res.Offsets[best] = -1
			continue
		}
		res.Offsets[best] = bestOff
		res.PoolEnd = max(res.PoolEnd, bestOff+items[best].Size)
	}
	return res
}
