package alloc

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"
	"time"

	"github.com/sdscgen/sdscgen/internal/cpuclock"
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

// pipeline100k is the big bundle of the best tests and benchmarks: 100k buffers shaped like a
// long pipeline, mostly short live ranges, some long ones.
func pipeline100k() []Interval {
	rng := rand.New(rand.NewSource(8))
	items := make([]Interval, 100000)
	for i := range items {
		s := rng.Intn(200000)
		l := rng.Intn(40)
		if rng.Intn(20) == 0 {
			l = rng.Intn(20000)
		}
		items[i] = Interval{Name: "t" + string(rune('a'+i%26)), Size: 128 * int64(1+rng.Intn(4096)), Start: s, End: s + l}
	}
	return items
}

// Issue 12: best on 100k buffers within 3x best-fit's time. Each
// iteration times best and best-fit on the same bundle back to back and
// the benchmark reports both and their ratio (best-x-bestfit);
// scripts/bench.sh prints it. The times are process CPU time, steadier
// than wall time on a shared machine; best runs some portfolio members
// on a second goroutine, so its CPU time is at least its running time
// and the ratio errs against best. A benchmark, not a test: times
// depend on the machine.
func BenchmarkBestVsBestFit100k(b *testing.B) {
	items := pipeline100k()
	var tBest, tFit time.Duration
	for b.Loop() {
		t0 := cpuclock.Now()
		BestWith(Options{})(items, 15032385536)
		t1 := cpuclock.Now()
		BestFit(items, 15032385536)
		tBest, tFit = tBest+t1-t0, tFit+cpuclock.Now()-t1
	}
	b.ReportMetric(float64(tBest.Nanoseconds())/float64(b.N), "best-ns/op")
	b.ReportMetric(float64(tFit.Nanoseconds())/float64(b.N), "bestfit-ns/op")
	b.ReportMetric(float64(tBest)/float64(tFit), "best-x-bestfit")
}

func BenchmarkBest100k(b *testing.B) {
	items := pipeline100k()
	for b.Loop() {
		BestWith(Options{})(items, 15032385536)
	}
}

func BenchmarkBestFit100k(b *testing.B) {
	items := pipeline100k()
	for b.Loop() {
		BestFit(items, 15032385536)
	}
}

func BenchmarkSizeBestFit100k(b *testing.B) {
	items := pipeline100k()
	for b.Loop() {
		SizeBestFit(items, 15032385536)
	}
}

// TestBestNeverWorseThanMembers: without a clock, every member of the
// portfolio runs to completion, so best's pool end is at most each of
// theirs whenever they all place everything (issue 10).
func TestBestNeverWorseThanMembers(t *testing.T) {
	rng := rand.New(rand.NewSource(13))
	best := BestWith(Options{MaxNodes: 2000})
	for iter := 0; iter < 400; iter++ {
		var items []Interval
		if iter%2 == 0 {
			items = randomItems(rng, 1+rng.Intn(120), 1+rng.Intn(60))
		} else {
			items = allLive(rng, 1+rng.Intn(120), 2+rng.Intn(30), rng.Intn(4))
		}
		tl := newTimeline(items)
		b := best(items, 1<<62)
		if err := Check(items, 1<<62, b); err != nil {
			t.Fatal(err)
		}
		for k, m := range append([]member{func(func() bool) (Result, bool) { return FirstFit(items, 1<<62), true }}, portfolio(items, tl, 1<<62, 2000)...) {
			r, ok := m(func() bool { return false })
			if ok && r.PoolEnd < b.PoolEnd {
				t.Fatalf("iter %d: member %d packs to %d, best to %d", iter, k, r.PoolEnd, b.PoolEnd)
			}
		}
	}
}
