package verify

import "github.com/sdscgen/sdscgen/internal/par"

// chunk is a run [lo, hi) of indices checked by one worker, with its own
// violation lists (one per kind of check the run makes).
type chunk struct {
	lo, hi int
	out    []checker
}

// forChunks runs work over [0, n) in contiguous chunks, on c.opt.Workers
// goroutines (one when Workers <= 1). Each chunk reports into its own
// lists (lists of them, all copies of c with no violations); mergeList
// then appends them to c in chunk order. A violation list keeps its first
// maxReported messages and counts the rest, so merging the chunks' lists
// in order gives exactly the lists of one sequential run, whatever the
// number of workers and however the indices were cut.
//
// weight, when not nil, is the work of index i (chunks are cut to about
// equal weight); nil weighs every index 1. Each worker has one scratch,
// reused from chunk to chunk and from call to call.
func (c *checker) forChunks(n int, weight func(i int) int, lists int, work func(s *scratch, out []checker, lo, hi int)) []chunk {
	workers := max(1, c.opt.Workers)
	var bounds []int
	if workers == 1 || n <= 1 {
		bounds = []int{0, n}
	} else {
		total := 0
		for i := range n {
			total += wt(weight, i)
		}
		// About eight chunks per worker balance uneven chunks without
		// making many lists to merge.
		target := max(1, total/(8*workers))
		bounds = append(bounds, 0)
		acc := 0
		for i := range n {
			acc += wt(weight, i)
			if acc >= target && i+1 < n {
				bounds = append(bounds, i+1)
				acc = 0
			}
		}
		bounds = append(bounds, n)
	}
	chunks := make([]chunk, len(bounds)-1)
	for k := range chunks {
		ch := &chunks[k]
		ch.lo, ch.hi = bounds[k], bounds[k+1]
		ch.out = make([]checker, lists)
		for l := range ch.out {
			ch.out[l] = *c
			ch.out[l].err = Error{}
		}
	}
	for len(c.scratch) < workers {
		c.scratch = append(c.scratch, new(scratch))
	}
	// One chunk a run; each goroutine w has scratch w.
	par.ForChunks(min(workers, len(chunks)), len(chunks), 1, func(w, lo, hi int) {
		for k := lo; k < hi; k++ {
			work(c.scratch[w], chunks[k].out, chunks[k].lo, chunks[k].hi)
		}
	})
	return chunks
}

func wt(weight func(int) int, i int) int {
	if weight == nil {
		return 1
	}
	return weight(i)
}

// mergeList appends list l of every chunk, in chunk order, to c.
func (c *checker) mergeList(chunks []chunk, l int) {
	for k := range chunks {
		c.merge(&chunks[k].out[l])
	}
}
