package alloc

// pairSet is an ordered set of (a, b) int64 pairs, compared
// lexicographically: a treap over index-linked nodes. best-fit keeps its
// free blocks in two of them (by offset, to coalesce neighbours, and by
// size, to find the best fit) so each step is O(log n) however long the
// free list grows; Go's standard library has no ordered map to use instead.
// Priorities come from a fixed xorshift sequence, so shapes (and thus run
// time) are reproducible; results never depend on the shape.
type pairSet struct {
	nodes []pairNode
	root  int32
	free  []int32
	rng   uint64
	n     int
}

type pair struct{ a, b int64 }

func (p pair) less(q pair) bool { return p.a < q.a || (p.a == q.a && p.b < q.b) }

type pairNode struct {
	key         pair
	prio        uint64
	left, right int32
}

const nilNode int32 = -1

func newPairSet() *pairSet {
	return &pairSet{root: nilNode, rng: 0x9E3779B97F4A7C15}
}

func (s *pairSet) Len() int { return s.n }

func (s *pairSet) newNode(k pair) int32 {
	s.rng ^= s.rng << 13
	s.rng ^= s.rng >> 7
	s.rng ^= s.rng << 17
	nd := pairNode{key: k, prio: s.rng, left: nilNode, right: nilNode}
	if len(s.free) > 0 {
		i := s.free[len(s.free)-1]
		s.free = s.free[:len(s.free)-1]
		s.nodes[i] = nd
		return i
	}
	s.nodes = append(s.nodes, nd)
	return int32(len(s.nodes) - 1)
}

// split divides t into keys < k and keys >= k.
func (s *pairSet) split(t int32, k pair) (int32, int32) {
	if t == nilNode {
		return nilNode, nilNode
	}
	if s.nodes[t].key.less(k) {
		l, r := s.split(s.nodes[t].right, k)
		s.nodes[t].right = l
		return t, r
	}
	l, r := s.split(s.nodes[t].left, k)
	s.nodes[t].left = r
	return l, t
}

func (s *pairSet) merge(l, r int32) int32 {
	if l == nilNode {
		return r
	}
	if r == nilNode {
		return l
	}
	if s.nodes[l].prio > s.nodes[r].prio {
		s.nodes[l].right = s.merge(s.nodes[l].right, r)
		return l
	}
	s.nodes[r].left = s.merge(l, s.nodes[r].left)
	return r
}

// Insert adds k (which must not be present).
func (s *pairSet) Insert(k pair) {
	nd := s.newNode(k)
	l, r := s.split(s.root, k)
	s.root = s.merge(s.merge(l, nd), r)
	s.n++
}

// Delete removes k if present.
func (s *pairSet) Delete(k pair) {
	var parent int32 = nilNode
	t := s.root
	for t != nilNode && s.nodes[t].key != k {
		parent = t
		if k.less(s.nodes[t].key) {
			t = s.nodes[t].left
		} else {
			t = s.nodes[t].right
		}
	}
	if t == nilNode {
		return
	}
	m := s.merge(s.nodes[t].left, s.nodes[t].right)
	switch {
	case parent == nilNode:
		s.root = m
	case s.nodes[parent].left == t:
		s.nodes[parent].left = m
	default:
		s.nodes[parent].right = m
	}
	s.free = append(s.free, t)
	s.n--
}

// Ceil returns the smallest key >= k.
func (s *pairSet) Ceil(k pair) (pair, bool) {
	var best pair
	found := false
	for t := s.root; t != nilNode; {
		if s.nodes[t].key.less(k) {
			t = s.nodes[t].right
		} else {
			best, found = s.nodes[t].key, true
			t = s.nodes[t].left
		}
	}
	return best, found
}

// Floor returns the largest key <= k.
func (s *pairSet) Floor(k pair) (pair, bool) {
	var best pair
	found := false
	for t := s.root; t != nilNode; {
		if k.less(s.nodes[t].key) {
			t = s.nodes[t].left
		} else {
			best, found = s.nodes[t].key, true
			t = s.nodes[t].right
		}
	}
	return best, found
}
