package alloc

import "sync"

// FirstFit is the seed's policy (bundle-ir.md §3.3), the default: intervals in
// (start, end, name) order; before each, every placed block whose end is
// before its start returns to the free list in allocation order; the first
// free block in list order that is large enough is taken and its remainder
// appended to the end of the list; no coalescing; otherwise bump, unless
// the bump would pass the budget, in which case the interval falls back and
// nothing changes.
//
// The free list is kept as an append-only array of slots under a max
// segment tree, so "first block in list order with size >= n" is one
// O(log n) descent instead of a scan, and expired blocks come off a heap
// keyed by end instead of a rescan of the live set. NaiveFirstFit is the
// same policy written plainly; tests hold the two equal.
func FirstFit(items []Interval, budget int64) Result {
	res := Result{Offsets: make([]int64, len(items))}
	st := getFirstFitState()
	st.order, st.pos = appendStartOrder(st.order[:0], st.pos, items)
	order := st.order
	res.PoolEnd, _ = st.run(len(items), budget,
		func(k int) (int64, int, int) { it := &items[order[k]]; return it.Size, it.Start, it.End },
		func(k int, off int64) { res.Offsets[order[k]] = off })
	putFirstFitState(st, len(items))
	return res
}

// FirstFitOrdered is FirstFit for a caller that keeps its intervals
// itself and hands them over one at a time, already in processing order
// (SortStartOrder's): item(k) returns the k-th one's size and steps, and
// place(k, off) is told where it went (-1: it fell back over budget). It
// returns the pool end. It builds no copy of the intervals and no
// offsets array: its memory is the free list and the live blocks.
// Over StartOrder(items), it places exactly as FirstFit(items) does.
//
// peak is the most bytes of placed blocks live at one step (a block is
// live from its start to its end, inclusive): when no interval fell
// back, that is LowerBound of the intervals, found on the way. (It never
// passes the pool end: live blocks do not overlap.)
func FirstFitOrdered(n int, budget int64, item func(k int) (size int64, start, end int), place func(k int, off int64)) (poolEnd, peak int64) {
	st := getFirstFitState()
	poolEnd, peak = st.run(n, budget, item, place)
	putFirstFitState(st, n)
	return poolEnd, peak
}

// run is first-fit over n intervals given in processing order. peak is
// the most bytes of placed blocks live at once, as FirstFitOrdered's.
func (st *firstFitState) run(n int, budget int64, item func(k int) (size int64, start, end int), place func(k int, off int64)) (poolEnd, peak int64) {
	free := &st.free
	free.reset(n)
	blocks := st.live[:0]
	expired := st.expired[:0]
	seq := 0
	var live int64 // bytes of the blocks in live
	for k := range n {
		size, start, end := item(k)
		expired = expired[:0]
		for blocks.Len() > 0 && blocks[0].end < start {
			b := blocks.pop()
			live -= b.size
			expired = append(expired, b)
		}
		if len(expired) > 1 {
			sortBySeq(expired)
		}
		for _, b := range expired {
			free.push(b.off, b.size)
		}
		slot := free.firstAtLeast(size)
		var off int64
		if slot >= 0 {
			off = free.off(slot)
			rest := free.size(slot) - size
			free.take(slot)
			if rest > 0 {
				free.push(off+size, rest)
			}
		} else {
			if size > budget-poolEnd {
				place(k, -1)
				continue
			}
			off = poolEnd
			poolEnd += size
		}
		place(k, off)
		blocks.push(liveBlock{end: end, seq: seq, off: off, size: size})
		live += size
		peak = max(peak, live)
		seq++
	}
	st.live, st.expired = blocks, expired
	return poolEnd, peak
}

// firstFitState is FirstFit's working memory, kept between calls (and
// shared safely by concurrent ones) so that planning a thousand bundles
// does not allocate a thousand free lists.
type firstFitState struct {
	order, pos []int
	free       slotTree
	live       endHeap
	expired    []liveBlock
}

var firstFitPool = sync.Pool{New: func() any { return new(firstFitState) }}

func getFirstFitState() *firstFitState { return firstFitPool.Get().(*firstFitState) }

// putFirstFitState keeps st for the next call, unless it was grown for a
// huge bundle (n intervals): that is left to the collector rather than
// kept alive for small ones.
func putFirstFitState(st *firstFitState, n int) {
	if n <= maxPooled {
		firstFitPool.Put(st)
	}
}

// maxPooled is the most intervals a call may have for its state to be
// kept for the next (about 6 MiB of state).
const maxPooled = 1 << 16

// liveBlock is a placed block waiting for its interval to end.
type liveBlock struct {
	end       int
	seq       int // allocation order
	off, size int64
}

// liveHeap is a binary min-heap of placed blocks by (end, seq). It is
// typed rather than built on container/heap so that pushing and popping
// do not box every block into an interface.
type liveHeap []liveBlock

func (h liveHeap) Len() int { return len(h) }

func (h liveHeap) less(i, j int) bool {
	if h[i].end != h[j].end {
		return h[i].end < h[j].end
	}
	return h[i].seq < h[j].seq
}

func (h *liveHeap) push(b liveBlock) {
	*h = append(*h, b)
	s := *h
	for i := len(s) - 1; i > 0; {
		parent := (i - 1) / 2
		if !s.less(i, parent) {
			break
		}
		s[i], s[parent] = s[parent], s[i]
		i = parent
	}
}

func (h *liveHeap) pop() liveBlock {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s = s[:last]
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(s) && s.less(l, m) {
			m = l
		}
		if r < len(s) && s.less(r, m) {
			m = r
		}
		if m == i {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	*h = s
	return top
}

// endHeap is first-fit's heap of placed blocks: a 4-ary min-heap by end
// alone. A step's expired blocks are sorted by allocation order after
// they come off it, so the order among equal ends does not matter, and
// four children a node make it half as deep as a binary heap.
type endHeap []liveBlock

func (h endHeap) Len() int { return len(h) }

func (h *endHeap) push(b liveBlock) {
	*h = append(*h, b)
	s := *h
	i := len(s) - 1
	for i > 0 {
		parent := (i - 1) >> 2
		if s[parent].end <= b.end {
			break
		}
		s[i] = s[parent]
		i = parent
	}
	s[i] = b
}

func (h *endHeap) pop() liveBlock {
	s := *h
	top := s[0]
	last := len(s) - 1
	x := s[last]
	s = s[:last]
	*h = s
	n := len(s)
	if n == 0 {
		return top
	}
	i := 0
	for {
		c := 4*i + 1
		if c >= n {
			break
		}
		m := c
		for j := c + 1; j < min(c+4, n); j++ {
			if s[j].end < s[m].end {
				m = j
			}
		}
		if s[m].end >= x.end {
			break
		}
		s[i] = s[m]
		i = m
	}
	s[i] = x
	return top
}

func sortBySeq(bs []liveBlock) {
	// Insertion sort: the batch freed at one step is usually tiny, and
	// when it is not, the heap already yields it nearly in order.
	for i := 1; i < len(bs); i++ {
		for j := i; j > 0 && bs[j].seq < bs[j-1].seq; j-- {
			bs[j], bs[j-1] = bs[j-1], bs[j]
		}
	}
}

// slotTree is the free list: slots in list order, each a block's offset
// and size, under a max segment tree whose leaves are buckets of
// bucketSlots consecutive slots. A taken block leaves a hole, of size -1
// so that no request (not even one of 0 bytes) matches it; once a
// quarter of the slots are holes, the holes are squeezed out (which keeps
// the order of the rest), so the list stays within a third more than the
// free blocks it holds.
//
// The slots live in fixed chunks, so a growing list never copies itself
// (nor holds an old and a new array at once), and the tree holds one
// entry per bucket, not per slot: 16 bytes a slot in all. Every slot at
// or past n in the chunks is a hole.
type slotTree struct {
	chunks []*slotChunk
	n      int     // slots in use
	holes  int     // of them, holes
	cap    int     // leaves (buckets) in the tree, a power of two
	tree   []int64 // tree[1] is the root; bucket b's leaf is tree[cap+b]
}

const (
	hole        = -1
	bucketBits  = 4
	bucketSlots = 1 << bucketBits
	chunkBits   = 10
	chunkSlots  = 1 << chunkBits
	chunkMask   = chunkSlots - 1
	// minSqueeze is the fewest holes worth a squeeze.
	minSqueeze = 256
)

type slotChunk struct {
	off, size [chunkSlots]int64
}

func newSlotChunk() *slotChunk {
	c := new(slotChunk)
	fill(c.size[:])
	return c
}

func (t *slotTree) size(slot int) int64 { return t.chunks[slot>>chunkBits].size[slot&chunkMask] }

func (t *slotTree) off(slot int) int64 { return t.chunks[slot>>chunkBits].off[slot&chunkMask] }

// reset empties the list for n intervals, keeping the arrays. It never
// holds more than 2n slots (each interval frees one block and splits at
// most one), so what was kept from a larger call is cut down to that,
// and only the part in use is cleared.
func (t *slotTree) reset(n int) {
	for slot := 0; slot < t.n; slot += chunkSlots {
		c := t.chunks[slot>>chunkBits]
		fill(c.size[:min(chunkSlots, t.n-slot)])
	}
	t.n, t.holes = 0, 0
	keep := min(len(t.chunks), (2*n+chunkSlots-1)>>chunkBits)
	clear(t.chunks[keep:])
	t.chunks = t.chunks[:keep]
	limit := 4
	for limit*bucketSlots < 2*n {
		limit *= 2
	}
	t.cap = min(t.cap, limit)
	fill(t.tree[:2*t.cap])
}

func fill(s []int64) {
	for i := range s {
		s[i] = hole
	}
}

func (t *slotTree) push(off, size int64) {
	if t.holes >= minSqueeze && 4*t.holes >= t.n {
		t.squeeze()
	}
	slot := t.n
	if slot>>chunkBits == len(t.chunks) {
		t.chunks = append(t.chunks, newSlotChunk())
	}
	if slot>>bucketBits >= t.cap {
		t.grow()
	}
	t.chunks[slot>>chunkBits].off[slot&chunkMask] = off
	t.n++
	t.set(slot, size, hole)
}

// take makes slot a hole.
func (t *slotTree) take(slot int) {
	t.set(slot, hole, t.size(slot))
	t.holes++
}

// squeeze drops the holes, keeping the other slots in order. It walks
// the slots chunk by chunk, and takes each new bucket's largest size as
// it fills the bucket.
func (t *slotTree) squeeze() {
	j := 0 // slots kept so far
	d := t.chunks[0]
	m := int64(hole) // the largest size in the bucket being filled
	for ci := 0; ci<<chunkBits < t.n; ci++ {
		c := t.chunks[ci]
		for x, size := range c.size[:min(chunkSlots, t.n-ci<<chunkBits)] {
			if size == hole {
				continue
			}
			jx := j & chunkMask
			d.off[jx], d.size[jx] = c.off[x], size
			m = max(m, size)
			j++
			if j&(bucketSlots-1) == 0 {
				t.tree[t.cap+(j-1)>>bucketBits] = m
				m = hole
			}
			if j&chunkMask == 0 {
				d = t.chunks[j>>chunkBits]
			}
		}
	}
	if j&(bucketSlots-1) != 0 {
		t.tree[t.cap+j>>bucketBits] = m
	}
	for i := j; i < t.n; i++ {
		t.chunks[i>>chunkBits].size[i&chunkMask] = hole
	}
	// The buckets past the last kept slot's are now all holes.
	used := (j + bucketSlots - 1) >> bucketBits
	fill(t.tree[t.cap+used : t.cap+(t.n+bucketSlots-1)>>bucketBits])
	t.n, t.holes = j, 0
	for i := t.cap - 1; i >= 1; i-- {
		t.tree[i] = max(t.tree[2*i], t.tree[2*i+1])
	}
}

// bucketMax is the largest size in bucket b.
func (t *slotTree) bucketMax(b int) int64 {
	slot := b << bucketBits
	sizes := t.chunks[slot>>chunkBits].size[slot&chunkMask:][:bucketSlots]
	m := sizes[0]
	for _, s := range sizes[1:] {
		m = max(m, s)
	}
	return m
}

// grow doubles the tree's leaves.
func (t *slotTree) grow() {
	nc := 2 * t.cap
	if nc == 0 {
		nc = 4
	}
	// The new leaves [nc, 2*nc) lie past the old tree [0, 2*cap), so a
	// large enough array is reused in place: leaves first, then every
	// inner node bottom-up, which overwrites the old tree.
	nt := t.tree
	if cap(nt) < 2*nc {
		nt = make([]int64, 2*nc)
	}
	nt = nt[:2*nc]
	copy(nt[nc:], t.tree[t.cap:2*t.cap])
	fill(nt[nc+t.cap:])
	for i := nc - 1; i >= 1; i-- {
		nt[i] = max(nt[2*i], nt[2*i+1])
	}
	t.tree, t.cap = nt, nc
}

// set changes slot's size from old to size. The bucket's leaf changes
// only if size passes it, or if old was its largest size and size is
// less: only then is the bucket scanned again.
func (t *slotTree) set(slot int, size, old int64) {
	t.chunks[slot>>chunkBits].size[slot&chunkMask] = size
	b := slot >> bucketBits
	i := t.cap + b
	m := size
	if leaf := t.tree[i]; m < leaf {
		if old < leaf {
			return
		}
		m = t.bucketMax(b)
	}
	for ; i >= 1; i >>= 1 {
		if i < t.cap {
			m = max(t.tree[2*i], t.tree[2*i+1])
		}
		if t.tree[i] == m {
			break
		}
		t.tree[i] = m
	}
}

// firstAtLeast returns the first slot in list order holding at least n
// bytes (n >= 0), or -1. A hole never matches.
func (t *slotTree) firstAtLeast(n int64) int {
	if t.n == 0 || t.tree[1] < n {
		return -1
	}
	i := 1
	for i < t.cap {
		// Left child if it holds enough, else right: written so that
		// the compiler need not branch on it.
		i *= 2
		if t.tree[i] < n {
			i++
		}
	}
	slot := (i - t.cap) << bucketBits
	sizes := t.chunks[slot>>chunkBits].size[slot&chunkMask:][:bucketSlots]
	for j, s := range sizes {
		if s >= n {
			return slot + j
		}
	}
	panic("alloc: slotTree bucket below its leaf")
}

// NaiveFirstFit is FirstFit written as the spec words it, with linear
// scans; it exists to be compared against.
func NaiveFirstFit(items []Interval, budget int64) Result {
	type block struct {
		off, size int64
		end       int
	}
	res := Result{Offsets: make([]int64, len(items))}
	var freeList, allocated []block
	for _, i := range StartOrder(items) {
		it := items[i]
		kept := allocated[:0:0]
		for _, b := range allocated {
			if b.end < it.Start {
				freeList = append(freeList, b)
			} else {
				kept = append(kept, b)
			}
		}
		allocated = kept
		found := -1
		for k, b := range freeList {
			if b.size >= it.Size {
				found = k
				break
			}
		}
		var off int64
		if found >= 0 {
			b := freeList[found]
			freeList = append(freeList[:found:found], freeList[found+1:]...)
			off = b.off
			if b.size > it.Size {
				freeList = append(freeList, block{off: b.off + it.Size, size: b.size - it.Size})
			}
		} else {
			if res.PoolEnd+it.Size > budget {
				res.Offsets[i] = -1
				continue
			}
			off = res.PoolEnd
			res.PoolEnd += it.Size
		}
		res.Offsets[i] = off
		allocated = append(allocated, block{off: off, size: it.Size, end: it.End})
	}
	return res
}
