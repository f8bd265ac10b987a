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
	st := firstFitPool.Get().(*firstFitState)
	if len(items) <= maxPooled {
		// A state grown for a huge bundle is left to the collector
		// rather than kept alive for small ones.
		defer firstFitPool.Put(st)
	}
	st.order, st.pos = appendStartOrder(st.order[:0], st.pos, items)
	free := &st.free
	free.reset(len(items))
	live := st.live[:0]
	expired := st.expired[:0]
	seq := 0
	for _, i := range st.order {
		it := items[i]
		expired = expired[:0]
		for live.Len() > 0 && live[0].end < it.Start {
			expired = append(expired, live.pop())
		}
		if len(expired) > 1 {
			sortBySeq(expired)
		}
		for _, b := range expired {
			free.push(b.off, b.size)
		}
		slot := free.firstAtLeast(it.Size)
		var off int64
		if slot >= 0 {
			off = free.off[slot]
			rest := free.size(slot) - it.Size
			free.take(slot)
			if rest > 0 {
				free.push(off+it.Size, rest)
			}
		} else {
			if it.Size > budget-res.PoolEnd {
				res.Offsets[i] = -1
				continue
			}
			off = res.PoolEnd
			res.PoolEnd += it.Size
		}
		res.Offsets[i] = off
		live.push(liveBlock{end: it.End, seq: seq, off: off, size: it.Size})
		seq++
	}
	st.live, st.expired = live, expired
	return res
}

// firstFitState is FirstFit's working memory, kept between calls (and
// shared safely by concurrent ones) so that planning a thousand bundles
// does not allocate a thousand free lists.
type firstFitState struct {
	order, pos []int
	free       slotTree
	live       liveHeap
	expired    []liveBlock
}

var firstFitPool = sync.Pool{New: func() any { return new(firstFitState) }}

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

func sortBySeq(bs []liveBlock) {
	// Insertion sort: the batch freed at one step is usually tiny, and
	// when it is not, the heap already yields it nearly in order.
	for i := 1; i < len(bs); i++ {
		for j := i; j > 0 && bs[j].seq < bs[j-1].seq; j-- {
			bs[j], bs[j-1] = bs[j-1], bs[j]
		}
	}
}

// slotTree is the free list: slots in list order under a max segment
// tree of sizes. A taken block leaves a hole, of size -1 so that no
// request (not even one of 0 bytes) matches it; when the slots run out
// and at least half are holes, the holes are squeezed out (which keeps
// the order of the rest) instead of the tree growing, so the tree stays
// about as large as the free list, not as the number of frees.
type slotTree struct {
	off   []int64
	n     int     // slots in use
	holes int     // of them, holes
	cap   int     // leaves in the tree, a power of two
	tree  []int64 // tree[1] is the root; leaves at [cap, 2*cap)
}

const hole = -1

func (t *slotTree) size(slot int) int64 { return t.tree[t.cap+slot] }

// reset empties the list for n intervals, keeping the arrays. It never
// holds more than 2n slots (each interval frees one block and splits at
// most one), so a tree kept from a larger call is cut down to that, and
// only the part in use is cleared.
func (t *slotTree) reset(n int) {
	t.n, t.holes = 0, 0
	t.off = t.off[:0]
	limit := 64
	for limit < 2*n {
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
	if t.n == t.cap {
		if t.n > 0 && 2*t.holes >= t.n {
			t.squeeze()
		} else {
			t.grow()
		}
	}
	t.off = append(t.off, off)
	t.set(t.n, size)
	t.n++
}

// take makes slot a hole.
func (t *slotTree) take(slot int) {
	t.set(slot, hole)
	t.holes++
}

// squeeze drops the holes, keeping the other slots in order.
func (t *slotTree) squeeze() {
	leaves := t.tree[t.cap : 2*t.cap]
	j := 0
	for i := 0; i < t.n; i++ {
		if leaves[i] != hole {
			leaves[j], t.off[j] = leaves[i], t.off[i]
			j++
		}
	}
	fill(leaves[j:t.n])
	t.n, t.holes, t.off = j, 0, t.off[:j]
	for i := t.cap - 1; i >= 1; i-- {
		t.tree[i] = max(t.tree[2*i], t.tree[2*i+1])
	}
}

func (t *slotTree) grow() {
	nc := 2 * t.cap
	if nc == 0 {
		nc = 64
	}
	// The new leaves [nc, nc+n) lie past the old tree [0, 2*cap), so a
	// large enough array is reused in place: leaves first, then every
	// inner node bottom-up, which overwrites the old tree.
	nt := t.tree
	if cap(nt) < 2*nc {
		nt = make([]int64, 2*nc)
	}
	nt = nt[:2*nc]
	copy(nt[nc:], t.tree[t.cap:t.cap+t.n])
	fill(nt[nc+t.n:])
	for i := nc - 1; i >= 1; i-- {
		nt[i] = max(nt[2*i], nt[2*i+1])
	}
	t.tree, t.cap = nt, nc
}

func (t *slotTree) set(slot int, size int64) {
	i := t.cap + slot
	t.tree[i] = size
	for i >>= 1; i >= 1; i >>= 1 {
		m := max(t.tree[2*i], t.tree[2*i+1])
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
	return i - t.cap
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
