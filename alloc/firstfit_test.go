package alloc

import (
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
