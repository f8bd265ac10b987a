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
