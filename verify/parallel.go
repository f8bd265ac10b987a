package verify

import (
	"sync"
	"sync/atomic"
)

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
	if workers == 1 || len(chunks) == 1 {
		for k := range chunks {
			work(c.scratch[0], chunks[k].out, chunks[k].lo, chunks[k].hi)
		}
		return chunks
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	var failed panicked
	for w := range min(workers, len(chunks)) {
		wg.Add(1)
		go func(s *scratch) {
			defer wg.Done()
			defer failed.catch()
			for {
				k := int(next.Add(1) - 1)
				if k >= len(chunks) {
					return
				}
				work(s, chunks[k].out, chunks[k].lo, chunks[k].hi)
			}
		}(c.scratch[w])
	}
	wg.Wait()
	failed.rethrow()
	return chunks
}

// panicked carries a panic of a goroutine the caller waits for to the
// caller, which panics with it (so a bug in a check fails the caller as
// it would without goroutines, and its recover sees it).
type panicked struct {
	once sync.Once
	val  any
	set  atomic.Bool
}

// catch is deferred by the goroutine: it keeps the first panic.
func (p *panicked) catch() {
	if r := recover(); r != nil {
		p.once.Do(func() { p.val = r; p.set.Store(true) })
	}
}

// rethrow is called by the caller once the goroutines are done.
func (p *panicked) rethrow() {
	if p.set.Load() {
		panic(p.val)
	}
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

// grow returns s resized to n elements, all zero, reusing its array when
// it is big enough.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}
