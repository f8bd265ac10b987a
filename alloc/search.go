package alloc

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// This file is best's complete search, in the spirit of MiniMalloc
// (Moffitt, ASPLOS 2023): a depth-first search over canonical solutions
// that decides whether a group of buffers fits under a capacity C.
//
//   - Canonical placements. Any packing can be pushed down until every
//     buffer rests on a buffer it overlaps or on 0; listing that packing by
//     (offset, preorder rank), each buffer's offset is then the highest top
//     among the buffers listed before it that it overlaps. So the search
//     only ever places the next buffer at that height (its "min offset"),
//     in strictly increasing (offset, rank) order: nothing is lost and no
//     packing is visited twice.
//   - Section lower bounds. Sections are the maximal cliques of the
//     interval graph (positions where a buffer starts and one ends); all
//     buffers of a section are pairwise live together, so the unplaced ones
//     stack above both the lowest of their min offsets and the current
//     offset (later placements never go lower): that height plus the
//     section's unplaced bytes must fit under C.
//   - Dominance. Placing a buffer at or above the lowest top some unplaced
//     buffer y could reach (its min offset + size) would push y above it
//     for good, though y fits entirely below; any completion of that
//     stays valid with y moved down to its min offset, and that packing
//     belongs to the branch placing y first. So such a placement is
//     skipped.
//   - "Hatless" buffers. A buffer that no unplaced buffer overlaps can sit
//     at its min offset in any completion, so once its branch fails the
//     branches after it at this node need not be tried.
//   - Decomposition. When the last buffer spanning a section boundary is
//     placed, the two sides no longer interact and are solved separately,
//     so a failure on one side does not re-enumerate the other.
//
// The search is deterministic: it stops on success, on exhausting the
// tree (a proof that C is infeasible), after a node budget, or when stop
// returns true (polled every 256 nodes). Only the last can depend on time:
// stop is the caller's (Options.Stop; internal/deadline for --search-time).
// decideAll runs several preorderings in parallel without giving up that
// determinism (see race).

// searchProblem is one group of buffers (a static partition of the
// instance) prepared for the search; buffers are indexed 0..m-1.
type searchProblem struct {
	m        int
	orig     []int // buffer -> item index
	size     []int64
	slo, shi []int32 // sections covered: [slo, shi)
	nsec     int
	adjOff   []int32 // CSR adjacency: neighbours of b are adj[adjOff[b]:adjOff[b+1]]
	adj      []int32
	secTotal []int64 // bytes per section
	secOff   []int32 // CSR: buffers of section s are secBuf[secOff[s]:secOff[s+1]]
	secBuf   []int32
	cuts     []int32 // buffers spanning each boundary s|s+1
	lb       int64   // max section total
	// Static preordering keys.
	area, width []int64
}

// newSearchProblem builds the problem for items idx (a union of whole
// components of the interval graph, or any subset) on timeline tl. It
// returns nil when the conflict graph has more than maxPairs edges, which
// would make the search's adjacency too large to be worth building.
func newSearchProblem(items []Interval, tl *timeline, idx []int, maxPairs int) *searchProblem {
	m := len(idx)
	p := &searchProblem{m: m, orig: slices.Clone(idx), size: make([]int64, m)}
	// Buffers in lo order, to find sections and conflicts by a sweep.
	byLo := make([]int32, m)
	for b := range byLo {
		byLo[b] = int32(b)
	}
	lo := func(b int32) int32 { return tl.lo[idx[b]] }
	hi := func(b int32) int32 { return tl.hi[idx[b]] }
	slices.SortFunc(byLo, func(a, b int32) int {
		if c := cmp.Compare(lo(a), lo(b)); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	for b := 0; b < m; b++ {
		p.size[b] = items[idx[b]].Size
	}
	// Sections: positions where some buffer starts and some buffer ends;
	// the buffers live there form a maximal clique (any other position
	// misses the one starting or the one ending), and every clique of
	// live-together buffers lies inside one of them.
	starts := map[int32]bool{}
	for b := 0; b < m; b++ {
		starts[lo(int32(b))] = true
	}
	var secPos []int32
	for b := 0; b < m; b++ {
		if q := hi(int32(b)) - 1; starts[q] {
			secPos = append(secPos, q)
		}
	}
	slices.Sort(secPos)
	secPos = slices.Compact(secPos)
	p.nsec = len(secPos)
	p.slo, p.shi = make([]int32, m), make([]int32, m)
	p.secTotal = make([]int64, p.nsec)
	p.cuts = make([]int32, max(p.nsec-1, 0))
	for b := 0; b < m; b++ {
		l, h := lo(int32(b)), hi(int32(b))
		s0 := sort.Search(len(secPos), func(i int) bool { return secPos[i] >= l })
		s1 := sort.Search(len(secPos), func(i int) bool { return secPos[i] >= h })
		p.slo[b], p.shi[b] = int32(s0), int32(s1)
		for s := s0; s < s1; s++ {
			p.secTotal[s] += p.size[b]
		}
		for s := s0; s+1 < s1; s++ {
			p.cuts[s]++
		}
	}
	for _, t := range p.secTotal {
		p.lb = max(p.lb, t)
	}
	p.secOff = make([]int32, p.nsec+1)
	for b := 0; b < m; b++ {
		for s := p.slo[b]; s < p.shi[b]; s++ {
			p.secOff[s+1]++
		}
	}
	for s := 0; s < p.nsec; s++ {
		p.secOff[s+1] += p.secOff[s]
	}
	p.secBuf = make([]int32, p.secOff[p.nsec])
	sfill := slices.Clone(p.secOff[:p.nsec])
	for b := 0; b < m; b++ {
		for s := p.slo[b]; s < p.shi[b]; s++ {
			p.secBuf[sfill[s]] = int32(b)
			sfill[s]++
		}
	}
	// Conflicts: b and c conflict when lo(c) < hi(b) for c after b in lo
	// order.
	deg := make([]int32, m+1)
	pairs := 0
	for x := 0; x < m; x++ {
		b := byLo[x]
		for y := x + 1; y < m && lo(byLo[y]) < hi(b); y++ {
			deg[b]++
			deg[byLo[y]]++
			pairs++
			if pairs > maxPairs {
				return nil
			}
		}
	}
	p.adjOff = make([]int32, m+1)
	for b := 0; b < m; b++ {
		p.adjOff[b+1] = p.adjOff[b] + deg[b]
	}
	p.adj = make([]int32, 2*pairs)
	fill := slices.Clone(p.adjOff[:m])
	for x := 0; x < m; x++ {
		b := byLo[x]
		for y := x + 1; y < m && lo(byLo[y]) < hi(b); y++ {
			c := byLo[y]
			p.adj[fill[b]] = c
			fill[b]++
			p.adj[fill[c]] = b
			fill[c]++
		}
	}
	p.area, p.width = make([]int64, m), make([]int64, m)
	for b := 0; b < m; b++ {
		p.width[b] = int64(tl.times[tl.hi[idx[b]]] - tl.times[tl.lo[idx[b]]])
		p.area[b] = mulSat(p.size[b], p.width[b])
	}
	return p
}

// rankInto ranks bufs under a MiniMalloc-style preordering and writes
// ranks 0, 1, ... into rank: keys are compared in turn, larger first —
// 'W' lifetime width, 'A' area (size × width), 'T' the largest unplaced
// total among the sections the buffer lies in, 'Z' size — then buffer
// index. total gives the current unplaced bytes of a section; scratch
// holds m values.
func (p *searchProblem) rankInto(rank []int32, bufs []int32, keys string, total, scratch []int64) {
	if strings.IndexByte(keys, 'T') >= 0 {
		for _, b := range bufs {
			var t int64
			for sec := p.slo[b]; sec < p.shi[b]; sec++ {
				t = max(t, total[sec])
			}
			scratch[b] = t
		}
	}
	key := func(c byte, b int32) int64 {
		switch c {
		case 'W':
			return p.width[b]
		case 'A':
			return p.area[b]
		case 'T':
			return scratch[b]
		}
		return p.size[b]
	}
	ord := slices.Clone(bufs)
	slices.SortFunc(ord, func(a, b int32) int {
		for i := 0; i < len(keys); i++ {
			if c := cmp.Compare(key(keys[i], b), key(keys[i], a)); c != 0 {
				return c
			}
		}
		return cmp.Compare(a, b)
	})
	for r, b := range ord {
		rank[b] = int32(r)
	}
}

type searchStatus int

const (
	searchNotFound searchStatus = iota // tree exhausted: infeasible
	searchFound
	searchAborted // node budget or stop
)

type searcher struct {
	p      *searchProblem
	C      int64
	keys   string  // preordering heuristic
	rank   []int32 // preorder rank, redone for each group split off
	tkey   []int64 // rankInto's scratch
	off    []int64 // -1 while unplaced
	sol    []int64
	minOff []int64
	total  []int64 // unplaced bytes per section
	cuts   []int32 // unplaced buffers spanning each section boundary
	nodes  int64
	limit  int64
	stop   func() bool
	cands  [][]cand // scratch per depth
	// shared, when set, links searchers running other preorderings of the
	// same decision in parallel; id is this one's index among them.
	shared *race
	id     int
	trail  []minChange
	// startsAt is split's scratch (all false between calls).
	startsAt []bool
	// Scratch for the section checks of one placement: a difference
	// array over sections (all zero between placements), and per
	// section a buffer that last showed its bound holds (a hint only).
	mark    []int32
	witness []int32
}

// minChange is an undo record for minOff.
type minChange struct {
	b int32
	v int64
}

// decide runs the search for capacity C under the preordering keys (see
// rankInto) with a budget of limit nodes. On searchFound, the offsets (by
// the problem's buffer index) are in the returned slice; the last result
// is the number of nodes used.
func (p *searchProblem) decide(C int64, keys string, limit int64, stop func() bool) ([]int64, searchStatus, int64) {
	return p.decideWith(C, keys, limit, stop, nil, 0)
}

// decideWith is decide as one of several searchers of decideAll.
func (p *searchProblem) decideWith(C int64, keys string, limit int64, stop func() bool, shared *race, id int) ([]int64, searchStatus, int64) {
	if p.lb > C {
		return nil, searchNotFound, 0
	}
	s := &searcher{
		p: p, C: C, keys: keys, rank: make([]int32, p.m), tkey: make([]int64, p.m), limit: limit, stop: stop,
		shared: shared, id: id,
		off: make([]int64, p.m), sol: make([]int64, p.m), minOff: make([]int64, p.m),
		total: slices.Clone(p.secTotal), cuts: slices.Clone(p.cuts),
		startsAt: make([]bool, p.nsec), mark: make([]int32, p.nsec+1), witness: make([]int32, p.nsec),
	}
	for b := range s.off {
		s.off[b] = -1
	}
	for sec := range s.witness {
		s.witness[sec] = p.secBuf[p.secOff[sec]]
	}
	all := make([]int32, p.m)
	for b := range all {
		all[b] = int32(b)
	}
	p.rankInto(s.rank, all, keys, s.total, s.tkey)
	st := s.split(0, int32(p.nsec), all, -1, -1, 0)
	if st == searchFound && shared != nil {
		shared.found(s.nodes, id)
	}
	if st == searchFound {
		return s.sol, st, s.nodes
	}
	return nil, st, s.nodes
}

// split solves the buffers bufs (all unplaced, lying in sections
// [s0, s1)) after dividing them at every boundary no unplaced buffer
// spans. A single remaining group keeps the canonical order it was being
// searched in (lastOff, lastRank); separate groups start afresh, which is
// a relaxation, so nothing is lost.
func (s *searcher) split(s0, s1 int32, bufs []int32, lastOff int64, lastRank int32, depth int) searchStatus {
	type group struct{ s0, s1 int32 }
	// Mark the sections where an unplaced buffer starts, then cut the
	// range at every boundary no unplaced buffer spans.
	for _, b := range bufs {
		s.startsAt[s.p.slo[b]] = true
	}
	var groups []group
	start := s0
	seen := false
	for c := s0; c < s1; c++ {
		if s.startsAt[c] {
			seen = true
			s.startsAt[c] = false
		}
		if c+1 < s1 && s.cuts[c] != 0 {
			continue
		}
		if seen {
			groups = append(groups, group{start, c + 1})
		}
		seen = false
		start = c + 1
	}
	switch len(groups) {
	case 0:
		return searchFound
	case 1:
		return s.dfs(groups[0].s0, groups[0].s1, bufs, lastOff, lastRank, depth)
	}
	// Separate groups are searched one after the other, each under its
	// own preordering with the section totals as they are now (as
	// MiniMalloc does for every subproblem).
	for _, g := range groups {
		var part []int32
		for _, b := range bufs {
			if s.p.slo[b] >= g.s0 && s.p.slo[b] < g.s1 {
				part = append(part, b)
			}
		}
		saved := make([]int32, len(part))
		for i, b := range part {
			saved[i] = s.rank[b]
		}
		s.p.rankInto(s.rank, part, s.keys, s.total, s.tkey)
		st := s.dfs(g.s0, g.s1, part, -1, -1, depth)
		for i, b := range part {
			s.rank[b] = saved[i]
		}
		if st != searchFound {
			return st
		}
	}
	return searchFound
}

// dfs extends the current partial packing with the buffers bufs (all
// unplaced, lying in sections [s0, s1)), placed in increasing
// (offset, rank) order after (lastOff, lastRank). It may reorder bufs
// while it runs but restores the order before returning.
//
// The section bound is applied in two halves. Its "monotonic" half —
// every later buffer goes at offset o or above, so o plus a section's
// unplaced bytes must fit under C — caps the next offset at C minus the
// largest unplaced section total, one comparison per candidate. Its
// "floor" half — a section's unplaced buffers all sit at or above the
// lowest of their min offsets — can only become violated in sections
// whose buffers' min offsets just rose or that just lost a buffer, so only
// those are checked, inside place.
func (s *searcher) dfs(s0, s1 int32, bufs []int32, lastOff int64, lastRank int32, depth int) searchStatus {
	s.nodes++
	if s.nodes > s.limit || (s.shared != nil && s.shared.beaten(s.nodes, s.id)) {
		return searchAborted
	}
	if s.stop != nil && s.nodes&255 == 0 && s.stop() {
		s.limit = 0 // make every pending frame unwind too
		return searchAborted
	}
	if len(bufs) == 0 {
		return searchFound
	}
	p := s.p
	var maxTotal int64
	for sec := s0; sec < s1; sec++ {
		maxTotal = max(maxTotal, s.total[sec])
	}
	limit := s.C - maxTotal // highest offset the next placement may take
	for len(s.cands) <= depth {
		s.cands = append(s.cands, nil)
	}
	// One pass: the lowest top any unplaced buffer can reach (placing
	// anything at or above it is dominated), and the buffers that may go
	// next.
	cands := s.cands[depth][:0]
	minHeight := int64(-1)
	for i, b := range bufs {
		o := s.minOff[b]
		h := o + p.size[b]
		if h > s.C {
			return searchNotFound // min offsets only grow: b can never fit
		}
		if minHeight < 0 || h < minHeight {
			minHeight = h
		}
		if o > limit || o < lastOff || (o == lastOff && s.rank[b] < lastRank) {
			continue
		}
		cands = append(cands, cand{b, int32(i)})
	}
	// Lowest first, then by rank (insertion sort: lists are short),
	// dropping the dominated ones.
	k := 0
	for _, c := range cands {
		if s.minOff[c.b] < minHeight {
			cands[k] = c
			k++
		}
	}
	cands = cands[:k]
	for i := 1; i < len(cands); i++ {
		for j := i; j > 0 && s.before(cands[j].b, cands[j-1].b); j-- {
			cands[j], cands[j-1] = cands[j-1], cands[j]
		}
	}
	s.cands[depth] = cands
	last := len(bufs) - 1
	for _, c := range cands {
		b := c.b
		o := s.minOff[b]
		mark := len(s.trail)
		ok, split, hatless := s.place(b, o)
		st := searchNotFound
		if ok {
			// The child sees bufs without b (moved to the end).
			bufs[c.i], bufs[last] = bufs[last], bufs[c.i]
			if split {
				st = s.split(s0, s1, bufs[:last], o, s.rank[b], depth+1)
			} else {
				st = s.dfs(s0, s1, bufs[:last], o, s.rank[b], depth+1)
			}
			bufs[c.i], bufs[last] = bufs[last], bufs[c.i]
		}
		s.unplace(b, mark)
		if st != searchNotFound {
			return st
		}
		if hatless {
			// b could sit at o in any completion (nothing unplaced
			// overlaps it), so the branches after it, whose packings
			// would list b here first, are covered by this failed one.
			break
		}
	}
	return searchNotFound
}

// cand is a buffer that may be placed next and its index in bufs.
type cand struct{ b, i int32 }

func (s *searcher) before(a, b int32) bool {
	if s.minOff[a] != s.minOff[b] {
		return s.minOff[a] < s.minOff[b]
	}
	return s.rank[a] < s.rank[b]
}

// place puts b at o, raising its unplaced neighbours' min offsets, and
// checks the floor half of the section bound where it may have changed.
// It reports whether the placement passed, whether a section boundary
// lost its last spanning buffer (the problem splits), and whether b is
// "hatless": no unplaced buffer overlaps it, so it constrains nothing.
// The caller undoes it with unplace whatever the outcome.
func (s *searcher) place(b int32, o int64) (ok, split, hatless bool) {
	p := s.p
	top := o + p.size[b]
	s.off[b] = o
	s.sol[b] = o
	hatless = true
	// The sections to check: b's own, and those of every neighbour whose
	// min offset rises — a union of section ranges, gathered with a
	// difference array over sections.
	lo, hi := p.slo[b], p.shi[b]
	s.mark[lo]++
	s.mark[hi]--
	for sec := p.slo[b]; sec < p.shi[b]; sec++ {
		s.total[sec] -= p.size[b]
		if sec+1 < p.shi[b] {
			s.cuts[sec]--
			if s.cuts[sec] == 0 {
				split = true
			}
		}
	}
	for _, c := range p.adj[p.adjOff[b]:p.adjOff[b+1]] {
		if s.off[c] >= 0 {
			continue
		}
		hatless = false
		if s.minOff[c] < top {
			s.trail = append(s.trail, minChange{c, s.minOff[c]})
			s.minOff[c] = top
			s.mark[p.slo[c]]++
			s.mark[p.shi[c]]--
			lo, hi = min(lo, p.slo[c]), max(hi, p.shi[c])
		}
	}
	ok = true
	run := int32(0)
	for sec := lo; sec < hi; sec++ {
		run += s.mark[sec]
		s.mark[sec] = 0
		if run == 0 || !ok {
			continue
		}
		t := s.total[sec]
		if t == 0 {
			continue
		}
		// The section's unplaced buffers are pairwise live together, so
		// they stack: the lowest of them must start at or below C - t.
		// The buffer that showed it last time usually still does.
		lim := s.C - t
		if w := s.witness[sec]; s.off[w] < 0 && s.minOff[w] <= lim {
			continue
		}
		ok = false
		for _, c := range p.secBuf[p.secOff[sec]:p.secOff[sec+1]] {
			if s.off[c] < 0 && s.minOff[c] <= lim {
				s.witness[sec] = c
				ok = true
				break
			}
		}
	}
	s.mark[hi] = 0
	return ok, split, hatless
}

func (s *searcher) unplace(b int32, mark int) {
	p := s.p
	for i := len(s.trail) - 1; i >= mark; i-- {
		c := s.trail[i]
		s.minOff[c.b] = c.v
	}
	s.trail = s.trail[:mark]
	for sec := p.slo[b]; sec < p.shi[b]; sec++ {
		s.total[sec] += p.size[b]
		if sec+1 < p.shi[b] {
			s.cuts[sec]++
		}
	}
	s.off[b] = -1
}

// race coordinates searchers that run the same decision under different
// preorderings in parallel, so that the outcome does not depend on
// scheduling: the winner is the searcher that succeeds after the fewest
// nodes of its own (lowest id on ties), and each searcher gives up as soon
// as it can no longer win; a proof of infeasibility by any of them ends
// all (it holds for every preordering).
type race struct {
	best       atomic.Int64 // nodes<<8 | id of the best success; MaxInt64 when none
	infeasible atomic.Bool
}

func (r *race) beaten(nodes int64, id int) bool {
	return r.infeasible.Load() || nodes<<8|int64(id) > r.best.Load()
}

func (r *race) found(nodes int64, id int) {
	v := nodes<<8 | int64(id)
	for {
		old := r.best.Load()
		if v >= old || r.best.CompareAndSwap(old, v) {
			return
		}
	}
}

// decideAll decides capacity C under each preordering of keys at once,
// one goroutine each, with a node budget per preordering. The result is
// the same as running them one after the other and keeping the success
// with the fewest nodes; nodes is that success's node count.
func (p *searchProblem) decideAll(C int64, keys []string, limit int64, stop func() bool) (offs []int64, st searchStatus, nodes int64) {
	if p.lb > C {
		return nil, searchNotFound, 0
	}
	r := &race{}
	r.best.Store(math.MaxInt64)
	type outcome struct {
		offs []int64
		st   searchStatus
		n    int64
	}
	outs := make([]outcome, len(keys))
	var wg sync.WaitGroup
	for id, k := range keys {
		wg.Add(1)
		go func() {
			defer wg.Done()
			offs, st, n := p.decideWith(C, k, limit, stop, r, id)
			if st == searchNotFound {
				r.infeasible.Store(true)
			}
			outs[id] = outcome{offs, st, n}
		}()
	}
	wg.Wait()
	for _, o := range outs {
		if o.st == searchNotFound {
			return nil, searchNotFound, 0
		}
	}
	if b := r.best.Load(); b != math.MaxInt64 {
		return outs[b&0xff].offs, searchFound, b >> 8
	}
	return nil, searchAborted, 0
}
