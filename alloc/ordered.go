package alloc

import (
	"cmp"
	"slices"
	"sync"

	"github.com/sdscgen/sdscgen/internal/slab"
)

// The ordered forms serve a caller that keeps its intervals itself (the
// planner: they are its plan's entries) and numbers them in name order,
// so that an index breaks the ties a name breaks in StartOrder. No
// []Interval is built: placing a million buffers then needs neither a
// 40-byte copy of each nor an offsets array.

// Ordered is an allocator's ordered form: FirstFitOrdered's signature.
// It returns the pool end and the most bytes of placed blocks live at
// one step.
type Ordered func(n int, budget int64, item func(k int) (size int64, start, end int), place func(k int, off int64)) (poolEnd, peak int64)

// SortStartOrder sorts idx, distinct indices of intervals numbered in
// name order, into StartOrder's order: by start, then end, then index
// (that is, name). steps(i) returns interval i's start and end. The
// indices are int32, as the planner's candidate lists (which it sorts in
// place) hold them.
//
// As StartOrder, it counts over steps when the intervals are dense in
// time (see denseSpan) and sorts otherwise.
func SortStartOrder(idx []int32, steps func(i int32) (start, end int)) {
	if len(idx) < 2 {
		return
	}
	lo, hi := steps(idx[0])
	for _, i := range idx {
		s, e := steps(i)
		lo, hi = min(lo, s), max(hi, e)
	}
	byEndIndex := func(x, y int32) int {
		_, ex := steps(x)
		_, ey := steps(y)
		if c := cmp.Compare(ex, ey); c != 0 {
			return c
		}
		return cmp.Compare(x, y)
	}
	if hi-lo >= 4*len(idx)+64 {
		slices.SortFunc(idx, func(x, y int32) int {
			sx, _ := steps(x)
			sy, _ := steps(y)
			if c := cmp.Compare(sx, sy); c != 0 {
				return c
			}
			return byEndIndex(x, y)
		})
		return
	}
	span := hi - lo + 1
	st := orderPool.Get().(*orderState)
	pos := slab.Grow(st.pos, span+1)
	clear(pos)
	for _, i := range idx {
		s, _ := steps(i)
		pos[s-lo+1]++
	}
	for s := 1; s <= span; s++ {
		pos[s] += pos[s-1]
	}
	tmp := slab.Grow(st.tmp, len(idx))
	next := pos[:span] // next[s]: the next slot for start lo+s
	for _, i := range idx {
		s, _ := steps(i)
		tmp[next[s-lo]] = i
		next[s-lo]++
	}
	// next[s] is now the end of run s, which is where run s+1 starts.
	start := 0
	for s := 0; s < span; s++ {
		if run := tmp[start:next[s]]; len(run) > 1 {
			slices.SortFunc(run, byEndIndex)
		}
		start = int(next[s])
	}
	copy(idx, tmp)
	if len(idx) <= maxPooled {
		st.pos, st.tmp = pos, tmp
		orderPool.Put(st)
	}
}

// orderState is SortStartOrder's scratch, kept between calls as
// FirstFit's is (and dropped after a huge call).
type orderState struct {
	pos []int32
	tmp []int32
}

var orderPool = sync.Pool{New: func() any { return new(orderState) }}
