package alloc

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"
)

// FirstFit (segment tree over the free list, heap of live blocks) must be
// exactly the spec's policy, which NaiveFirstFit spells out with linear
// scans: same offsets, same pool end, same fallbacks.
func TestFirstFitMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for iter := 0; iter < 5000; iter++ {
		n := rng.Intn(80)
		if iter%50 == 0 {
			n = 300 + rng.Intn(300) // long free lists, tree growth
		}
		items := randomItems(rng, n, 1+rng.Intn(60))
		if iter%7 == 0 {
			// Zero-byte intervals take the first free block of any
			// size (and move it to the end of the list), never a
			// block already taken.
			for i := range items {
				if rng.Intn(3) == 0 {
					items[i].Size = 0
				}
			}
		}
		budget := randomBudget(rng, items)
		got := FirstFit(items, budget)
		want := NaiveFirstFit(items, budget)
		if got.PoolEnd != want.PoolEnd || !slices.Equal(got.Offsets, want.Offsets) {
			t.Fatalf("iter %d (n=%d budget=%d): FirstFit %v pool %d, naive %v pool %d\nitems %v",
				iter, n, budget, got.Offsets, got.PoolEnd, want.Offsets, want.PoolEnd, items)
		}
		if err := Check(items, budget, got); err != nil {
			t.Fatalf("iter %d: %v", iter, err)
		}
	}
}

// FirstFit keeps its working memory between calls: calls from several
// goroutines at once, on instances of mixed sizes (so a kept free list is
// now cut down, now grown), must each still give the naive answer.
func TestFirstFitConcurrent(t *testing.T) {
	const workers = 4
	errs := make(chan error, workers)
	for w := range workers {
		go func() {
			rng := rand.New(rand.NewSource(int64(100 + w)))
			for iter := 0; iter < 300; iter++ {
				n := []int{3, 40, 700, 0, 150}[rng.Intn(5)]
				items := randomItems(rng, n, 1+rng.Intn(80))
				budget := randomBudget(rng, items)
				got, want := FirstFit(items, budget), NaiveFirstFit(items, budget)
				if got.PoolEnd != want.PoolEnd || !slices.Equal(got.Offsets, want.Offsets) {
					errs <- fmt.Errorf("worker %d iter %d (n=%d): FirstFit %v pool %d, naive %v pool %d", w, iter, n, got.Offsets, got.PoolEnd, want.Offsets, want.PoolEnd)
					return
				}
			}
			errs <- nil
		}()
	}
	for range workers {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}
