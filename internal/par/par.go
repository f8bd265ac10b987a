// Package par runs a loop over [0, n) on a few goroutines, for the
// planner and the verifier (which cut their work on their own and share
// only this loop).
package par

import (
	"sync"
	"sync/atomic"
)

// ForChunks calls f on [0, n) cut into runs of chunk indices, on up to
// workers goroutines (the caller's alone when workers <= 1 or there is
// one run), and returns when every call has. The runs are handed out in
// order as goroutines come free, so uneven runs share out well. f's w is
// the goroutine's number, in [0, max(workers, 1)): calls with the same w
// never overlap, so w can index per-worker scratch.
//
// A panic in f on a goroutine is carried to the caller, which panics
// with the first one once every goroutine is done (as it would have
// without goroutines, so that its recover sees it).
func ForChunks(workers, n, chunk int, f func(w, lo, hi int)) {
	runs := (n + chunk - 1) / chunk
	workers = min(workers, runs)
	if workers <= 1 {
		if n > 0 {
			f(0, 0, n)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	var failed Panicked
	for w := range workers {
		wg.Go(func() {
			defer failed.Catch()
			for {
				r := int(next.Add(1) - 1)
				if r >= runs {
					return
				}
				f(w, r*chunk, min((r+1)*chunk, n))
			}
		})
	}
	wg.Wait()
	failed.Rethrow()
}

// Panicked carries a goroutine's panic to the goroutine that waits for
// it: the goroutine defers Catch, the waiting one calls Rethrow once it
// is done. The zero Panicked is ready.
type Panicked struct {
	once sync.Once
	val  any
	set  atomic.Bool
}

// Catch is deferred by the goroutine: it keeps the first panic.
func (p *Panicked) Catch() {
	if r := recover(); r != nil {
		p.once.Do(func() { p.val = r; p.set.Store(true) })
	}
}

// Rethrow panics with the first panic caught, if any.
func (p *Panicked) Rethrow() {
	if p.set.Load() {
		panic(p.val)
	}
}
