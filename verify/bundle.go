package verify

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
	"strings"

	"github.com/sdscgen/sdscgen/ir"
)

// scratch is one worker's memory for the per-bundle checks, reused from
// bundle to bundle so that checking a bundle allocates nothing once the
// worker has seen a bundle as large.
type scratch struct {
	// The loop structure of the bundle (loopsOf): step s lies in loops
	// enc[encOff[s]:encOff[s]+encLen[s]] (outermost first), after the
	// implicit loop extra of a bare loop bundle when extra >= 0.
	encOff, encLen, enc []int32
	spans               []span
	extra               int32
	seen                []bool
	stack               []int32

	// liveRanges: per candidate (by its position k in candOf) the steps
	// reading it, reads[rAt[k]:rAt[k+1]], and writing it, likewise.
	rAt, wAt, reads, writes, next, seenLoop, loops, accK []int32

	// checkBundle and what it calls.
	at       []int32
	items    []item
	byEnd    []int32
	keys     []uint64 // overlap: the placed items, sorted by offset
	tmp      []uint64
	offs     []int64
	slot     []int32 // overlap: the rank of each placed item's offset
	occupant []int32
	inserted []bool
	live     bitTree
	batch    []int32
	free     freeList
	placedAt []int64 // replay: each item's first-fit offset (-1: none)
}

// span is the inclusive step range of a loop; first > last when empty.
type span struct{ first, last int32 }

// loopsOf walks bundle b's tree into s (see scratch) and checks it: every
// op once, each op's recorded loops and strides. A bare loop bundle gets
// one more loop, over all its steps, as bundle-ir.md §3.2 says.
func (c *checker) loopsOf(s *scratch, b *ir.Bundle) {
	n := len(b.Ops)
	s.encOff = grow(s.encOff, n)
	s.encLen = grow(s.encLen, n)
	s.enc = s.enc[:0]
	s.seen = grow(s.seen, n)
	s.stack = s.stack[:0]
	s.spans = grow(s.spans, len(b.Loops))
	for i := range s.spans {
		s.spans[i] = span{int32(n), -1}
	}
	c.walk(s, b, b.Body)
	s.extra = -1
	for st := range b.Ops {
		op := &b.Ops[st]
		if !s.seen[st] {
			c.fail("bundle %q: op %q is not in the tree", b.Name, op.Name)
			continue
		}
		enc := s.enc[s.encOff[st] : s.encOff[st]+s.encLen[st]]
		if !sameLoops(c.g.OpLoops(op), enc) {
			c.fail("bundle %q: op %q records loops %v, the tree says %v", b.Name, op.Name, c.g.OpLoops(op), enc)
		}
		for _, accs := range [2][]ir.Access{c.g.Reads(op), c.g.Writes(op)} {
			for ai := range accs {
				if strides := c.g.Strides(&accs[ai]); strides != nil && len(strides) != len(enc) {
					c.fail("bundle %q: op %q: %d strides under %d loops", b.Name, op.Name, len(strides), len(enc))
				}
			}
		}
	}
	if b.Kind == ir.KindLoop && n > 0 {
		s.extra = int32(len(s.spans))
		s.spans = append(s.spans, span{0, int32(n - 1)})
	}
}

// walk visits the tree items, recording each op's enclosing loops (the
// stack) and widening the spans of the loops on the stack.
func (c *checker) walk(s *scratch, b *ir.Bundle, items []ir.Item) {
	for _, it := range items {
		switch {
		case it.Op >= 0 && int(it.Op) < len(b.Ops):
			if s.seen[it.Op] {
				c.fail("bundle %q: op %q appears twice in the tree", b.Name, b.Ops[it.Op].Name)
				continue
			}
			s.seen[it.Op] = true
			s.encOff[it.Op] = int32(len(s.enc))
			s.encLen[it.Op] = int32(len(s.stack))
			s.enc = append(s.enc, s.stack...)
			op := int32(it.Op)
			for _, l := range s.stack {
				sp := &s.spans[l]
				sp.first = min(sp.first, op)
				sp.last = max(sp.last, op)
			}
		case it.Loop >= 0 && int(it.Loop) < len(b.Loops):
			s.stack = append(s.stack, int32(it.Loop))
			c.walk(s, b, c.g.LoopBody(&b.Loops[it.Loop]))
			s.stack = s.stack[:len(s.stack)-1]
		default:
			c.fail("bundle %q: tree item %+v indexes nothing", b.Name, it)
		}
	}
}

func sameLoops(recorded, tree []int32) bool {
	if len(recorded) != len(tree) {
		return false
	}
	for i, l := range recorded {
		if l != tree[i] {
			return false
		}
	}
	return true
}

// liveRanges checks bundle bi's tree (loopsOf) and sets start and end
// (bundle-ir.md §3.2) for its candidates in c.ws, where end holds each
// candidate's position in candOf(bi) until then.
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
	// The steps at which each candidate is read, and written, as CSR
	// lists; steps ascend within a list.
	rAt, wAt := grow(s.rAt, n+1), grow(s.wAt, n+1)
	// accK lists, access by access (each op's reads, then its writes),
	// the candidate's position, or -1 for a group that is not one.
	accK := s.accK[:0]
	for oi := range b.Ops {
		op := &b.Ops[oi]
		for ai := range c.g.Reads(op) {
			k := int32(-1)
			if w := &ws[c.groupOf(&c.g.Reads(op)[ai])]; w.bundle == b32 {
				k = w.end
				rAt[k+1]++
			}
			accK = append(accK, k)
		}
		for ai := range c.g.Writes(op) {
			k := int32(-1)
			if w := &ws[c.groupOf(&c.g.Writes(op)[ai])]; w.bundle == b32 {
				k = w.end
				wAt[k+1]++
			}
			accK = append(accK, k)
		}
	}
	s.accK = accK
	for k := range n {
		rAt[k+1] += rAt[k]
		wAt[k+1] += wAt[k]
	}
	reads, writes := grow(s.reads, int(rAt[n])), grow(s.writes, int(wAt[n]))
	next := grow(s.next, 2*n) // next free slot per candidate: reads, then writes
	copy(next, rAt[:n])
	copy(next[n:], wAt[:n])
	x := 0
	for oi := range b.Ops {
		op := &b.Ops[oi]
		for range c.g.Reads(op) {
			if k := accK[x]; k >= 0 {
				reads[next[k]] = int32(oi)
				next[k]++
			}
			x++
		}
		for range c.g.Writes(op) {
			if k := accK[x]; k >= 0 {
				writes[next[n+int(k)]] = int32(oi)
				next[n+int(k)]++
			}
			x++
		}
	}
	s.rAt, s.wAt, s.reads, s.writes, s.next = rAt, wAt, reads, writes, next

	spans := s.spans
	seenLoop := grow(s.seenLoop, len(spans)) // the last candidate (k+1) that saw loop l
	loops := s.loops[:0]
	for k, gi := range cands {
		rs, wr := reads[rAt[k]:rAt[k+1]], writes[wAt[k]:wAt[k+1]]
		w := &ws[gi]
		if len(rs) == 0 && len(wr) == 0 {
			w.start, w.end = 0, 0
			c.fail("group %q: candidate of bundle %q but never touched there", c.groupName(int(gi)), b.Name)
			continue
		}
		start, end := int32(math.MaxInt32), int32(math.MinInt32)
		if len(rs) > 0 {
			start, end = min(start, rs[0]), max(end, rs[len(rs)-1])
		}
		if len(wr) > 0 {
			start, end = min(start, wr[0]), max(end, wr[len(wr)-1])
		}
		// The loops around any step that touches the candidate.
		loops = loops[:0]
		mark := int32(k + 1)
		if s.extra >= 0 {
			seenLoop[s.extra] = mark
			loops = append(loops, s.extra)
		}
		for _, steps := range [2][]int32{rs, wr} {
			for _, st := range steps {
				for _, l := range s.enc[s.encOff[st] : s.encOff[st]+s.encLen[st]] {
					if seenLoop[l] != mark {
						seenLoop[l] = mark
						loops = append(loops, l)
					}
				}
			}
		}
		// Loop by loop: its first read and first write inside it.
		for _, l := range loops {
			sp := spans[l]
			firstRead, firstWrite := firstIn(rs, sp), firstIn(wr, sp)
			if firstRead < 0 || (firstWrite >= 0 && firstRead > firstWrite) {
				continue // not read in L, or written before read: no carry
			}
			if firstWrite >= 0 {
				start = min(start, sp.first)
			}
			end = max(end, sp.last)
		}
		w.start, w.end = start, end
	}
	s.seenLoop, s.loops = seenLoop, loops
}

// firstIn is the first of the ascending steps inside sp, or -1.
func firstIn(steps []int32, sp span) int32 {
	k, _ := slices.BinarySearch(steps, sp.first)
	if k < len(steps) && steps[k] <= sp.last {
		return steps[k]
	}
	return -1
}

// item is one candidate of a bundle as the verifier sees it.
type item struct {
	name       string
	size       int64
	offset     int64 // -1 when over budget
	group      int32
	start, end int32
}

func (c *checker) checkBundle(s *scratch, bi int) {
	g, p := c.g, c.p
	b := &g.Bundles[bi]
	pb := &p.Bundles[bi]
	// Sort the candidates by (start, end, name): by start with a counting
	// sort over the bundle's steps, then each run of one start by the
	// rest. (Group names are unique; the index only makes ties total.)
	cands := c.candOf(bi)
	at := grow(s.at, len(b.Ops)+1)
	for _, gi := range cands {
		at[c.ws[gi].start+1]++
	}
	for st := range b.Ops {
		at[st+1] += at[st]
	}
	items := grow(s.items, len(cands))
	for _, gi := range cands {
		w := c.ws[gi]
		items[at[w.start]] = item{group: gi, name: c.groupName(int(gi)), size: g.Groups[gi].Size,
			start: w.start, end: w.end, offset: p.Groups[gi].Offset}
		at[w.start]++
	}
	s.at, s.items = at, items
	for lo := 0; lo < len(items); {
		hi := lo + 1
		for hi < len(items) && items[hi].start == items[lo].start {
			hi++
		}
		if hi-lo > 1 {
			slices.SortFunc(items[lo:hi], func(a, b item) int {
				return cmp.Or(cmp.Compare(a.end, b.end), strings.Compare(a.name, b.name), cmp.Compare(a.group, b.group))
			})
		}
		lo = hi
	}

	// The pool-size table and the candidate order.
	if pb.HasPool() != (len(items) > 0) {
		c.fail("bundle %q: pool-size table entry %v, but it has %d candidate(s)", b.Name, pb.HasPool(), len(items))
	}
	if len(pb.Candidates) != len(items) {
		c.fail("bundle %q: %d candidates listed, the rules give %d", b.Name, len(pb.Candidates), len(items))
	} else {
		for k := range items {
			if it := &items[k]; pb.Candidates[k] != int(it.group) {
				c.fail("bundle %q: candidate %d is group %d, (start, end, name) order gives %q", b.Name, k, pb.Candidates[k], it.name)
				break
			}
		}
	}
	if len(items) == 0 {
		return
	}

	// Pool size, budget, sticks. Offsets and the pool size are whole
	// sticks when every candidate's size is: an allocator only adds sizes.
	// A view at an offset that is not a whole number of sticks can make
	// its group's size, and so offsets after it, uneven.
	budget := c.opt.Budget
	aligned := true
	for k := range items {
		aligned = aligned && items[k].size%stick == 0
	}
	var top int64
	for k := range items {
		it := &items[k]
		if it.offset < 0 {
			continue
		}
		if aligned && it.offset%stick != 0 {
			c.fail("bundle %q: buffer %q at offset %d, not on a %d-byte stick", b.Name, it.name, it.offset, stick)
		}
		if it.offset > budget || it.size > budget-it.offset {
			c.fail("bundle %q: buffer %q at [%d, +%d) passes the budget %d", b.Name, it.name, it.offset, it.size, budget)
			continue
		}
		top = max(top, it.offset+it.size)
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
	for k := range items {
		if it := &items[k]; it.offset < 0 && it.size <= budget-pb.PoolSize {
			c.fail("bundle %q: buffer %q (%d bytes) fell back over budget, yet a bump at the pool end %d fits the budget %d",
				b.Name, it.name, it.size, pb.PoolSize, budget)
		}
	}
	// Items by end step (ties in item order), for the sweeps below: a
	// counting sort over the bundle's steps.
	at = grow(s.at, len(b.Ops)+1)
	for k := range items {
		at[items[k].end+1]++
	}
	for st := range b.Ops {
		at[st+1] += at[st]
	}
	byEnd := grow(s.byEnd, len(items))
	for k := range items {
		e := items[k].end
		byEnd[at[e]] = int32(k)
		at[e]++
	}
	s.byEnd = byEnd

	c.checkOverlap(s, b, items, byEnd)

	// Lower bound: most candidate bytes live at one step, saturated at
	// MaxInt64.
	if lb := peakLive(items, byEnd); pb.LowerBound != lb {
		c.fail("bundle %q: lower bound %d, the live bytes peak at %d", b.Name, pb.LowerBound, lb)
	}

	if p.Allocator == "first-fit" {
		c.replayFirstFit(s, b, items, byEnd, pb.PoolSize)
	}
}

// peakLive is the most bytes of items (in start order; byEnd orders them
// by end) live at one step, or MaxInt64 when that passes MaxInt64. The
// live sum is kept in 128 bits (hi, lo), so it never wraps on the way.
func peakLive(items []item, byEnd []int32) int64 {
	var hi, lo, best uint64
	next := 0
	for k := range items {
		it := &items[k]
		for next < len(byEnd) && items[byEnd[next]].end < it.start {
			var borrow uint64
			lo, borrow = bits.Sub64(lo, uint64(items[byEnd[next]].size), 0)
			hi -= borrow
			next++
		}
		var carry uint64
		lo, carry = bits.Add64(lo, uint64(it.size), 0)
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
// ranks of the distinct offsets). While the live blocks are pairwise
// disjoint, a new block [a, b) overlaps one of them exactly when the
// live block with the greatest offset <= a ends after a or the one with
// the least offset > a starts before b, so two lookups per block
// suffice. The block reported is the live block with the greatest offset
// below b.
func (c *checker) checkOverlap(s *scratch, b *ir.Bundle, items []item, byEnd []int32) {
	slot, uniq := s.rankOffsets(items)
	if len(uniq) == 0 {
		return
	}
	live := &s.live
	live.reset(len(uniq))
	occupant := grow(s.occupant, len(uniq))
	inserted := grow(s.inserted, len(items))
	s.occupant, s.inserted = occupant, inserted
	next := 0
	for k := range items {
		it := &items[k]
		if it.offset < 0 || it.size == 0 {
			continue
		}
		for next < len(byEnd) && items[byEnd[next]].end < it.start {
			if j := byEnd[next]; inserted[j] {
				live.remove(int(slot[j]))
				inserted[j] = false
			}
			next++
		}
		a, end := it.offset, it.offset+it.size
		sk := int(slot[k])
		var o *item
		if end > a { // (the end of a block past MaxInt64 is not checked)
			if q := live.next(sk + 1); q >= 0 && items[occupant[q]].offset < end {
				// Some live block starts in (a, b): report the last.
				e, _ := slices.BinarySearch(uniq, end)
				o = &items[occupant[live.prev(e-1)]]
			} else if p := live.prev(sk); p >= 0 {
				if pi := &items[occupant[p]]; pi.offset+pi.size > a {
					o = pi
				}
			}
		}
		if o != nil {
			c.fail("bundle %q: buffer %q [%d, %d) steps %d..%d overlaps buffer %q [%d, %d) steps %d..%d",
				b.Name, it.name, it.offset, end, it.start, it.end,
				o.name, o.offset, o.offset+o.size, o.start, o.end)
			continue // keep the live set disjoint
		}
		live.add(sk)
		occupant[sk] = int32(k)
		inserted[k] = true
	}
}

// rankOffsets returns, for every placed item (offset >= 0, size > 0),
// slot[k], the rank of its offset among the distinct offsets of the
// placed items, and those offsets ascending (uniq); uniq is empty when
// fewer than two items are placed.
func (s *scratch) rankOffsets(items []item) (slot []int32, uniq []int64) {
	keys := s.keys[:0]
	var most int64
	for k := range items {
		if it := &items[k]; it.offset >= 0 && it.size > 0 {
			keys = append(keys, uint64(k))
			most = max(most, it.offset)
		}
	}
	s.keys = keys
	if len(keys) < 2 {
		return nil, nil
	}
	slot = grow(s.slot, len(items))
	uniq = s.offs[:0]
	kb := uint(bits.Len(uint(len(items))))
	if bits.Len64(uint64(most))+int(kb) <= 64 {
		// One sort of (offset, item) packed in a word.
		var top uint64
		for i, k := range keys {
			keys[i] = uint64(items[k].offset)<<kb | k
			top |= keys[i]
		}
		if len(keys) < 1<<12 {
			slices.Sort(keys) // (a radix sort's tables cost more than it saves)
		} else {
			s.tmp = radixSort(keys, grow(s.tmp, len(keys)), bits.Len64(top))
		}
		for _, key := range keys {
			off := int64(key >> kb)
			if len(uniq) == 0 || uniq[len(uniq)-1] != off {
				uniq = append(uniq, off)
			}
			slot[key&(1<<kb-1)] = int32(len(uniq) - 1)
		}
	} else {
		for _, k := range keys {
			uniq = append(uniq, items[k].offset)
		}
		slices.Sort(uniq)
		uniq = slices.Compact(uniq)
		for _, k := range keys {
			r, _ := slices.BinarySearch(uniq, items[k].offset)
			slot[k] = int32(r)
		}
	}
	s.slot, s.offs = slot, uniq
	return slot, uniq
}

// radixSort sorts keys, whose values are below 1<<width, using tmp (as
// long as keys) as the other buffer, least significant 11 bits first; it
// returns tmp's array for reuse (keys holds the result).
func radixSort(keys, tmp []uint64, width int) []uint64 {
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
		t.lv[l] = grow(t.lv[l], max(words, 1))
		l++
		if words <= 1 {
			break
		}
		n = words
	}
	t.lv = t.lv[:l]
}

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
func (c *checker) replayFirstFit(s *scratch, b *ir.Bundle, items []item, byEnd []int32, poolSize int64) {
	free := &s.free
	free.reset()
	placedAt := grow(s.placedAt, len(items))
	batch := s.batch[:0]
	var poolEnd int64
	next := 0
	for k := range items {
		it := &items[k]
		// Rule 2: move every allocated block whose end < start to the
		// free list, in allocation order.
		batch = batch[:0]
		for ; next < len(byEnd) && items[byEnd[next]].end < it.start; next++ {
			if j := byEnd[next]; placedAt[j] >= 0 {
				batch = append(batch, j)
			}
		}
		if len(batch) > 1 {
			slices.Sort(batch)
		}
		for _, j := range batch {
			free.push(placedAt[j], items[j].size)
		}
		// Rule 3: the first free block that is big enough; the remainder
		// goes to the end of the list. Else bump, if the budget allows
		// (rule 4).
		off := int64(-1)
		if f := free.first(it.size); f >= 0 {
			size := free.size(f)
			off = free.off[f]
			free.take(f)
			if size > it.size {
				free.push(off+it.size, size-it.size)
			}
		} else if it.size <= c.opt.Budget-poolEnd {
			off = poolEnd
			poolEnd += it.size
		}
		placedAt[k] = off
		if off != it.offset {
			c.fail("bundle %q: buffer %q at offset %s, first-fit places it at %s",
				b.Name, it.name, offsetText(it.offset), offsetText(off))
		}
	}
	s.placedAt, s.batch = placedAt, batch
	if poolEnd != poolSize {
		c.fail("bundle %q: pool size %d, first-fit ends at %d", b.Name, poolSize, poolEnd)
	}
}

// freeList is first-fit's free list: blocks in list order in slots
// [0, used), a block taken leaving a hole (size hole), under a tree of
// maxima over the sizes with eight children per node (lv[0] holds the
// slots' sizes, lv[l+1][i] the largest of lv[l][8i:8i+8]; the last level
// is one node), so that a search or an update reads a few cache lines.
// When the slots run out, the holes are squeezed out (and the slots
// multiplied by eight if more than half hold blocks), so the tree stays
// within sixteen times the blocks on the list, and each push costs O(1)
// amortized besides its O(log n) path.
type freeList struct {
	used, blocks  int
	lv            [][]int64
	off           []int64
	keep, keepOff []int64 // squeeze's
}

// hole is the size of a slot without a block: less than any size, so
// that no search finds it.
const hole = math.MinInt64

func (f *freeList) reset() {
	f.used, f.blocks = 0, 0
	f.resize(64)
}

// resize makes the tree slots empty slots (a power of eight).
func (f *freeList) resize(slots int) {
	l := 0
	for n := slots; ; n /= 8 {
		if l == len(f.lv) {
			f.lv = append(f.lv, nil)
		}
		f.lv[l] = grow(f.lv[l], n)
		for i := range f.lv[l] {
			f.lv[l][i] = hole
		}
		l++
		if n == 1 {
			break
		}
	}
	f.lv = f.lv[:l]
	if cap(f.off) < slots {
		f.off = make([]int64, slots)
	}
	f.off = f.off[:slots]
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

// push appends a free block at the end of the list.
func (f *freeList) push(off, size int64) {
	if f.used == len(f.off) {
		f.squeeze()
	}
	f.off[f.used] = off
	f.set(f.used, size)
	f.used++
	f.blocks++
}

// take removes the block in slot i from the list.
func (f *freeList) take(i int) {
	f.set(i, hole)
	f.blocks--
}

// squeeze moves the blocks to the first slots, in list order, with eight
// times the slots when more than a quarter hold blocks (so at least
// three quarters of the slots are free after it), and rebuilds the
// maxima.
func (f *freeList) squeeze() {
	f.keep, f.keepOff = f.keep[:0], f.keepOff[:0]
	for i, v := range f.lv[0][:f.used] {
		if v != hole {
			f.keep = append(f.keep, v)
			f.keepOff = append(f.keepOff, f.off[i])
		}
	}
	n := len(f.keep)
	slots := len(f.off)
	if 4*n > slots {
		slots *= 8
	}
	f.resize(slots)
	copy(f.lv[0], f.keep)
	copy(f.off, f.keepOff)
	for l := 1; l < len(f.lv); l++ {
		for i := range f.lv[l] {
			f.lv[l][i] = max8(f.lv[l-1][8*i:])
		}
	}
	f.used = n
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
