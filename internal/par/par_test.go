package par

import (
	"sync/atomic"
	"testing"
)

// Every index is visited exactly once, in runs of at most chunk, and
// calls with the same w never overlap.
func TestForChunksCoversOnce(t *testing.T) {
	for _, c := range []struct{ workers, n, chunk int }{
		{1, 0, 1}, {1, 10, 3}, {4, 0, 1}, {4, 1, 5}, {3, 100, 7}, {8, 10, 1}, {2, 1 << 12, 1 << 10},
	} {
		seen := make([]atomic.Int32, c.n)
		busy := make([]atomic.Int32, max(c.workers, 1))
		ForChunks(c.workers, c.n, c.chunk, func(w, lo, hi int) {
			if busy[w].Add(1) != 1 {
				t.Errorf("%+v: two calls with w=%d at once", c, w)
			}
			// One worker alone gets the whole range at once.
			if c.workers > 1 && hi-lo > c.chunk {
				t.Errorf("%+v: run [%d, %d) longer than the chunk", c, lo, hi)
			}
			for i := lo; i < hi; i++ {
				seen[i].Add(1)
			}
			busy[w].Add(-1)
		})
		for i := range seen {
			if n := seen[i].Load(); n != 1 {
				t.Errorf("%+v: index %d visited %d times", c, i, n)
			}
		}
	}
}

// A panic on a worker goroutine reaches the caller's recover.
func TestForChunksPanicReachesCaller(t *testing.T) {
	defer func() {
		if r := recover(); r != "boom" {
			t.Errorf("recovered %v, want boom", r)
		}
	}()
	ForChunks(4, 64, 1, func(w, lo, hi int) {
		if lo == 37 {
			panic("boom")
		}
	})
	t.Error("ForChunks returned")
}
