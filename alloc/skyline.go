package alloc

import (
	"cmp"
	"math"
	"slices"
	"sort"
)

// skylineDive is best's main constructive heuristic: the first descent
// of a MiniMalloc-style canonical search, without backtracking. Buffers
// are placed bottom-up; each goes exactly on top of the placed buffers it
// overlaps (never into a hole below them), and the next one is always the
// buffer that can sit lowest, ties going to the one ranked first (rank is
// a permutation of item indices; lower is earlier).
//
// Computed naively that is O(conflicting pairs · log n), far too slow for
// traces with 10^5 buffers and 10^8 conflicting pairs, so it is computed
// as valley filling over the skyline (the height of the pool at each
// position): take the lowest valley (a maximal run of positions at the
// minimum height);
// the buffers that can sit at that height are exactly those lying inside
// the valley; place the first ranked of them, or, when none fits, raise
// the valley to its lower wall, since nothing can ever be placed in it
// below that, or, when no unplaced buffer covers it at all, retire it for
// good. Valleys at the same height do not interact, so taking the leftmost
// first changes nothing. Each step is polylogarithmic, and there are at
// most about 3n of them: every placement adds at most two skyline steps,
// every raise or retirement removes one.
//
// Over budget: a buffer whose top would pass the budget at its turn falls
// back (offset -1); it is dropped without raising the skyline, so the
// others are placed as if it did not exist. stop is polled every few
// hundred steps; when it returns true the dive gives up (ok=false).
func skylineDive(items []Interval, tl *timeline, rank []int32, budget int64, stop func() bool) (Result, bool) {
	n := len(items)
	res := Result{Offsets: make([]int64, n)}
	P := tl.positions()
	if n == 0 || P == 0 {
		return res, true
	}
	sky := newSkyTree(P)
	dom := newDomTree(tl, rank)
	cover := make(fenwick, P+1) // unplaced buffers covering each position
	for i := range items {
		cover.add(int(tl.lo[i]), 1)
		cover.add(int(tl.hi[i]), -1)
	}
	left := n
	for steps := 0; left > 0; steps++ {
		if stop != nil && steps&255 == 255 && stop() {
			return res, false
		}
		L, p := sky.min()
		a := sky.lastAbove(p, L) + 1
		b := sky.firstAbove(p, L, P)
		c := dom.query(int32(a), int32(b))
		if c < 0 {
			// A buffer meeting the valley but not inside it crosses a
			// wall, so it covers the first or the last position of the
			// valley; when none does, nothing will ever go here.
			if cover.sum(a) == 0 && cover.sum(b-1) == 0 {
				sky.assign(a, b, skyDead)
				continue
			}
			hl, hr := int64(skyDead), int64(skyDead)
			if a > 0 {
				hl = sky.get(a - 1)
			}
			if b < P {
				hr = sky.get(b)
			}
			// Nothing can go in the valley below its lower wall. (A
			// buffer covering it crosses a wall, so that wall is a
			// real height.)
			sky.assign(a, b, min(hl, hr))
			continue
		}
		left--
		dom.remove(c)
		lo, hi := int(tl.lo[c]), int(tl.hi[c])
		cover.add(lo, -1)
		cover.add(hi, 1)
		top := L + items[c].Size
		if items[c].Size > budget-L {
			res.Offsets[c] = -1
		} else {
			res.Offsets[c] = L
			res.PoolEnd = max(res.PoolEnd, top)
			sky.assign(lo, hi, top)
		}
	}
	return res, true
}

// skyDead is the height of retired positions (no unplaced buffer covers
// them) and of the padding past the last position: walls valleys never
// cross.
const skyDead = math.MaxInt64

// fenwick is a Fenwick tree of counts: add at a position, prefix sums.
// With +1 at lo and -1 at hi per buffer, sum(p) counts the buffers
// covering p.
type fenwick []int32

func (f fenwick) add(p int, d int32) {
	for p++; p < len(f); p += p & -p {
		f[p] += d
	}
}

// sum returns the total added at positions 0..p.
func (f fenwick) sum(p int) int32 {
	var t int32
	for p++; p > 0; p -= p & -p {
		t += f[p]
	}
	return t
}

// skyTree is a segment tree over positions holding heights, with range
// assignment and min/max per node, to find the lowest valley and its
// walls in O(log P).
type skyTree struct {
	size   int
	mn, mx []int64
	tag    []int64 // pending assignment; -1 for none
}

func newSkyTree(n int) *skyTree {
	s := 1
	for s < n {
		s *= 2
	}
	t := &skyTree{size: s, mn: make([]int64, 2*s), mx: make([]int64, 2*s), tag: make([]int64, 2*s)}
	for i := range t.tag {
		t.tag[i] = -1
	}
	// Padding leaves are dead so they never form a valley.
	for i := s + n; i < 2*s; i++ {
		t.mn[i], t.mx[i] = skyDead, skyDead
	}
	for i := s - 1; i >= 1; i-- {
		t.mn[i] = min(t.mn[2*i], t.mn[2*i+1])
		t.mx[i] = max(t.mx[2*i], t.mx[2*i+1])
	}
	return t
}

func (t *skyTree) apply(x int, v int64) {
	t.mn[x], t.mx[x] = v, v
	if x < t.size {
		t.tag[x] = v
	}
}

func (t *skyTree) push(x int) {
	if v := t.tag[x]; v >= 0 {
		t.apply(2*x, v)
		t.apply(2*x+1, v)
		t.tag[x] = -1
	}
}

func (t *skyTree) assign(l, r int, v int64) { t.assignRec(1, 0, t.size, l, r, v) }

func (t *skyTree) assignRec(x, lo, hi, l, r int, v int64) {
	if r <= lo || hi <= l {
		return
	}
	if l <= lo && hi <= r {
		t.apply(x, v)
		return
	}
	t.push(x)
	m := (lo + hi) / 2
	t.assignRec(2*x, lo, m, l, r, v)
	t.assignRec(2*x+1, m, hi, l, r, v)
	t.mn[x] = min(t.mn[2*x], t.mn[2*x+1])
	t.mx[x] = max(t.mx[2*x], t.mx[2*x+1])
}

// min returns the lowest height and its leftmost position.
func (t *skyTree) min() (int64, int) {
	x := 1
	for x < t.size {
		t.push(x)
		if t.mn[2*x] <= t.mn[2*x+1] {
			x = 2 * x
		} else {
			x = 2*x + 1
		}
	}
	return t.mn[x], x - t.size
}

func (t *skyTree) get(p int) int64 {
	x, lo, hi := 1, 0, t.size
	for x < t.size {
		t.push(x)
		m := (lo + hi) / 2
		if p < m {
			x, hi = 2*x, m
		} else {
			x, lo = 2*x+1, m
		}
	}
	return t.mn[x]
}

// lastAbove returns the last position before p whose height exceeds h,
// or -1.
func (t *skyTree) lastAbove(p int, h int64) int {
	return t.lastAboveRec(1, 0, t.size, p, h)
}

func (t *skyTree) lastAboveRec(x, lo, hi, p int, h int64) int {
	if lo >= p || t.mx[x] <= h {
		return -1
	}
	if hi-lo == 1 {
		return lo
	}
	t.push(x)
	m := (lo + hi) / 2
	if r := t.lastAboveRec(2*x+1, m, hi, p, h); r >= 0 {
		return r
	}
	return t.lastAboveRec(2*x, lo, m, p, h)
}

// firstAbove returns the first position after p whose height exceeds h,
// or n.
func (t *skyTree) firstAbove(p int, h int64, n int) int {
	if r := t.firstAboveRec(1, 0, t.size, p, h); r >= 0 && r < n {
		return r
	}
	return n
}

func (t *skyTree) firstAboveRec(x, lo, hi, p int, h int64) int {
	if hi <= p+1 || t.mx[x] <= h {
		return -1
	}
	if hi-lo == 1 {
		return lo
	}
	t.push(x)
	m := (lo + hi) / 2
	if r := t.firstAboveRec(2*x, lo, m, p, h); r >= 0 {
		return r
	}
	return t.firstAboveRec(2*x+1, m, hi, p, h)
}

// domTree finds, among the buffers not yet removed, the first ranked one
// with lo >= a and hi <= b (a buffer lying inside [a, b)): a merge-sort
// tree over buffers in lo order whose nodes keep their buffers in hi
// order under a min-tree of ranks, so a query is O(log² n) and a removal
// O(log² n).
type domTree struct {
	n      int
	size   int
	levels int
	los    []int32   // lo of the buffer at each lo-order index
	hiLv   [][]int32 // per level: hi values, node-wise sorted
	rankLv [][]int32 // per level: per node min-tree over ranks (2w slots per node)
	pos    []int32   // buffer b's index inside its node at level h: pos[b*levels+h]
	orderK []int32   // buffer -> lo-order index
	byRank []int32
}

const noRank = math.MaxInt32

func newDomTree(tl *timeline, rank []int32) *domTree {
	n := len(rank)
	d := &domTree{n: n, byRank: make([]int32, n), orderK: make([]int32, n)}
	for i, r := range rank {
		d.byRank[r] = int32(i)
	}
	d.size = 1
	for d.size < n {
		d.size *= 2
	}
	byLo := make([]int32, n)
	for i := range byLo {
		byLo[i] = int32(i)
	}
	slices.SortFunc(byLo, func(a, b int32) int {
		if c := cmp.Compare(tl.lo[a], tl.lo[b]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	d.los = make([]int32, n)
	for k, b := range byLo {
		d.los[k] = tl.lo[b]
		d.orderK[b] = int32(k)
	}
	for w := 1; ; w *= 2 {
		d.levels++
		if w >= d.size {
			break
		}
	}
	d.hiLv = make([][]int32, d.levels)
	d.rankLv = make([][]int32, d.levels)
	d.pos = make([]int32, n*d.levels)
	// Level h groups lo-order indices into nodes of width 2^h; within a
	// node, buffers are kept in hi order.
	ids := make([]int32, d.size)
	for k := range ids {
		if k < n {
			ids[k] = byLo[k]
		} else {
			ids[k] = -1
		}
	}
	tmp := make([]int32, d.size)
	for h := 0; h < d.levels; h++ {
		w := 1 << h
		if h > 0 {
			// Merge pairs of child runs by hi.
			half := w / 2
			for kl := 0; kl < d.size; kl += w {
				a, b, o := kl, kl+half, kl
				ea, eb := kl+half, kl+w
				for a < ea || b < eb {
					if b >= eb || (a < ea && hiOf(tl, ids[a]) <= hiOf(tl, ids[b])) {
						tmp[o] = ids[a]
						a++
					} else {
						tmp[o] = ids[b]
						b++
					}
					o++
				}
			}
			ids, tmp = tmp, ids
		}
		hv := make([]int32, d.size)
		rt := make([]int32, 2*d.size)
		for kl := 0; kl < d.size; kl += w {
			base := 2 * kl
			for i := 0; i < w; i++ {
				b := ids[kl+i]
				if b < 0 {
					hv[kl+i] = math.MaxInt32
					rt[base+w+i] = noRank
					continue
				}
				hv[kl+i] = tl.hi[b]
				rt[base+w+i] = rank[b]
				d.pos[int(b)*d.levels+h] = int32(i)
			}
			for j := w - 1; j >= 1; j-- {
				rt[base+j] = min(rt[base+2*j], rt[base+2*j+1])
			}
		}
		d.hiLv[h], d.rankLv[h] = hv, rt
	}
	return d
}

// hiOf orders padding (-1) last.
func hiOf(tl *timeline, b int32) int32 {
	if b < 0 {
		return math.MaxInt32
	}
	return tl.hi[b]
}

// query returns the first-ranked remaining buffer inside [a, b), or -1.
func (d *domTree) query(a, b int32) int {
	k0 := sort.Search(d.n, func(k int) bool { return d.los[k] >= a })
	best := int32(noRank)
	// Canonical nodes of [k0, size) in a bottom-up walk.
	l, r := k0+d.size, 2*d.size
	for h := 0; l < r; h++ {
		if l&1 == 1 {
			best = min(best, d.nodeQuery(h, (l<<h)-d.size, b))
			l++
		}
		if r&1 == 1 {
			r--
			best = min(best, d.nodeQuery(h, (r<<h)-d.size, b))
		}
		l >>= 1
		r >>= 1
	}
	if best == noRank {
		return -1
	}
	return int(d.byRank[best])
}

// nodeQuery returns the least rank among the node's buffers with hi <= b;
// the node covers lo-order indices [kl, kl+2^h).
func (d *domTree) nodeQuery(h, kl int, b int32) int32 {
	w := 1 << h
	hv := d.hiLv[h][kl : kl+w]
	j := sort.Search(w, func(i int) bool { return hv[i] > b })
	if j == 0 {
		return noRank
	}
	rt := d.rankLv[h][2*kl : 2*kl+2*w]
	res := int32(noRank)
	lo, hi := w, w+j
	for lo < hi {
		if lo&1 == 1 {
			res = min(res, rt[lo])
			lo++
		}
		if hi&1 == 1 {
			hi--
			res = min(res, rt[hi])
		}
		lo >>= 1
		hi >>= 1
	}
	return res
}

func (d *domTree) remove(b int) {
	k := int(d.orderK[b])
	for h := 0; h < d.levels; h++ {
		w := 1 << h
		kl := (k >> h) << h
		rt := d.rankLv[h][2*kl : 2*kl+2*w]
		j := w + int(d.pos[b*d.levels+h])
		gone := rt[j]
		rt[j] = noRank
		// Ancestors change only while the removed rank was their minimum.
		for j >>= 1; j >= 1 && rt[j] == gone; j >>= 1 {
			rt[j] = min(rt[2*j], rt[2*j+1])
		}
	}
}
