package alloc

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"
)

// allLive returns n buffers all live at step span/2 (random ranges
// around it), a few of them (outliers) not: the shape where every
// buffer's neighbours are all placed buffers.
func allLive(rng *rand.Rand, n, span, outliers int) []Interval {
	items := make([]Interval, n)
	for i := range items {
		s := rng.Intn(span/2 + 1)
		e := span/2 + rng.Intn(span/2+1)
		if i < outliers {
			s = span + rng.Intn(span)
			e = s + rng.Intn(3)
		}
		items[i] = Interval{Name: fmt.Sprintf("b%d", rng.Intn(2*n+1)), Size: int64(1 + rng.Intn(1+rng.Intn(600))), Start: s, End: e}
	}
	rng.Shuffle(n, func(i, j int) { items[i], items[j] = items[j], items[i] })
	return items
}

// TestSizeBestFitCliqueMatchesNaive: the union-of-spans path taken when
// a buffer is live with every placed one makes the naive choices.
func TestSizeBestFitCliqueMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	for iter := 0; iter < 2000; iter++ {
		items := allLive(rng, rng.Intn(60), 2+rng.Intn(20), rng.Intn(3))
		budget := randomBudget(rng, items)
		got, want := SizeBestFit(items, budget), naiveSizeBestFit(items, budget)
		if got.PoolEnd != want.PoolEnd || !slices.Equal(got.Offsets, want.Offsets) {
			t.Fatalf("iter %d budget %d: SizeBestFit %v/%d, naive %v/%d\n%v", iter, budget, got.Offsets, got.PoolEnd, want.Offsets, want.PoolEnd, items)
		}
	}
}

// BenchmarkSizeBestFitAllLive: 50k buffers live at once (25.9 s when each
// gathered and sorted all placed spans; n log n now).
func BenchmarkSizeBestFitAllLive(b *testing.B) {
	items := allLive(rand.New(rand.NewSource(12)), 50000, 1000, 0)
	for b.Loop() {
		SizeBestFit(items, 1<<62)
	}
}
