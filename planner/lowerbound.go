package planner

import (
	"cmp"
	"math"
	"math/bits"
	"slices"

	"github.com/sdscgen/sdscgen/alloc"
)

// LowerBound is the most bytes of items live at any one step (a bundle's
// "lower_bound"), saturated at math.MaxInt64: a bundle whose candidates
// are live together with more than MaxInt64 bytes reports exactly
// MaxInt64, never a wrapped (negative or small) sum. Read MaxInt64 as "at
// least MaxInt64": no pool can be that large, since the budget is an
// int64 too.
//
// When the sizes of all items together fit in an int64, no partial sum can
// wrap and alloc.LowerBound answers; otherwise the peak is swept in 128-bit
// arithmetic and clamped.
func LowerBound(items []alloc.Interval) int64 {
	var total int64
	for _, it := range items {
		if it.Size > math.MaxInt64-total {
			return peakSaturated(items)
		}
		total += it.Size
	}
	return alloc.LowerBound(items)
}

// peakSaturated is LowerBound's sweep for items whose sizes sum past
// MaxInt64: events by step, frees (at End+1) before allocations at the
// same step, the live sum held as a 128-bit unsigned value (it never goes
// below zero, since a free follows its allocation).
func peakSaturated(items []alloc.Interval) int64 {
	type event struct {
		at   int
		free bool
		size uint64
	}
	evs := make([]event, 0, 2*len(items))
	for _, it := range items {
		evs = append(evs, event{it.Start, false, uint64(it.Size)}, event{it.End + 1, true, uint64(it.Size)})
	}
	slices.SortFunc(evs, func(a, b event) int {
		if c := cmp.Compare(a.at, b.at); c != 0 {
			return c
		}
		switch {
		case a.free == b.free:
			return 0
		case a.free:
			return -1
		}
		return 1
	})
	var hi, lo uint64 // the live sum
	var best uint64
	for _, e := range evs {
		var borrow, carry uint64
		if e.free {
			lo, borrow = bits.Sub64(lo, e.size, 0)
			hi -= borrow
			continue
		}
		lo, carry = bits.Add64(lo, e.size, 0)
		hi += carry
		if hi > 0 || lo > math.MaxInt64 {
			return math.MaxInt64
		}
		best = max(best, lo)
	}
	return int64(best)
}

// liveEnd is a candidate live at the step lowerBoundOrdered has reached.
type liveEnd struct {
	end  int
	size int64
}

// lowerBoundOrdered is LowerBound of n intervals given in start order by
// item (as alloc.Ordered reads them), without a copy of them: a sweep in
// start order keeping the live ones in a min-heap by end. An interval
// ending before the next start has left by then (frees happen first), so
// after each interval is added the live sum is the bytes live at its
// start with the intervals that start with it that came before; the last
// of them gives the full sum at that step, and every step's peak is
// reached at some start. The sum never goes below zero, and it saturates
// as LowerBound does: once it would pass MaxInt64, the answer is MaxInt64.
func (sc *scratch) lowerBoundOrdered(n int, item func(k int) (size int64, start, end int)) int64 {
	h := sc.live[:0]
	less := func(i, j int) bool { return h[i].end < h[j].end }
	var cur, best int64
	for k := range n {
		size, start, end := item(k)
		for len(h) > 0 && h[0].end < start {
			cur -= h[0].size
			// Pop: the last leaf replaces the root and sifts down.
			last := len(h) - 1
			h[0] = h[last]
			h = h[:last]
			for i := 0; ; {
				l, r, m := 2*i+1, 2*i+2, i
				if l < len(h) && less(l, m) {
					m = l
				}
				if r < len(h) && less(r, m) {
					m = r
				}
				if m == i {
					break
				}
				h[i], h[m] = h[m], h[i]
				i = m
			}
		}
		if size > math.MaxInt64-cur {
			sc.live = h[:0]
			return math.MaxInt64
		}
		cur += size
		best = max(best, cur)
		h = append(h, liveEnd{end, size})
		for i := len(h) - 1; i > 0; {
			parent := (i - 1) / 2
			if !less(i, parent) {
				break
			}
			h[i], h[parent] = h[parent], h[i]
			i = parent
		}
	}
	sc.live = h[:0]
	return best
}
