package alloc

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"
)

// TestDenseAndSortedPathsAgree: StartOrder and LowerBound count over steps
// when the intervals are dense in time and sort otherwise; both paths must
// give the same answer on any input, dense or sparse, with ties on every
// key (equal names included, where input order decides).
func TestDenseAndSortedPathsAgree(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for trial := 0; trial < 3000; trial++ {
		n := 1 + r.Intn(60)
		spread := []int{3, 20, 1000, 1 << 30}[r.Intn(4)]
		base := r.Intn(1000) - 500
		items := make([]Interval, n)
		for i := range items {
			s := base + r.Intn(spread)
			items[i] = Interval{Name: fmt.Sprint("b", r.Intn(8)), Size: int64(r.Intn(5)) * 128,
				Start: s, End: s + r.Intn(min(spread, 50))}
		}
		lo, hi := items[0].Start, items[0].End
		for _, it := range items {
			lo, hi = min(lo, it.Start), max(hi, it.End)
		}
		span := hi - lo + 1
		if _, _, dense := denseSpan(items); dense != (span <= 4*n+64) {
			t.Fatalf("trial %d: denseSpan says %v for span %d over %d items", trial, dense, span, n)
		}
		want := startOrderSorted(items)
		// AppendStartOrder, which appends int32 indices (after a
		// prefix here), gives the same order on either path.
		got32 := AppendStartOrder([]int32{-1}, items)
		if len(got32) != len(want)+1 || got32[0] != -1 {
			t.Fatalf("trial %d: AppendStartOrder gave %v, want -1 then %v", trial, got32, want)
		}
		for k, i := range want {
			if got32[k+1] != int32(i) {
				t.Fatalf("trial %d: AppendStartOrder gave %v, want -1 then %v", trial, got32, want)
			}
		}
		if span > 1<<16 {
			// Too sparse to count over (the public functions sort);
			// still check that they agree with the sorting paths.
			if !slices.Equal(StartOrder(items), want) || LowerBound(items) != lowerBoundSorted(items) {
				t.Fatalf("trial %d: public functions disagree with the sorting paths", trial)
			}
			continue
		}
		if got, _ := startOrderDense[int](nil, nil, items, lo, span); !slices.Equal(got, want) {
			t.Fatalf("trial %d: dense order %v, sorted %v\n%v", trial, got, want, items)
		}
		// Appending after a prefix, with scratch left dirty by an
		// earlier call, gives the prefix then the same order.
		dirty := slices.Repeat([]int{3}, span+7)
		if got, _ := startOrderDense([]int{-1}, dirty, items, lo, span); got[0] != -1 || !slices.Equal(got[1:], want) {
			t.Fatalf("trial %d: appended dense order %v, want -1 then %v", trial, got, want)
		}
		if got, want := lowerBoundDense(items, lo, span), lowerBoundSorted(items); got != want {
			t.Fatalf("trial %d: dense lower bound %d, sorted %d\n%v", trial, got, want, items)
		}
	}
}
