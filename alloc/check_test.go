package alloc

import (
	"fmt"
	"math/rand"
	"testing"
)

// naiveOverlap is the definition: some two placed intervals live at a
// common step share a byte.
func naiveOverlap(items []Interval, offs []int64) bool {
	for i := range items {
		for j := i + 1; j < len(items); j++ {
			if offs[i] < 0 || offs[j] < 0 || items[i].Size == 0 || items[j].Size == 0 || !items[i].Conflicts(items[j]) {
				continue
			}
			if offs[i] < offs[j]+items[j].Size && offs[j] < offs[i]+items[i].Size {
				return true
			}
		}
	}
	return false
}

// TestCheckFindsEveryOverlap: the sweep of Check reports an overlap
// exactly when the definition finds one, on random (often invalid)
// packings.
func TestCheckFindsEveryOverlap(t *testing.T) {
	rng := rand.New(rand.NewSource(10))
	bad := 0
	for iter := 0; iter < 3000; iter++ {
		n := 1 + rng.Intn(12)
		items := make([]Interval, n)
		offs := make([]int64, n)
		var top int64
		for i := range items {
			s := rng.Intn(8)
			items[i] = Interval{Name: fmt.Sprint(i), Size: int64(rng.Intn(5)), Start: s, End: s + rng.Intn(4)}
			offs[i] = int64(rng.Intn(12))
			if rng.Intn(8) == 0 {
				offs[i] = -1
			}
			if offs[i] >= 0 {
				top = max(top, offs[i]+items[i].Size)
			}
		}
		err := Check(items, 1<<40, Result{Offsets: offs, PoolEnd: top})
		want := naiveOverlap(items, offs)
		if (err != nil) != want {
			t.Fatalf("iter %d: Check = %v, overlap %v: %v %v", iter, err, want, items, offs)
		}
		if want {
			bad++
		}
	}
	if bad < 300 {
		t.Errorf("only %d invalid packings tried", bad)
	}
}

// BenchmarkCheckAllLive: 100k intervals all live at once (it took 18.8 s
// when each was compared with every live one; n log n now).
func BenchmarkCheckAllLive(b *testing.B) {
	const n = 100000
	items := make([]Interval, n)
	offs := make([]int64, n)
	for i := range items {
		items[i] = Interval{Name: fmt.Sprint(i), Size: 8, Start: i % 7, End: n}
		offs[i] = int64(8 * i)
	}
	r := Result{Offsets: offs, PoolEnd: 8 * n}
	for b.Loop() {
		if err := Check(items, 1<<40, r); err != nil {
			b.Fatal(err)
		}
	}
}
