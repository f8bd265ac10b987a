package alloc

import (
	"slices"
	"sort"
)

func init() { register("size-best-fit", SizeBestFit) }

// SizeBestFit is the greedy-by-size policy of TFLite's arena planner and
// XLA's decreasing-size best-fit heap: buffers in decreasing size (ties:
// longer life first, then name, then input position), each placed in the
// smallest gap, between already placed buffers whose ranges intersect its
// own, that holds it (lowest offset on ties), or else just above the
// highest of them. Big buffers go first because they are the hardest to
// fit; small ones then fill the holes left between them.
//
// Over budget: a buffer falls back (offset -1) when no gap holds it and
// the spot above its placed neighbours would pass the budget; since gaps
// lie below placed buffers, only that top spot can ever pass it. A
// buffer that falls back is simply not placed, so later (smaller) buffers
// see the same neighbours as if it did not exist.
func SizeBestFit(items []Interval, budget int64) Result {
	return gapFit(items, budget, SizeOrder(items), nil)
}

// SizeOrder returns the indices of items by decreasing size, then longer
// life, then name, then input position: size-best-fit's order.
func SizeOrder(items []Interval) []int {
	idx := make([]int, len(items))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(x, y int) bool {
		a, b := items[idx[x]], items[idx[y]]
		if a.Size != b.Size {
			return a.Size > b.Size
		}
		if la, lb := a.End-a.Start, b.End-b.Start; la != lb {
			return la > lb
		}
		return a.Name < b.Name
	})
	return idx
}

// gapFit places items in the given order, each into the smallest gap
// among placed time-overlapping items that holds it, else on top of them.
// stop, when non-nil, is polled now and then; when it returns true gapFit
// gives up and returns ok=false (used by best to keep its time limit).
func gapFit(items []Interval, budget int64, order []int, stop func() bool) Result {
	r, _ := gapFitStop(items, budget, order, stop)
	return r
}

func gapFitStop(items []Interval, budget int64, order []int, stop func() bool) (Result, bool) {
	res := Result{Offsets: make([]int64, len(items))}
	for i := range res.Offsets {
		res.Offsets[i] = -1
	}
	ix := newOverlapIndex(items)
	var nb []span
	for k, i := range order {
		if stop != nil && k&63 == 63 && stop() {
			return res, false
		}
		it := items[i]
		if it.Size <= 0 {
			res.Offsets[i] = 0
			continue
		}
		nb = nb[:0]
		ix.each(it.Start, it.End, func(j int) {
			nb = append(nb, span{res.Offsets[j], res.Offsets[j] + items[j].Size})
		})
		off := bestGap(nb, it.Size)
		if it.Size > budget-off {
			continue
		}
		res.Offsets[i] = off
		if off+it.Size > res.PoolEnd {
			res.PoolEnd = off + it.Size
		}
		ix.add(i)
	}
	return res, true
}

// span is a placed byte range [lo, hi).
type span struct{ lo, hi int64 }

// bestGap returns the offset of the smallest gap between the spans (in
// any order; they are sorted here) that holds size bytes, lowest offset
// on ties, or the top of the spans when none does.
func bestGap(nb []span, size int64) int64 {
	slices.SortFunc(nb, func(a, b span) int {
		switch {
		case a.lo < b.lo:
			return -1
		case a.lo > b.lo:
			return 1
		}
		return 0
	})
	var cur int64
	best, bestLen := int64(-1), int64(-1)
	for _, s := range nb {
		if g := s.lo - cur; g >= size && (bestLen < 0 || g < bestLen) {
			best, bestLen = cur, g
		}
		if s.hi > cur {
			cur = s.hi
		}
	}
	if best >= 0 {
		return best
	}
	return cur
}

// overlapIndex finds the placed items whose ranges intersect a query
// range without scanning all placed items: items sit in start order under
// a max segment tree of the ends of placed ones, so a query visits only
// subtrees holding a placed item that ends at or after the query start,
// among the prefix that starts at or before the query end.
type overlapIndex struct {
	items  []Interval
	pos    []int // item -> position in start order
	byPos  []int // position -> item
	starts []int // start of the item at each position
	size   int
	tree   []int // max end of placed items; minInt when none
}

const noEnd = -1 << 62

func newOverlapIndex(items []Interval) *overlapIndex {
	n := len(items)
	ix := &overlapIndex{items: items, pos: make([]int, n), byPos: make([]int, n), starts: make([]int, n)}
	for i := range ix.byPos {
		ix.byPos[i] = i
	}
	sort.SliceStable(ix.byPos, func(a, b int) bool { return items[ix.byPos[a]].Start < items[ix.byPos[b]].Start })
	for p, i := range ix.byPos {
		ix.pos[i] = p
		ix.starts[p] = items[i].Start
	}
	ix.size = 1
	for ix.size < n {
		ix.size *= 2
	}
	ix.tree = make([]int, 2*ix.size)
	for i := range ix.tree {
		ix.tree[i] = noEnd
	}
	return ix
}

func (ix *overlapIndex) add(i int) {
	p := ix.pos[i] + ix.size
	e := ix.items[i].End
	for ; p >= 1 && ix.tree[p] < e; p >>= 1 {
		ix.tree[p] = e
	}
}

// each calls fn for every placed item whose range meets [s, e].
func (ix *overlapIndex) each(s, e int, fn func(int)) {
	// Positions [0, lim) start at or before e.
	lim := sort.SearchInts(ix.starts, e+1)
	if lim == 0 {
		return
	}
	ix.visit(1, 0, ix.size, lim, s, fn)
}

func (ix *overlapIndex) visit(node, lo, hi, lim, s int, fn func(int)) {
	if lo >= lim || ix.tree[node] < s {
		return
	}
	if hi-lo == 1 {
		fn(ix.byPos[lo])
		return
	}
	mid := (lo + hi) / 2
	ix.visit(2*node, lo, mid, lim, s, fn)
	ix.visit(2*node+1, mid, hi, lim, s, fn)
}
