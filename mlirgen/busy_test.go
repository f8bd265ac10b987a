package mlirgen

import (
	"bytes"
	"io"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/sdscgen/sdscgen/planner"
	"github.com/sdscgen/sdscgen/synth"
)

// BenchmarkBusy10k times, on the 10k-op single bundle the CLI's latency
// target is set on, EmitAll on two workers (generic, as the CLI prints)
// and how long after its start both workers have a piece: the sequential
// part of the emission (median and worst run).
func BenchmarkBusy10k(b *testing.B) {
	var src bytes.Buffer
	if err := synth.Generate(&src, synth.Config{Ops: 10_000, Bundles: 1, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	f := func() *planner.Result {
		g := checked(b, src.Bytes())
		return planner.Plan(g, planner.Options{Budget: planner.DefaultBudget})
	}
	p := f()
	var mu sync.Mutex
	var start time.Time
	var first [2]time.Time
	pieceStarts = func(w int) {
		mu.Lock()
		if w < 2 && first[w].IsZero() {
			first[w] = time.Now()
		}
		mu.Unlock()
	}
	defer func() { pieceStarts = nil }()
	var all []time.Duration
	for b.Loop() {
		mu.Lock()
		first = [2]time.Time{}
		start = time.Now()
		mu.Unlock()
		if err := EmitAll(io.Discard, p, Options{Generic: true, Workers: 2}); err != nil {
			b.Fatal(err)
		}
		mu.Lock()
		if first[0].IsZero() || first[1].IsZero() {
			b.Fatal("a worker printed nothing")
		}
		d := max(first[0].Sub(start), first[1].Sub(start))
		mu.Unlock()
		all = append(all, d)
	}
	slices.Sort(all)
	b.ReportMetric(float64(all[len(all)/2].Microseconds())/1000, "median-busy-ms")
	b.ReportMetric(float64(all[len(all)-1].Microseconds())/1000, "max-busy-ms")
}

// BenchmarkLayout10k times newLayout alone on the 10k-op single bundle,
// cut as the parallel printer cuts it: the sequential pass before the
// workers start.
func BenchmarkLayout10k(b *testing.B) {
	var src bytes.Buffer
	if err := synth.Generate(&src, synth.Config{Ops: 10_000, Bundles: 1, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	p := planner.Plan(checked(b, src.Bytes()), planner.Options{Budget: planner.DefaultBudget})
	home := new(scratchList)
	b.ReportAllocs()
	for b.Loop() {
		lay := newLayout(p, 0, chunkOps, home)
		lay.release()
	}
}
