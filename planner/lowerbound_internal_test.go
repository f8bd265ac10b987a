package planner

import (
	"math"
	"math/rand"
	"slices"
	"testing"

	"github.com/sdscgen/sdscgen/alloc"
)

// TestLowerBoundOrderedMatches: the first-fit path's sweep in start order
// (lowerBoundOrdered) gives LowerBound's answer on the same intervals,
// saturation at MaxInt64 included, on random sets: dense and sparse in
// time, with sizes of a few sticks and sizes near 2^62 whose sums wrap an
// int64. (The verifier re-derives the bound on every plan; this holds the
// two planner forms to each other where the verifier's graphs cannot
// reach, the saturated sums.)
func TestLowerBoundOrderedMatches(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	var sc scratch
	saturated := 0
	for trial := range 3000 {
		n := 1 + r.Intn(40)
		span := 1 + r.Intn(60)
		items := make([]alloc.Interval, n)
		for i := range items {
			start := r.Intn(span)
			size := int64(128 * (1 + r.Intn(8)))
			if trial%3 == 0 && r.Intn(4) == 0 {
				size = 1<<62 + int64(128*r.Intn(4))
			}
			items[i] = alloc.Interval{Size: size, Start: start, End: start + r.Intn(span/2+1)}
		}
		want := LowerBound(items)
		if want == math.MaxInt64 {
			saturated++
		}
		order := slices.Clone(items)
		slices.SortStableFunc(order, func(a, b alloc.Interval) int { return a.Start - b.Start })
		got := sc.lowerBoundOrdered(len(order), func(k int) (int64, int, int) { return order[k].Size, order[k].Start, order[k].End })
		if got != want {
			t.Fatalf("trial %d: lowerBoundOrdered %d, LowerBound %d\n%+v", trial, got, want, items)
		}
	}
	if saturated < 50 {
		t.Fatalf("only %d saturated sets: the test does not reach MaxInt64", saturated)
	}
}
