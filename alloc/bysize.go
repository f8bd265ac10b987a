package alloc

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"strings"
)

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
	r, _ := gapFit(items, budget, SizeOrder(items), nil)
	return r
}

// SizeOrder returns the indices of items by decreasing size, then longer
// life, then name, then input position: size-best-fit's order.
func SizeOrder(items []Interval) []int {
	idx := make([]int, len(items))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(x, y int) int {
		a, b := items[x], items[y]
		if c := cmp.Compare(b.Size, a.Size); c != 0 {
			return c
		}
		if c := cmp.Compare(b.End-b.Start, a.End-a.Start); c != 0 {
			return c
		}
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		return cmp.Compare(x, y)
	})
	return idx
}

// gapFit places items in the given order, each into the smallest gap
// among placed time-overlapping items that holds it, else on top of them.
// stop, when non-nil, is polled every 64 buffers; when it returns true
// gapFit gives up and returns ok=false (best uses it to keep its time
// limit).
func gapFit(items []Interval, budget int64, order []int, stop func() bool) (Result, bool) {
	res := Result{Offsets: make([]int64, len(items))}
	for i := range res.Offsets {
		res.Offsets[i] = -1
	}
	ix := newOverlapIndex(items)
	cl := newCliqueIndex(items)
	var nb, scratch []span
	for k, i := range order {
		if stop != nil && k&63 == 63 && stop() {
			return res, false
		}
		it := items[i]
		if it.Size <= 0 {
			res.Offsets[i] = 0
			continue
		}
		var off int64
		if cl.liveWithAll(it) {
			// Every placed buffer is live with this one: their spans
			// are all its neighbours, and the union keeps their gaps
			// ready (O(log n) instead of gathering and sorting them).
			off = cl.union.bestGap(it.Size)
		} else {
			nb = ix.spans(it.Start, it.End, nb[:0])
			off = bestGap(nb, it.Size, &scratch)
		}
		if it.Size > budget-off {
			continue
		}
		res.Offsets[i] = off
		if off+it.Size > res.PoolEnd {
			res.PoolEnd = off + it.Size
		}
		ix.add(i, off)
		cl.add(it, off)
	}
	return res, true
}

// cliqueIndex tells in O(log n) whether a buffer is live with every
// placed one (counting the placed that end before it starts or start
// after it ends, in two Fenwick trees), and keeps the union of all placed
// spans with its gaps. When every buffer is live with all placed before
// it (many buffers live at once, the shape that made size-best-fit
// quadratic), each placement costs O(log n); otherwise gapFit gathers the
// neighbours as before, in time proportional to their number.
type cliqueIndex struct {
	starts, ends []int   // distinct values, sorted
	byStart      fenwick // placed per start value (skyline.go)
	byEnd        fenwick // placed per end value
	placed       int
	union        spanUnion
}

func newCliqueIndex(items []Interval) *cliqueIndex {
	c := &cliqueIndex{union: newSpanUnion()}
	for _, it := range items {
		c.starts = append(c.starts, it.Start)
		c.ends = append(c.ends, it.End)
	}
	slices.Sort(c.starts)
	slices.Sort(c.ends)
	c.starts, c.ends = slices.Compact(c.starts), slices.Compact(c.ends)
	c.byStart, c.byEnd = make(fenwick, len(c.starts)+1), make(fenwick, len(c.ends)+1)
	return c
}

func (c *cliqueIndex) liveWithAll(it Interval) bool {
	if c.placed == 0 {
		return true
	}
	endBefore := c.byEnd.sum(sort.SearchInts(c.ends, it.Start) - 1)                    // placed with End < Start
	startAfter := c.placed - int(c.byStart.sum(sort.SearchInts(c.starts, it.End+1)-1)) // placed with Start > End
	return endBefore == 0 && startAfter == 0
}

func (c *cliqueIndex) add(it Interval, off int64) {
	c.byStart.add(sort.SearchInts(c.starts, it.Start), 1)
	c.byEnd.add(sort.SearchInts(c.ends, it.End), 1)
	c.placed++
	c.union.add(off, off+it.Size)
}

// spanUnion is the union of byte spans as disjoint, non-touching
// intervals (lo, hi), with the gaps between them (and below the first,
// from 0) by (length, lo): the gaps bestGap would find among the spans.
type spanUnion struct {
	iv, gaps *pairSet
	top      int64
}

func newSpanUnion() spanUnion { return spanUnion{iv: newPairSet(), gaps: newPairSet()} }

// bestGap is bestGap over the spans: the smallest gap holding size
// (lowest offset on ties), else the top.
func (u *spanUnion) bestGap(size int64) int64 {
	if g, ok := u.gaps.Ceil(pair{size, math.MinInt64}); ok {
		return g.b
	}
	return u.top
}

func (u *spanUnion) gap(lo, hi int64, add bool) {
	if hi <= lo {
		return
	}
	if add {
		u.gaps.Insert(pair{hi - lo, lo})
	} else {
		u.gaps.Delete(pair{hi - lo, lo})
	}
}

// add merges [lo, hi) into the union.
func (u *spanUnion) add(lo, hi int64) {
	if hi <= lo {
		return
	}
	var merged []pair
	if p, ok := u.iv.Floor(pair{lo, math.MaxInt64}); ok && p.b >= lo {
		merged = append(merged, p)
	}
	for x := lo; ; {
		p, ok := u.iv.Ceil(pair{x, math.MinInt64})
		if !ok || p.a > hi {
			break
		}
		if len(merged) == 0 || merged[len(merged)-1] != p {
			merged = append(merged, p)
		}
		x = p.a + 1
	}
	L, H := lo, hi
	if len(merged) > 0 {
		L, H = min(lo, merged[0].a), max(hi, merged[len(merged)-1].b)
	}
	var below int64
	if p, ok := u.iv.Floor(pair{L - 1, math.MaxInt64}); ok {
		below = p.b
	}
	succ, hasSucc := u.iv.Ceil(pair{H, math.MinInt64})
	if hasSucc && len(merged) > 0 && succ == merged[len(merged)-1] {
		succ, hasSucc = u.iv.Ceil(pair{succ.a + 1, math.MinInt64})
	}
	prev := below
	for _, m := range merged {
		u.gap(prev, m.a, false)
		prev = m.b
		u.iv.Delete(m)
	}
	if hasSucc {
		u.gap(prev, succ.a, false)
		u.gap(H, succ.a, true)
	}
	u.iv.Insert(pair{L, H})
	u.gap(below, L, true)
	u.top = max(u.top, H)
}

// span is a placed byte range [lo, hi).
type span struct{ lo, hi int64 }

// bestGap returns the offset of the smallest gap between the spans (in
// any order; they are sorted here) that holds size bytes, lowest offset
// on ties, or the top of the spans when none does.
func bestGap(nb []span, size int64, scratch *[]span) int64 {
	sortSpans(nb, scratch)
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

// sortSpans sorts spans by lo. The lists are long (every placed buffer a
// late, small one overlaps) and sorting them is most of size-best-fit's
// time, so long lists get an LSD radix sort on 8-bit digits, which only
// needs as many passes as the largest offset has digits.
func sortSpans(nb []span, scratch *[]span) {
	if len(nb) < 256 {
		slices.SortFunc(nb, func(a, b span) int { return cmp.Compare(a.lo, b.lo) })
		return
	}
	var top int64
	for _, s := range nb {
		top = max(top, s.lo)
	}
	if cap(*scratch) < len(nb) {
		*scratch = make([]span, len(nb))
	}
	src, dst := nb, (*scratch)[:len(nb)]
	var count [1 << 8]int
	passes := 0
	for shift := uint(0); shift < 63 && top>>shift > 0; shift += 8 {
		clear(count[:])
		for _, s := range src {
			count[(s.lo>>shift)&(1<<8-1)]++
		}
		sum := 0
		for d, c := range count {
			count[d] = sum
			sum += c
		}
		for _, s := range src {
			d := (s.lo >> shift) & (1<<8 - 1)
			dst[count[d]] = s
			count[d]++
		}
		src, dst = dst, src
		passes++
	}
	if passes%2 == 1 {
		copy(nb, src)
	}
}

// overlapIndex finds the placed items whose ranges intersect a query
// range without scanning all placed items: items sit in start order, in
// blocks of 16 under a max segment tree of the ends of placed ones, so a
// query visits only blocks holding a placed item that ends at or after
// the query start, among the prefix that starts at or before the query
// end. Ends and byte ranges are kept by position, so the blocks scanned
// are contiguous memory.
type overlapIndex struct {
	items  []Interval
	pos    []int  // item -> position in start order
	starts []int  // start of the item at each position
	ends   []int  // end of the placed item at each position, noEnd if unplaced
	spanAt []span // byte range of the placed item at each position
	size   int    // leaves (blocks) in the tree, a power of two
	tree   []int  // max end per subtree of blocks
	stack  []int32
}

const (
	noEnd     = -1 << 62
	blockBits = 4
)

func newOverlapIndex(items []Interval) *overlapIndex {
	n := len(items)
	ix := &overlapIndex{items: items, pos: make([]int, n), starts: make([]int, n),
		ends: make([]int, n), spanAt: make([]span, n)}
	byPos := make([]int, n)
	for i := range byPos {
		byPos[i] = i
	}
	slices.SortFunc(byPos, func(a, b int) int {
		if c := cmp.Compare(items[a].Start, items[b].Start); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	for p, i := range byPos {
		ix.pos[i] = p
		ix.starts[p] = items[i].Start
		ix.ends[p] = noEnd
	}
	blocks := (n + 1<<blockBits - 1) >> blockBits
	ix.size = 1
	for ix.size < blocks {
		ix.size *= 2
	}
	ix.tree = make([]int, 2*ix.size)
	for i := range ix.tree {
		ix.tree[i] = noEnd
	}
	return ix
}

// add records item i as placed at off.
func (ix *overlapIndex) add(i int, off int64) {
	p := ix.pos[i]
	e := ix.items[i].End
	ix.ends[p] = e
	ix.spanAt[p] = span{off, off + ix.items[i].Size}
	for x := p>>blockBits + ix.size; x >= 1 && ix.tree[x] < e; x >>= 1 {
		ix.tree[x] = e
	}
}

// spans appends the byte ranges of the placed items whose ranges meet
// [s, e] to out.
func (ix *overlapIndex) spans(s, e int, out []span) []span {
	// Positions [0, lim) start at or before e.
	lim := sort.SearchInts(ix.starts, e+1)
	if lim == 0 || ix.tree[1] < s {
		return out
	}
	limBlock := (lim - 1) >> blockBits // last block to look at
	stack := append(ix.stack[:0], 1)
	for len(stack) > 0 {
		x := int(stack[len(stack)-1])
		stack = stack[:len(stack)-1]
		if ix.tree[x] < s {
			continue
		}
		// The blocks under x are [lo, lo+w).
		w := 1
		for y := x; y < ix.size; y <<= 1 {
			w <<= 1
		}
		lo := x*w - ix.size
		if lo > limBlock {
			continue
		}
		if x >= ix.size {
			p0 := lo << blockBits
			p1 := min(p0+1<<blockBits, lim)
			for p := p0; p < p1; p++ {
				if ix.ends[p] >= s {
					out = append(out, ix.spanAt[p])
				}
			}
			continue
		}
		stack = append(stack, int32(2*x+1), int32(2*x))
	}
	ix.stack = stack
	return out
}
