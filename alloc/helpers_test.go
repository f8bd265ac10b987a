package alloc

import (
	"fmt"
	"math/rand"
)

// randomItems draws an instance: n intervals over steps [0, span), sizes
// either multiples of 128 (as in the pipeline) or arbitrary small
// integers (as in CSV traces).
func randomItems(rng *rand.Rand, n, span int) []Interval {
	items := make([]Interval, n)
	aligned := rng.Intn(2) == 0
	maxLen := 1 + rng.Intn(span)
	for i := range items {
		s := rng.Intn(span)
		e := s + rng.Intn(maxLen)
		var size int64
		if aligned {
			size = 128 * int64(1+rng.Intn(16))
		} else {
			size = int64(1 + rng.Intn(1+rng.Intn(1000)))
		}
		// Names collide now and then: ties must still be deterministic.
		items[i] = Interval{Name: fmt.Sprintf("g%d", rng.Intn(2*n+1)), Size: size, Start: s, End: e}
	}
	return items
}

// randomBudget picks a budget: unlimited, exactly or near the lower
// bound, or small enough that many buffers fall back (down to 0).
func randomBudget(rng *rand.Rand, items []Interval) int64 {
	lb := LowerBound(items)
	var sum int64
	for _, it := range items {
		sum += it.Size
	}
	switch rng.Intn(6) {
	case 0, 1:
		return 1 << 62
	case 2:
		return lb
	case 3:
		return lb + rng.Int63n(lb/4+1)
	case 4:
		return rng.Int63n(4)
	}
	return rng.Int63n(sum + 1)
}

// placedAll reports whether nothing fell back.
func placedAll(r Result) bool {
	for _, o := range r.Offsets {
		if o < 0 {
			return false
		}
	}
	return true
}

// bruteOptimum is the least pool end of any packing of items (a few
// buffers only). It tries every order of the buffers, placing each at the
// lowest offset where it fits among those placed before it. That is
// exhaustive: list an optimal packing by offset; placing in that order,
// every buffer can still go at its optimal offset (whatever went before it
// that it overlaps went at or below its own optimal offset, which lies
// under this one's), so each lands at or below it.
func bruteOptimum(items []Interval) int64 {
	n := len(items)
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	off := make([]int64, n)
	best := int64(-1)
	decode := func() {
		var top int64
		for k, i := range perm {
			// Candidates: 0 and the tops of placed conflicting buffers.
			o := int64(-1)
			try := func(c int64) {
				if o >= 0 && c >= o {
					return
				}
				for _, j := range perm[:k] {
					if items[i].Conflicts(items[j]) && c < off[j]+items[j].Size && off[j] < c+items[i].Size {
						return
					}
				}
				o = c
			}
			try(0)
			for _, j := range perm[:k] {
				if items[i].Conflicts(items[j]) {
					try(off[j] + items[j].Size)
				}
			}
			off[i] = o
			top = max(top, o+items[i].Size)
		}
		if best < 0 || top < best {
			best = top
		}
	}
	// Heap's algorithm.
	c := make([]int, n)
	decode()
	for i := 0; i < n; {
		if c[i] < i {
			if i%2 == 0 {
				perm[0], perm[i] = perm[i], perm[0]
			} else {
				perm[c[i]], perm[i] = perm[i], perm[c[i]]
			}
			decode()
			c[i]++
			i = 0
		} else {
			c[i] = 0
			i++
		}
	}
	return max(best, 0)
}

// firstFitCase is case iter of the first-fit equality tests: up to 80
// intervals, every 50th case 300-600 (long free lists, tree growth), every
// 7th with a third of them zero-byte (they take the first free block of
// any size and move it to the end of the list, never a block already
// taken), and a budget that some of them pass.
func firstFitCase(rng *rand.Rand, iter int) ([]Interval, int64) {
	n := rng.Intn(80)
	if iter%50 == 0 {
		n = 300 + rng.Intn(300)
	}
	items := randomItems(rng, n, 1+rng.Intn(60))
	if iter%7 == 0 {
		for i := range items {
			if rng.Intn(3) == 0 {
				items[i].Size = 0
			}
		}
	}
	return items, randomBudget(rng, items)
}
