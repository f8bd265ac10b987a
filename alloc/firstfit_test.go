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
		items, budget := firstFitCase(rng, iter)
		n := len(items)
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

// The free list against a plain slice of it: random pushes, takes of the
// first fitting block and resets, long enough to fill several chunks, grow
// the tree and squeeze (each checked to have happened). After every step
// the list in order, with its holes dropped, and the answer of
// firstAtLeast must be the model's.
func TestSlotTreeMatchesList(t *testing.T) {
	type block struct{ off, size int64 }
	rng := rand.New(rand.NewSource(3))
	var tr slotTree
	squeezes, maxSlots := 0, 0
	for round := 0; round < 6; round++ {
		n := []int{10, 3000, 40, 5000, 1, 2500}[round]
		tr.reset(n)
		var model []block
		for step := 0; step < 2*n; step++ {
			want := int64(rng.Intn(1 << uint(1+rng.Intn(12))))
			if rng.Intn(4) > 0 && len(model) < 2*n {
				b := block{int64(rng.Intn(1 << 20)), int64(rng.Intn(1 << 12))}
				before := tr.n
				tr.push(b.off, b.size)
				if tr.n < before+1 {
					squeezes++
				}
				model = append(model, b)
			}
			k := slices.IndexFunc(model, func(b block) bool { return b.size >= want })
			slot := tr.firstAtLeast(want)
			if (k < 0) != (slot < 0) {
				t.Fatalf("round %d step %d: want >= %d: model index %d, tree slot %d", round, step, want, k, slot)
			}
			if k >= 0 {
				if got := (block{tr.off(slot), tr.size(slot)}); got != model[k] {
					t.Fatalf("round %d step %d: tree slot %d holds %v, model's first fit is %v", round, step, slot, got, model[k])
				}
				if rng.Intn(2) > 0 {
					tr.take(slot)
					model = slices.Delete(model, k, k+1)
				}
			}
			maxSlots = max(maxSlots, tr.n)
			if step%97 == 0 {
				var list []block
				for s := 0; s < tr.n; s++ {
					if tr.size(s) != hole {
						list = append(list, block{tr.off(s), tr.size(s)})
					}
				}
				if !slices.Equal(list, model) {
					t.Fatalf("round %d step %d: list %v, model %v", round, step, list, model)
				}
			}
		}
	}
	if squeezes == 0 || maxSlots <= 2*chunkSlots {
		t.Fatalf("%d squeezes, at most %d slots: squeeze or several chunks not exercised", squeezes, maxSlots)
	}
}
