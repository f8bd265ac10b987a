package mlirgen

// seq is an append-only list kept in blocks of seqBlock elements (the
// first grows up to that size), so that a long list grows without copying
// itself: a bundle of a million ops holds millions of declarations and
// map numbers, and a slice's growth would hold the old and the new array
// at once.
type seq[T any] struct {
	blocks [][]T
	n      int
}

const seqBits = 12
const seqBlock = 1 << seqBits

func (s *seq[T]) add(v T) {
	k := s.n >> seqBits
	if k == len(s.blocks) {
		c := seqBlock
		if k == 0 {
			c = 16
		}
		s.blocks = append(s.blocks, make([]T, 0, c))
	}
	s.blocks[k] = append(s.blocks[k], v)
	s.n++
}

func (s *seq[T]) len() int { return s.n }

func (s *seq[T]) at(i int) T { return s.blocks[i>>seqBits][i&(seqBlock-1)] }

// view returns elements [lo, hi) as slices of the blocks that hold them.
// It stays valid while the list grows: no element is written again once
// added (a block that grows is copied, the old array left as it was).
func (s *seq[T]) view(lo, hi int) [][]T {
	var parts [][]T
	for lo < hi {
		k, i := lo>>seqBits, lo&(seqBlock-1)
		n := min(hi-lo, seqBlock-i)
		parts = append(parts, s.blocks[k][i:i+n])
		lo += n
	}
	return parts
}

// cursor reads a view in order.
type cursor[T any] struct{ parts [][]T }

func (c *cursor[T]) next() T {
	for len(c.parts[0]) == 0 {
		c.parts = c.parts[1:]
	}
	v := c.parts[0][0]
	c.parts[0] = c.parts[0][1:]
	return v
}
