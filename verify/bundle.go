package verify

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
	"strings"

	"github.com/sdscgen/sdscgen/internal/slab"
	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/planner"
)

// scratch is one worker's memory for the per-bundle checks, reused from
// bundle to bundle so that checking a bundle allocates nothing once the
// worker has seen a bundle as large. The checks of one bundle run one
// after the other, and what one leaves is read by the next only through
// c.ws, so they share a few generic buffers (i32, i64), each check
// naming what it keeps in which: the scratch of a bundle of n steps, m
// candidates and l loops is about 12*max(n, m) + 16*m + 12*l bytes, and
// first-fit's free list 8 more bytes a slot beyond m (see freeList).
type scratch struct {
	// The loop structure of the bundle (loopsOf): step s lies in the
	// loops from inner(s) outwards by parent (the loops enclosing its
	// first appearance in the tree), after the implicit loop extra of a
	// bare loop bundle when extra >= 0.
	parent []int32
	spans  []span
	extra  int32
	stack  []int32
	// walked counts the ops the walk has met; misordered is set once
	// it meets one out of step order.
	walked     int32
	misordered bool

	i32 [3][]int32
	i64 [3][]int64

	live  bitTree  // checkOverlap's
	free  freeList // replayFirstFit's (its slots in i64, see there)
	chain []int32  // a loop chain, for a message
}

// Uses of scratch.i32 by loopsOf and liveRanges.
const (
	iInner = 0 // per step: its innermost loop, -1 for none, notSeen
	iEnd   = 1 // per candidate: its live range's end so far, -1 before its first touch
	iOuter = 2 // per candidate: the outermost loop around its first touch while it may move start, else -1
)

// notSeen marks a step whose op the tree walk has not met.
const notSeen = -2

// span is the inclusive step range of a loop; first > last when empty.
type span struct{ first, last int32 }

// loopsOf walks bundle b's tree into s (see scratch) and checks it: every
// op once, in step order (ir.Bundle: the ops are the tree's leaves
// depth-first, so every loop's steps are contiguous, which liveRanges
// relies on), each op's recorded loops and strides. A bare loop bundle gets
// one more loop, over all its steps, as bundle-ir.md §3.2 says.
func (c *checker) loopsOf(s *scratch, b *ir.Bundle) {
	n := len(b.Ops)
	inner := slab.GrowZero(s.i32[iInner], n)
	s.i32[iInner] = inner
	for st := range inner {
		inner[st] = notSeen
	}
	s.stack = s.stack[:0]
	s.walked, s.misordered = 0, false
	s.spans = slab.GrowZero(s.spans, len(b.Loops))
	s.parent = slab.GrowZero(s.parent, len(b.Loops))
	for i := range s.spans {
		s.spans[i] = span{int32(n), -1}
		s.parent[i] = notSeen
	}
	c.walk(s, b, c.g.BundleBody(b))
	s.extra = -1
	for st := range b.Ops {
		op := &b.Ops[st]
		if inner[st] == notSeen {
			c.fail("bundle %q: op %q is not in the tree", b.Name, c.g.Str(op.Name))
			continue
		}
		depth := 0
		same := true
		loops := c.g.OpLoops(op)
		for l := inner[st]; l >= 0; l = s.parent[l] {
			depth++
			k := len(loops) - depth
			same = same && k >= 0 && loops[k] == l
		}
		if !same || depth != len(loops) {
			c.fail("bundle %q: op %q records loops %v, the tree says %v", b.Name, c.g.Str(op.Name), loops, s.chainOf(int32(st)))
		}
		for _, accs := range [2][]ir.Access{c.g.Reads(op), c.g.Writes(op)} {
			for ai := range accs {
				if strides := c.g.Strides(&accs[ai]); strides != nil && len(strides) != depth {
					c.fail("bundle %q: op %q: %d strides under %d loops", b.Name, c.g.Str(op.Name), len(strides), depth)
				}
			}
		}
	}
	if b.Kind == ir.KindLoop && n > 0 {
		s.extra = int32(len(s.spans))
		s.spans = append(s.spans, span{0, int32(n - 1)})
	}
}

// chainOf lists the loops around step st, outermost first (the tree's
// word, for a message).
func (s *scratch) chainOf(st int32) []int32 {
	s.chain = s.chain[:0]
	for l := s.i32[iInner][st]; l >= 0; l = s.parent[l] {
		s.chain = append(s.chain, l)
	}
	slices.Reverse(s.chain)
	return s.chain
}

// walk visits the tree items, recording each op's innermost loop and
// each loop's parent (where they first appear) and widening the spans
// of the loops on the stack.
func (c *checker) walk(s *scratch, b *ir.Bundle, items []ir.Item) {
	inner := s.i32[iInner]
	for _, it := range items {
		switch {
		case it.Op >= 0 && int(it.Op) < len(b.Ops):
			if inner[it.Op] != notSeen {
				c.fail("bundle %q: op %q appears twice in the tree", b.Name, c.g.Str(b.Ops[it.Op].Name))
				continue
			}
			if int32(it.Op) != s.walked && !s.misordered {
				s.misordered = true
				c.fail("bundle %q: the tree lists op %q (step %d) where step %d belongs", b.Name, c.g.Str(b.Ops[it.Op].Name), it.Op, s.walked)
			}
			s.walked++
			inner[it.Op] = -1
			if len(s.stack) > 0 {
				inner[it.Op] = s.stack[len(s.stack)-1]
			}
			op := int32(it.Op)
			for _, l := range s.stack {
				sp := &s.spans[l]
				sp.first = min(sp.first, op)
				sp.last = max(sp.last, op)
			}
		case it.Loop >= 0 && int(it.Loop) < len(b.Loops):
			// Each loop is entered once: a loop listed twice, or inside
			// its own body, would otherwise be followed forever.
			if s.parent[it.Loop] != notSeen {
				c.fail("bundle %q: loop %q appears twice in the tree", b.Name, b.Loops[it.Loop].Name)
				continue
			}
			s.parent[it.Loop] = -1
			if len(s.stack) > 0 {
				s.parent[it.Loop] = s.stack[len(s.stack)-1]
			}
			s.stack = append(s.stack, int32(it.Loop))
			c.walk(s, b, c.g.LoopBody(&b.Loops[it.Loop]))
			s.stack = s.stack[:len(s.stack)-1]
		default:
			c.fail("bundle %q: tree item %+v indexes nothing", b.Name, it)
		}
	}
}

// liveRanges checks bundle bi's tree (loopsOf) and sets start and end
// (bundle-ir.md §3.2) for its candidates in c.ws, where end holds each
// candidate's position in candOf(bi) until then.
//
// It sweeps the steps once, in order. The rule's loops are the loops L
// around a step touching the candidate; L carries it when the
// candidate's first touch inside L (as L's steps are contiguous: the
// first touch after L.first) includes a read, for a read at the same
// step as a write comes first. At a touch, the loops it is the first
// touch of are those around it that begin after the previous touch: the
// innermost ones, the outermost of which ends last, so a read there
// moves end to that loop's end. (The sweep compares with end so far
// rather than the previous touch: a loop beginning in between lies
// inside the loop that moved end there, so it could not move end
// further.) Only the loops around the first touch of all can move start
// (any other begins after it): the outermost of them, when it carries
// the candidate, moves start to its own first step once a write lies
// inside it.
func (c *checker) liveRanges(s *scratch, bi int) {
	b := &c.g.Bundles[bi]
	ws := c.ws
	cands := c.candOf(bi)
	c.loopsOf(s, b)
	if len(cands) == 0 {
		return
	}
	n := len(cands)
	b32 := int32(bi)
	end, outer := slab.GrowZero(s.i32[iEnd], n), slab.GrowZero(s.i32[iOuter], n)
	s.i32[iEnd], s.i32[iOuter] = end, outer
	for k := range n {
		end[k], outer[k] = -1, -1
	}
	inner, parent, spans := s.i32[iInner], s.parent, s.spans
	// touch records that step st touches candidate k (w), reading it
	// when read; a step's reads come before its writes.
	touch := func(w *want, k, st int32, read bool) {
		prev := end[k]
		if prev < 0 {
			w.start = st
		}
		if st <= prev {
			return // nothing new: the loops around st begin before prev
		}
		end[k] = st
		if !read {
			return
		}
		top := int32(-1)
		for l := inner[st]; l >= 0 && spans[l].first > prev; l = parent[l] {
			top = l
		}
		if prev < 0 && s.extra >= 0 {
			top = s.extra
		}
		if top >= 0 {
			end[k] = spans[top].last
			if prev < 0 {
				outer[k] = top
			}
		}
	}
	for oi := range b.Ops {
		op := &b.Ops[oi]
		st := int32(oi)
		reads, writes := c.g.Reads(op), c.g.Writes(op)
		for ai := range reads {
			if w := &ws[c.groupOf(&reads[ai])]; w.bundle == b32 {
				touch(w, w.end, st, true)
			}
		}
		for ai := range writes {
			w := &ws[c.groupOf(&writes[ai])]
			if w.bundle != b32 {
				continue
			}
			k := w.end
			touch(w, k, st, false)
			if o := outer[k]; o >= 0 && st <= spans[o].last {
				w.start = spans[o].first
				outer[k] = -1
			}
		}
	}
	for k, gi := range cands {
		w := &ws[gi]
		if end[k] < 0 {
			w.start, w.end = 0, 0
			c.fail("group %q: candidate of bundle %q but never touched there", c.groupName(int(gi)), b.Name)
			continue
		}
		w.end = end[k]
	}
}

// items are a bundle's candidates in (start, end, name) order as the
// checks after liveRanges see them: item k is group order[k], with its
// live range in c.ws, its size in the graph and its offset in the plan
// (read where they are rather than copied).
type items struct {
	order []int32
	ws    []want
	gs    []ir.Group
	pg    []planner.Group
	c     *checker
}

func (x *items) len() int             { return len(x.order) }
func (x *items) group(k int32) int32  { return x.order[k] }
func (x *items) start(k int32) int32  { return x.ws[x.order[k]].start }
func (x *items) end(k int32) int32    { return x.ws[x.order[k]].end }
func (x *items) size(k int32) int64   { return x.gs[x.order[k]].Size }
func (x *items) offset(k int32) int64 { return x.pg[x.order[k]].Offset }
func (x *items) name(k int32) string  { return x.c.groupName(int(x.order[k])) }
func (x *items) placed(k int32) bool  { return x.offset(k) >= 0 && x.size(k) > 0 }

// Uses of scratch.i32 by checkBundle and what it calls (after
// liveRanges).
const (
	iAt    = 0 // per step: a counting sort's bucket starts
	iOrder = 1 // sortCandidates: the candidates in order
	iByEnd = 2 // per item: the items by end step
	iPos   = 0 // checkOverlap: per item, its position by offset; replayFirstFit: the batch freed
)

// Uses of scratch.i64: checkOverlap's sort keys and radix buffer, then
// replayFirstFit's offsets and its free list's slots.
const (
	iKeys     = 0
	iTmp      = 1
	iPlacedAt = 0
	iFreeSize = 1
	iFreeOff  = 2
)

// sortCandidates sorts bundle bi's candidates (candOf, after
// liveRanges) into (start, end, name) order, in place: by start with a
// counting sort over the bundle's steps, then each run of one start by
// the rest. (Group names are unique; the index only makes ties total.)
func (c *checker) sortCandidates(s *scratch, bi int) {
	b := &c.g.Bundles[bi]
	cands := c.candOf(bi)
	ws := c.ws
	at := slab.GrowZero(s.i32[iAt], len(b.Ops)+1)
	for _, gi := range cands {
		at[ws[gi].start+1]++
	}
	for st := range b.Ops {
		at[st+1] += at[st]
	}
	order := slab.GrowZero(s.i32[iOrder], len(cands))
	for _, gi := range cands {
		st := ws[gi].start
		order[at[st]] = gi
		at[st]++
	}
	s.i32[iAt], s.i32[iOrder] = at, order
	for lo := 0; lo < len(order); {
		hi := lo + 1
		for hi < len(order) && ws[order[hi]].start == ws[order[lo]].start {
			hi++
		}
		if hi-lo > 1 {
			slices.SortFunc(order[lo:hi], func(a, b int32) int {
				return cmp.Or(cmp.Compare(ws[a].end, ws[b].end), strings.Compare(c.groupName(int(a)), c.groupName(int(b))), cmp.Compare(a, b))
			})
		}
		lo = hi
	}
	copy(cands, order)
}

// checkBundle checks bundle bi's pool; its candidates are in order
// (sortCandidates).
func (c *checker) checkBundle(s *scratch, bi int) {
	g, p := c.g, c.p
	b := &g.Bundles[bi]
	pb := &p.Bundles[bi]
	order := c.candOf(bi)
	ws := c.ws
	x := &items{order: order, ws: ws, gs: g.Groups, pg: p.Groups, c: c}
	m := int32(len(order))

	// The pool-size table and the candidate order.
	if pb.HasPool() != (m > 0) {
		c.fail("bundle %q: pool-size table entry %v, but it has %d candidate(s)", b.Name, pb.HasPool(), m)
	}
	if cs := pb.Candidates; cs.Off < 0 || cs.Len < 0 || int64(cs.Off)+int64(cs.Len) > int64(len(p.CandidateGroups)) {
		c.fail("bundle %q: candidates at %d (%d of them) are past the plan's %d", b.Name, cs.Off, cs.Len, len(p.CandidateGroups))
	} else if cs.Len != m {
		c.fail("bundle %q: %d candidates listed, the rules give %d", b.Name, cs.Len, m)
	} else {
		listed := p.CandidateGroups[cs.Off : cs.Off+cs.Len]
		for k := range m {
			if listed[k] != x.group(k) {
				c.fail("bundle %q: candidate %d is group %d, (start, end, name) order gives %q", b.Name, k, listed[k], x.name(k))
				break
			}
		}
	}
	if m == 0 {
		return
	}

	// Pool size, budget, sticks. Offsets and the pool size are whole
	// sticks when every candidate's size is: an allocator only adds sizes.
	// A view at an offset that is not a whole number of sticks can make
	// its group's size, and so offsets after it, uneven.
	budget := c.opt.Budget
	aligned := true
	for k := range m {
		aligned = aligned && x.size(k)%stick == 0
	}
	var top int64
	for k := range m {
		off, size := x.offset(k), x.size(k)
		if off < 0 {
			continue
		}
		if aligned && off%stick != 0 {
			c.fail("bundle %q: buffer %q at offset %d, not on a %d-byte stick", b.Name, x.name(k), off, stick)
		}
		if off > budget || size > budget-off {
			c.fail("bundle %q: buffer %q at [%d, +%d) passes the budget %d", b.Name, x.name(k), off, size, budget)
			continue
		}
		top = max(top, off+size)
	}
	if pb.PoolSize != top {
		c.fail("bundle %q: pool size %d, the highest placed end is %d", b.Name, pb.PoolSize, top)
	}
	if pb.PoolSize > budget {
		c.fail("bundle %q: pool size %d exceeds the budget %d", b.Name, pb.PoolSize, budget)
	}
	if aligned && pb.PoolSize%stick != 0 {
		c.fail("bundle %q: pool size %d is not a whole number of sticks", b.Name, pb.PoolSize)
	}
	for k := range m {
		if size := x.size(k); x.offset(k) < 0 && size <= budget-pb.PoolSize {
			c.fail("bundle %q: buffer %q (%d bytes) fell back over budget, yet a bump at the pool end %d fits the budget %d",
				b.Name, x.name(k), size, pb.PoolSize, budget)
		}
	}
	// Items by end step (ties in item order), for the sweeps below: a
	// counting sort over the bundle's steps.
	at := slab.GrowZero(s.i32[iAt], len(b.Ops)+1)
	for k := range m {
		at[x.end(k)+1]++
	}
	for st := range b.Ops {
		at[st+1] += at[st]
	}
	byEnd := slab.GrowZero(s.i32[iByEnd], int(m))
	for k := range m {
		e := x.end(k)
		byEnd[at[e]] = k
		at[e]++
	}
	s.i32[iAt], s.i32[iByEnd] = at, byEnd

	c.checkOverlap(s, b, x, byEnd)

	// Lower bound: most candidate bytes live at one step, saturated at
	// MaxInt64.
	if lb := peakLive(x, byEnd); pb.LowerBound != lb {
		c.fail("bundle %q: lower bound %d, the live bytes peak at %d", b.Name, pb.LowerBound, lb)
	}

	if p.Allocator == "first-fit" {
		c.replayFirstFit(s, b, x, byEnd, pb.PoolSize)
	}
}

// peakLive is the most bytes of items (in start order; byEnd orders them
// by end) live at one step, or MaxInt64 when that passes MaxInt64. The
// live sum is kept in 128 bits (hi, lo), so it never wraps on the way.
func peakLive(x *items, byEnd []int32) int64 {
	var hi, lo, best uint64
	next := 0
	for k := range int32(x.len()) {
		start := x.start(k)
		for next < len(byEnd) && x.end(byEnd[next]) < start {
			var borrow uint64
			lo, borrow = bits.Sub64(lo, uint64(x.size(byEnd[next])), 0)
			hi -= borrow
			next++
		}
		var carry uint64
		lo, carry = bits.Add64(lo, uint64(x.size(k)), 0)
		hi += carry
		if hi > 0 || lo > math.MaxInt64 {
			return math.MaxInt64
		}
		best = max(best, lo)
	}
	return int64(best)
}

// checkOverlap reports pooled candidates that are live at a common step
// and share a byte. It sweeps the steps, keeping the blocks live at the
// current step in a set ordered by offset (a tree of bit words over the
// positions of the placed items sorted by (offset, item)). While the
// live blocks are pairwise disjoint, a new block [a, b) at position q
// overlaps one of them exactly when the first live block after q starts
// before b (it starts at or after a) or the last live block up to q
// (which starts at or before a) ends after a, so two lookups per block
// suffice. The block reported is the live block with the greatest offset
// below b.
func (c *checker) checkOverlap(s *scratch, b *ir.Bundle, x *items, byEnd []int32) {
	keys, pos := s.sortPlaced(x)
	if len(keys) == 0 {
		return
	}
	live := &s.live
	live.reset(len(keys))
	next := 0
	for k := range int32(x.len()) {
		if !x.placed(k) {
			continue
		}
		start := x.start(k)
		for next < len(byEnd) && x.end(byEnd[next]) < start {
			if q := pos[byEnd[next]]; q >= 0 && live.has(int(q)) {
				live.remove(int(q))
			}
			next++
		}
		a := x.offset(k)
		end := a + x.size(k)
		q := int(pos[k])
		o := int32(-1)
		if end > a { // (the end of a block past MaxInt64 is not checked)
			if r := live.next(q + 1); r >= 0 && x.offset(int32(keys[r])) < end {
				// Some live block starts in [a, b): report the last.
				e, _ := slices.BinarySearchFunc(keys, end, func(key, end int64) int {
					return cmp.Compare(x.offset(int32(key)), end)
				})
				o = int32(keys[live.prev(e-1)])
			} else if r := live.prev(q); r >= 0 {
				if j := int32(keys[r]); x.offset(j)+x.size(j) > a {
					o = j
				}
			}
		}
		if o >= 0 {
			c.fail("bundle %q: buffer %q [%d, %d) steps %d..%d overlaps buffer %q [%d, %d) steps %d..%d",
				b.Name, x.name(k), a, end, start, x.end(k),
				x.name(o), x.offset(o), x.offset(o)+x.size(o), x.start(o), x.end(o))
			continue // keep the live set disjoint
		}
		live.add(q)
	}
}

// sortPlaced returns the placed items (offset >= 0, size > 0) sorted by
// (offset, item), as item numbers (keys), and each item's position
// there (pos, -1 for an item not placed); keys is empty when fewer than
// two items are placed.
func (s *scratch) sortPlaced(x *items) (keys []int64, pos []int32) {
	m := x.len()
	keys = slab.GrowZero(s.i64[iKeys], m)
	s.i64[iKeys] = keys
	var most int64
	placed := 0
	for k := range int32(m) {
		if x.placed(k) {
			keys[placed] = int64(k)
			placed++
			most = max(most, x.offset(k))
		}
	}
	keys = keys[:placed]
	if len(keys) < 2 {
		return nil, nil
	}
	kb := uint(bits.Len(uint(m)))
	if bits.Len64(uint64(most))+int(kb) <= 63 {
		// One sort of (offset, item) packed in a word.
		var top int64
		for i, k := range keys {
			keys[i] = x.offset(int32(k))<<kb | k
			top |= keys[i]
		}
		if len(keys) < 1<<12 {
			slices.Sort(keys) // (a radix sort's tables cost more than it saves)
		} else {
			s.i64[iTmp] = radixSort(keys, slab.GrowZero(s.i64[iTmp], len(keys)), bits.Len64(uint64(top)))
		}
		for i := range keys {
			keys[i] &= 1<<kb - 1
		}
	} else {
		slices.SortFunc(keys, func(a, b int64) int {
			return cmp.Or(cmp.Compare(x.offset(int32(a)), x.offset(int32(b))), cmp.Compare(a, b))
		})
	}
	pos = slab.GrowZero(s.i32[iPos], m)
	for k := range pos {
		pos[k] = -1
	}
	for i, k := range keys {
		pos[k] = int32(i)
	}
	s.i32[iPos] = pos
	return keys, pos
}

// radixSort sorts keys, whose values are non-negative and below
// 1<<width, using tmp (as long as keys) as the other buffer, least
// significant 11 bits first; it returns tmp's array for reuse (keys
// holds the result).
func radixSort(keys, tmp []int64, width int) []int64 {
	const digit = 11
	var count [1 << digit]int32
	src, dst := keys, tmp
	for shift := 0; shift < width; shift += digit {
		clear(count[:])
		for _, k := range src {
			count[k>>shift&(1<<digit-1)]++
		}
		var sum int32
		for d, n := range count {
			count[d] = sum
			sum += n
		}
		for _, k := range src {
			d := k >> shift & (1<<digit - 1)
			dst[count[d]] = k
			count[d]++
		}
		src, dst = dst, src
	}
	if &src[0] != &keys[0] {
		copy(keys, src)
	}
	return tmp
}

// bitTree is a set of small integers: level 0 has a bit per member,
// level l+1 a bit per non-zero word of level l, up to one word, so that
// add, remove, prev and next take a few word operations per level.
type bitTree struct {
	lv [][]uint64
}

// reset makes t the empty set over [0, n).
func (t *bitTree) reset(n int) {
	l := 0
	for {
		words := (n + 63) / 64
		if l == len(t.lv) {
			t.lv = append(t.lv, nil)
		}
		t.lv[l] = slab.GrowZero(t.lv[l], max(words, 1))
		l++
		if words <= 1 {
			break
		}
		n = words
	}
	t.lv = t.lv[:l]
}

// has reports whether x is a member.
func (t *bitTree) has(x int) bool { return t.lv[0][x>>6]>>(x&63)&1 != 0 }

func (t *bitTree) add(x int) {
	for _, w := range t.lv {
		was := w[x>>6]
		w[x>>6] = was | 1<<(x&63)
		if was != 0 {
			return
		}
		x >>= 6
	}
}

func (t *bitTree) remove(x int) {
	for _, w := range t.lv {
		w[x>>6] &^= 1 << (x & 63)
		if w[x>>6] != 0 {
			return
		}
		x >>= 6
	}
}

// prev is the greatest member <= x, or -1.
func (t *bitTree) prev(x int) int {
	if x < 0 {
		return -1
	}
	for l := range t.lv {
		w := x >> 6
		if m := t.lv[l][w] & (^uint64(0) >> (63 - x&63)); m != 0 {
			x = w<<6 | (63 - bits.LeadingZeros64(m))
			for ; l > 0; l-- {
				x = x<<6 | (63 - bits.LeadingZeros64(t.lv[l-1][x]))
			}
			return x
		}
		if w == 0 {
			return -1
		}
		x = w - 1
	}
	return -1
}

// next is the least member >= x, or -1.
func (t *bitTree) next(x int) int {
	for l := range t.lv {
		w := x >> 6
		if w >= len(t.lv[l]) {
			return -1
		}
		if m := t.lv[l][w] & (^uint64(0) << (x & 63)); m != 0 {
			x = w<<6 | bits.TrailingZeros64(m)
			for ; l > 0; l-- {
				x = x<<6 | bits.TrailingZeros64(t.lv[l-1][x])
			}
			return x
		}
		x = w + 1
	}
	return -1
}

// replayFirstFit runs bundle-ir.md §3.3 as worded, on items in (start, end, name)
// order, and compares with the plan.
//
// The free list is kept in list order (freeList); "the first block in
// list order with size >= needed" is one descent of a tree of maxima:
// O(log n). Before each item, the blocks placed for items that end before
// it starts (byEnd gives them in end order) are freed in allocation
// order, which is item order, as rule 2 frees them. The whole replay is
// O(n log n) in the bundle's candidates, so it runs at every size.
func (c *checker) replayFirstFit(s *scratch, b *ir.Bundle, x *items, byEnd []int32, poolSize int64) {
	free := &s.free
	free.reset(s.i64[iFreeSize], s.i64[iFreeOff])
	defer func() { s.i64[iFreeSize], s.i64[iFreeOff] = free.release() }()
	m := x.len()
	placedAt := slab.GrowZero(s.i64[iPlacedAt], m)
	batch := s.i32[iPos][:0]
	var poolEnd int64
	next := 0
	for k := range int32(m) {
		start, size := x.start(k), x.size(k)
		// Rule 2: move every allocated block whose end < start to the
		// free list, in allocation order.
		batch = batch[:0]
		for ; next < len(byEnd) && x.end(byEnd[next]) < start; next++ {
			if j := byEnd[next]; placedAt[j] >= 0 {
				batch = append(batch, j)
			}
		}
		if len(batch) > 1 {
			slices.Sort(batch)
		}
		for _, j := range batch {
			free.push(placedAt[j], x.size(j))
		}
		// Rule 3: the first free block that is big enough; the remainder
		// goes to the end of the list. Else bump, if the budget allows
		// (rule 4).
		off := int64(-1)
		if f := free.first(size); f >= 0 {
			fsize := free.size(f)
			off = free.off[f]
			free.take(f)
			if fsize > size {
				free.push(off+size, fsize-size)
			}
		} else if size <= c.opt.Budget-poolEnd {
			off = poolEnd
			poolEnd += size
		}
		placedAt[k] = off
		if want := x.offset(k); off != want {
			c.fail("bundle %q: buffer %q at offset %s, first-fit places it at %s",
				b.Name, x.name(k), offsetText(want), offsetText(off))
		}
	}
	s.i64[iPlacedAt], s.i32[iPos] = placedAt, batch
	if poolEnd != poolSize {
		c.fail("bundle %q: pool size %d, first-fit ends at %d", b.Name, poolSize, poolEnd)
	}
}

// freeList is first-fit's free list: blocks in list order in slots
// [0, used), a block taken leaving a hole (size hole), under a tree of
// maxima over the sizes with eight children per node (lv[0] holds the
// slots' sizes, lv[l+1][i] the largest of lv[l][8i:8i+8]; each level
// but the last, one node, is a multiple of eight long, padded with
// holes), so that a search or an update reads a few cache lines. When
// the slots run out, the holes are squeezed out, and when more than
// three quarters of the slots still hold blocks, the slots grow to one
// and a half times the blocks, and at least by a quarter: so at least a
// quarter of the slots are free after it, each push costs O(1)
// amortized besides its O(log n) path, the list takes at most about
// 1.7 * 16 bytes per block, and what growing leaves behind is at most
// four times that.
type freeList struct {
	used, blocks int
	lv           [][]int64
	off          []int64
}

// hole is the size of a slot without a block: less than any size, so
// that no search finds it.
const hole = math.MinInt64

// reset empties the list, keeping 64 slots, the slots' sizes and
// offsets in the arrays of size and off where they are big enough.
func (f *freeList) reset(size, off []int64) {
	f.used, f.blocks = 0, 0
	if len(f.lv) == 0 {
		f.lv = [][]int64{nil}
	}
	f.lv[0] = slab.GrowZero(size, 64)
	f.off = slab.GrowZero(off, 64)
	f.build()
}

// release hands back the arrays of the slots' sizes and offsets (for
// reuse by others until the next reset).
func (f *freeList) release() (size, off []int64) {
	size, off = f.lv[0], f.off
	f.lv[0], f.off = nil, nil
	return size, off
}

// build makes the slots from used on holes and rebuilds the maxima
// above lv[0] (whose length, a multiple of 64, is the slots').
func (f *freeList) build() {
	lower := f.lv[0]
	for i := f.used; i < len(lower); i++ {
		lower[i] = hole
	}
	l := 1
	for n := len(lower); n > 1; l++ {
		n = (n + 7) / 8
		if n > 1 {
			n = (n + 7) &^ 7
		}
		if l == len(f.lv) {
			f.lv = append(f.lv, nil)
		}
		up := slab.GrowZero(f.lv[l], n)
		for i := range up {
			up[i] = hole
			if 8*i < len(lower) {
				up[i] = max8(lower[8*i:])
			}
		}
		f.lv[l], lower = up, up
	}
	f.lv = f.lv[:l]
}

func (f *freeList) size(i int) int64 { return f.lv[0][i] }

func max8(a []int64) int64 {
	a = a[:8]
	return max(max(max(a[0], a[1]), max(a[2], a[3])), max(max(a[4], a[5]), max(a[6], a[7])))
}

// set sets slot i's size and the maxima above it.
func (f *freeList) set(i int, v int64) {
	f.lv[0][i] = v
	for l := 1; l < len(f.lv); l++ {
		i /= 8
		m := max8(f.lv[l-1][8*i:])
		if f.lv[l][i] == m {
			return // and so are the maxima above
		}
		f.lv[l][i] = m
	}
}

// raise sets slot i's size to v, not below its size before (a hole's),
// and the maxima above it: they only grow.
func (f *freeList) raise(i int, v int64) {
	f.lv[0][i] = v
	for l := 1; l < len(f.lv); l++ {
		i /= 8
		if f.lv[l][i] >= v {
			return // and so are the maxima above
		}
		f.lv[l][i] = v
	}
}

// push appends a free block at the end of the list.
func (f *freeList) push(off, size int64) {
	if f.used == len(f.off) {
		f.squeeze()
	}
	f.off[f.used] = off
	f.raise(f.used, size)
	f.used++
	f.blocks++
}

// take removes the block in slot i from the list.
func (f *freeList) take(i int) {
	f.set(i, hole)
	f.blocks--
}

// squeeze moves the blocks to the first slots, in list order, with
// more slots when more than three quarters hold blocks (see freeList),
// and rebuilds the maxima.
func (f *freeList) squeeze() {
	lv0, off := f.lv[0], f.off
	n := 0
	for i, v := range lv0[:f.used] {
		if v != hole {
			lv0[n], off[n] = v, off[i]
			n++
		}
	}
	if slots := len(lv0); 4*n > 3*slots {
		slots = (max(n+n/2, slots+slots/4) + 63) &^ 63
		f.lv[0], f.off = extend(lv0, n, slots), extend(off, n, slots)
	}
	f.used = n
	f.build()
}

// extend returns s with length k, its first n elements kept, in s's
// array when it is big enough.
func extend(s []int64, n, k int) []int64 {
	if cap(s) >= k {
		return s[:k]
	}
	t := make([]int64, k)
	copy(t, s[:n])
	return t
}

// first is the first slot whose block has size >= n, or -1.
func (f *freeList) first(n int64) int {
	top := len(f.lv) - 1
	if f.lv[top][0] < n {
		return -1
	}
	i := 0
	for l := top - 1; l >= 0; l-- {
		c := f.lv[l][8*i : 8*i+8]
		k := 0
		for c[k] < n {
			k++
		}
		i = 8*i + k
	}
	return i
}
