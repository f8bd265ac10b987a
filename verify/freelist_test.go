package verify

import (
	"math/rand"
	"testing"
)

// TestFreeList runs random pushes, searches and takes on freeList and on
// a plain slice in list order (the model: first fit is the first block,
// in push order, that is big enough), through many squeezes and growths,
// with the slots' arrays handed over between rounds as replayFirstFit
// does.
func TestFreeList(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	type block struct{ off, size int64 }
	var f freeList
	var size, off []int64
	for round := range 40 {
		f.reset(size, off)
		var model []block
		most := 0 // the most blocks at once
		for range 1 + rng.Intn(5000) {
			most = max(most, len(model))
			if rng.Intn(3) > 0 || len(model) == 0 {
				b := block{rng.Int63n(1 << 40), 1 + rng.Int63n(100)}
				f.push(b.off, b.size)
				model = append(model, b)
				continue
			}
			need := 1 + rng.Int63n(110)
			want := -1
			for i, b := range model {
				if b.size >= need {
					want = i
					break
				}
			}
			i := f.first(need)
			if want < 0 {
				if i >= 0 {
					t.Fatalf("round %d: first(%d) = slot %d, the model has no block that big", round, need, i)
				}
				continue
			}
			if i < 0 || f.off[i] != model[want].off || f.size(i) != model[want].size {
				t.Fatalf("round %d: first(%d) = slot %d, the model's block is %+v", round, need, i, model[want])
			}
			f.take(i)
			model = append(model[:want], model[want+1:]...)
		}
		if f.blocks != len(model) {
			t.Fatalf("round %d: %d blocks, the model has %d", round, f.blocks, len(model))
		}
		// Every block is on the list once, in the model's order.
		k := 0
		for i := range f.used {
			if f.size(i) == hole {
				continue
			}
			if k >= len(model) || f.off[i] != model[k].off || f.size(i) != model[k].size {
				t.Fatalf("round %d: slot %d holds (%d, %d), the model's block %d differs", round, i, f.off[i], f.size(i), k)
			}
			k++
		}
		most = max(most, len(model))
		// Growing makes the slots at most max(1.5, 1.25*4/3) times the
		// blocks then, rounded up to 64.
		if slots := len(f.off); slots > 5*most/3+64 {
			t.Fatalf("round %d: %d slots, for at most %d blocks", round, slots, most)
		}
		size, off = f.release()
	}
}
