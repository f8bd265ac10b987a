package alloc

import (
	"fmt"
	"math/rand"
	"reflect"
	"slices"
	"testing"
)

// namedInOrder gives items names whose byte order is their index order,
// as the ordered forms' callers number them.
func namedInOrder(items []Interval) {
	for i := range items {
		items[i].Name = fmt.Sprintf("g%06d", i)
	}
}

// SortStartOrder, given the indices in any order (a shuffle of all, or of
// a subset), must give StartOrder's order of the same intervals, on dense
// and sparse instances alike, with ties on start and end broken by index.
func TestSortStartOrderMatchesStartOrder(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	for iter := 0; iter < 3000; iter++ {
		n := rng.Intn(70)
		if iter%100 == 0 {
			n = 2000 + rng.Intn(2000)
		}
		spread := []int{3, 40, 5000, 1 << 30}[rng.Intn(4)]
		items := make([]Interval, n)
		for i := range items {
			s := rng.Intn(spread) - spread/3
			items[i] = Interval{Size: 128, Start: s, End: s + rng.Intn(min(spread, 9))}
		}
		namedInOrder(items)
		// A random subset, shuffled.
		var idx, want []int32
		sub := make([]Interval, 0, n)
		for i := range items {
			if iter%2 == 0 || rng.Intn(3) > 0 {
				idx = append(idx, int32(i))
				sub = append(sub, items[i])
			}
		}
		for _, k := range StartOrder(sub) {
			want = append(want, idx[k])
		}
		rng.Shuffle(len(idx), func(a, b int) { idx[a], idx[b] = idx[b], idx[a] })
		steps := func(i int32) (int, int) { return items[i].Start, items[i].End }
		SortStartOrder(idx, steps)
		if !slices.Equal(idx, want) {
			t.Fatalf("iter %d (n=%d spread=%d): got %v, want %v", iter, n, spread, idx, want)
		}
	}
}

// FirstFitOrdered over StartOrder places exactly as FirstFit, and so as
// the spec's NaiveFirstFit: every offset, every fallback, the pool end.
func TestFirstFitOrderedMatchesFirstFit(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for iter := 0; iter < 3000; iter++ {
		items, budget := firstFitCase(rng, iter)
		n := len(items)
		want := NaiveFirstFit(items, budget)
		order := StartOrder(items)
		got := Result{Offsets: slices.Repeat([]int64{-7}, n)}
		calls := 0
		var peak int64
		got.PoolEnd, peak = FirstFitOrdered(n, budget,
			func(k int) (int64, int, int) { it := items[order[k]]; return it.Size, it.Start, it.End },
			func(k int, off int64) {
				if got.Offsets[order[k]] != -7 {
					t.Fatalf("iter %d: item %d placed twice", iter, k)
				}
				calls++
				got.Offsets[order[k]] = off
			})
		if calls != n || got.PoolEnd != want.PoolEnd || !slices.Equal(got.Offsets, want.Offsets) {
			t.Fatalf("iter %d (n=%d budget=%d): %d calls, ordered %v pool %d, naive %v pool %d", iter, n, budget,
				calls, got.Offsets, got.PoolEnd, want.Offsets, want.PoolEnd)
		}
		// peak is the lower bound of the intervals it placed: of all
		// of them when none fell back.
		var placed []Interval
		for i, off := range want.Offsets {
			if off >= 0 {
				placed = append(placed, items[i])
			}
		}
		if lb := LowerBound(placed); peak != lb || peak > got.PoolEnd {
			t.Fatalf("iter %d (n=%d budget=%d): peak %d, want LowerBound of the %d placed %d (pool end %d)", iter, n, budget,
				peak, len(placed), lb, got.PoolEnd)
		}
	}
}

// The table gives first-fit, and only first-fit, an ordered form:
// FirstFitOrdered (whose placements TestFirstFitOrderedMatchesFirstFit
// holds equal to FirstFit's).
func TestLookupOrdered(t *testing.T) {
	for _, a := range Table() {
		p, err := Lookup(a.Name, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := p.Ordered != nil, a.Name == "first-fit"; got != want {
			t.Errorf("%s: ordered form %v, want %v", a.Name, got, want)
		}
	}
	if reflect.ValueOf(Default().Ordered).Pointer() != reflect.ValueOf(Ordered(FirstFitOrdered)).Pointer() {
		t.Error("first-fit's ordered form is not FirstFitOrdered")
	}
}
