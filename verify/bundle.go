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
	rAt, wAt, reads, writes, next, seenLoop, loops []int32

	// checkBundle and what it calls.
	at       []int32
	items    []item
	byEnd    []int32
	placed   []int32 // overlap: indices into items
	offs     []int64
	slot     []int32 // overlap: the slot of each placed block's offset
	occupant []int32
	inserted []bool
	fenwick  []int32
	batch    []int32
	free     maxTree
	freeOff  []int64
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
		if !sameLoops(op.Loops, enc) {
			c.fail("bundle %q: op %q records loops %v, the tree says %v", b.Name, op.Name, op.Loops, enc)
		}
		for _, accs := range [2][]ir.Access{op.Reads, op.Writes} {
			for ai := range accs {
				if a := &accs[ai]; a.Strides != nil && len(a.Strides) != len(enc) {
					c.fail("bundle %q: op %q: %d strides under %d loops", b.Name, op.Name, len(a.Strides), len(enc))
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
		case it.Op >= 0 && it.Op < len(b.Ops):
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
		case it.Loop >= 0 && it.Loop < len(b.Loops):
			s.stack = append(s.stack, int32(it.Loop))
			c.walk(s, b, b.Loops[it.Loop].Body)
			s.stack = s.stack[:len(s.stack)-1]
		default:
			c.fail("bundle %q: tree item %+v indexes nothing", b.Name, it)
		}
	}
}

func sameLoops(recorded []int, tree []int32) bool {
	if len(recorded) != len(tree) {
		return false
	}
	for i, l := range recorded {
		if l != int(tree[i]) {
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
	for oi := range b.Ops {
		op := &b.Ops[oi]
		for ai := range op.Reads {
			if w := &ws[c.groupOf(&op.Reads[ai])]; w.bundle == b32 {
				rAt[w.end+1]++
			}
		}
		for ai := range op.Writes {
			if w := &ws[c.groupOf(&op.Writes[ai])]; w.bundle == b32 {
				wAt[w.end+1]++
			}
		}
	}
	for k := range n {
		rAt[k+1] += rAt[k]
		wAt[k+1] += wAt[k]
	}
	reads, writes := grow(s.reads, int(rAt[n])), grow(s.writes, int(wAt[n]))
	next := grow(s.next, 2*n) // next free slot per candidate: reads, then writes
	copy(next, rAt[:n])
	copy(next[n:], wAt[:n])
	for oi := range b.Ops {
		op := &b.Ops[oi]
		for ai := range op.Reads {
			if w := &ws[c.groupOf(&op.Reads[ai])]; w.bundle == b32 {
				reads[next[w.end]] = int32(oi)
				next[w.end]++
			}
		}
		for ai := range op.Writes {
			if w := &ws[c.groupOf(&op.Writes[ai])]; w.bundle == b32 {
				writes[next[n+int(w.end)]] = int32(oi)
				next[n+int(w.end)]++
			}
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
			c.fail("group %q: candidate of bundle %q but never touched there", c.g.Groups[gi].Name, b.Name)
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
		items[at[w.start]] = item{group: gi, name: g.Groups[gi].Name, size: g.Groups[gi].Size,
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
// current step ordered by offset in a Fenwick tree over the distinct
// offsets. While the live blocks are pairwise disjoint, a new block
// [a, b) overlaps one of them exactly when the live block with the
// greatest offset below b ends after a, so one lookup per block suffices.
func (c *checker) checkOverlap(s *scratch, b *ir.Bundle, items []item, byEnd []int32) {
	// The placed blocks, in start order (items' order); slot[k] is the
	// rank of item k's offset among the distinct offsets.
	offs := s.offs[:0]
	nPlaced := 0
	for k := range items {
		if it := &items[k]; it.offset >= 0 && it.size > 0 {
			offs = append(offs, it.offset)
			nPlaced++
		}
	}
	s.offs = offs
	if nPlaced < 2 {
		return
	}
	slices.Sort(offs)
	uniq := slices.Compact(offs)
	// slotOf is the index of the first distinct offset >= off.
	slotOf := func(off int64) int32 { k, _ := slices.BinarySearch(uniq, off); return int32(k) }
	slot := grow(s.slot, len(items))
	for k := range items {
		if it := &items[k]; it.offset >= 0 && it.size > 0 {
			slot[k] = slotOf(it.offset)
		}
	}
	fw := fenwick{t: grow(s.fenwick, len(uniq)+1)}
	occupant := grow(s.occupant, len(uniq))
	inserted := grow(s.inserted, len(items))
	s.slot, s.fenwick, s.occupant, s.inserted = slot, fw.t, occupant, inserted
	next := 0
	for k := range items {
		it := &items[k]
		if it.offset < 0 || it.size == 0 {
			continue
		}
		for next < len(byEnd) && items[byEnd[next]].end < it.start {
			if j := byEnd[next]; inserted[j] {
				fw.add(slot[j], -1)
				inserted[j] = false
			}
			next++
		}
		// Live blocks with offset < it.offset+size: slots [0, e).
		e := slotOf(it.offset + it.size)
		if n := fw.prefix(e); n > 0 {
			o := &items[occupant[fw.find(n)]]
			if o.offset+o.size > it.offset {
				c.fail("bundle %q: buffer %q [%d, %d) steps %d..%d overlaps buffer %q [%d, %d) steps %d..%d",
					b.Name, it.name, it.offset, it.offset+it.size, it.start, it.end,
					o.name, o.offset, o.offset+o.size, o.start, o.end)
				continue // keep the live set disjoint
			}
		}
		fw.add(slot[k], 1)
		occupant[slot[k]] = int32(k)
		inserted[k] = true
	}
}

// fenwick counts occupied slots.
type fenwick struct{ t []int32 }

func (f fenwick) add(i, d int32) {
	for i++; int(i) < len(f.t); i += i & -i {
		f.t[i] += d
	}
}

// prefix counts occupied slots in [0, k).
func (f fenwick) prefix(k int32) int32 {
	var n int32
	for ; k > 0; k -= k & -k {
		n += f.t[k]
	}
	return n
}

// find returns the slot of the n-th occupied slot (1-based n).
func (f fenwick) find(n int32) int32 {
	var pos int32
	step := int32(1)
	for int(step)*2 < len(f.t) {
		step *= 2
	}
	for ; step > 0; step /= 2 {
		if int(pos+step) < len(f.t) && f.t[pos+step] < n {
			pos += step
			n -= f.t[pos]
		}
	}
	return pos // 0-based slot = (1-based pos+1) - 1
}

// replayFirstFit runs bundle-ir.md §3.3 as worded, on items in (start, end, name)
// order, and compares with the plan.
//
// The free list is kept in list order as an append-only array of blocks
// (a block taken from it leaves a hole, a remainder or a freed block is
// appended), under a tree of maxima over block sizes, so "the first
// block in list order with size >= needed" is one descent from the root:
// O(log n). Before each item, the blocks placed for items that end before
// it starts (byEnd gives them in end order) are freed in allocation
// order, which is item order, as rule 2 frees them. The whole replay is
// O(n log n) in the bundle's candidates, so it runs at every size.
func (c *checker) replayFirstFit(s *scratch, b *ir.Bundle, items []item, byEnd []int32, poolSize int64) {
	// Every item adds at most two blocks to the free list over the run:
	// itself when freed, and the remainder of the block it takes.
	free := &s.free
	free.reset(2 * len(items))
	freeOff := s.freeOff[:0]
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
		slices.Sort(batch)
		for _, j := range batch {
			free.set(len(freeOff), items[j].size)
			freeOff = append(freeOff, placedAt[j])
		}
		// Rule 3: the first free block that is big enough; the remainder
		// goes to the end of the list. Else bump, if the budget allows
		// (rule 4).
		off := int64(-1)
		if f := free.first(it.size, len(freeOff)); f >= 0 {
			size := free.get(f)
			off = freeOff[f]
			free.set(f, -1)
			if size > it.size {
				free.set(len(freeOff), size-it.size)
				freeOff = append(freeOff, off+it.size)
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
	s.freeOff, s.placedAt, s.batch = freeOff, placedAt, batch
	if poolEnd != poolSize {
		c.fail("bundle %q: pool size %d, first-fit ends at %d", b.Name, poolSize, poolEnd)
	}
}

// maxTree holds a value per slot (-1 for none) under a complete binary
// tree of maxima, for "the first slot whose value is >= n".
type maxTree struct {
	leaves int
	t      []int64
}

// reset makes the tree n empty slots (or more).
func (m *maxTree) reset(n int) {
	leaves := 1
	for leaves < n {
		leaves *= 2
	}
	m.leaves = leaves
	if cap(m.t) < 2*leaves {
		m.t = make([]int64, 2*leaves)
	}
	m.t = m.t[:2*leaves]
	for i := range m.t {
		m.t[i] = -1
	}
}

func (m *maxTree) get(i int) int64 { return m.t[m.leaves+i] }

func (m *maxTree) set(i int, v int64) {
	i += m.leaves
	m.t[i] = v
	for i /= 2; i >= 1; i /= 2 {
		m.t[i] = max(m.t[2*i], m.t[2*i+1])
	}
}

// first is the first slot below used whose value is >= n, or -1.
func (m *maxTree) first(n int64, used int) int {
	if used == 0 || m.t[1] < n {
		return -1
	}
	i := 1
	for i < m.leaves {
		if m.t[2*i] >= n {
			i = 2 * i
		} else {
			i = 2*i + 1
		}
	}
	if k := i - m.leaves; k < used {
		return k
	}
	return -1
}
