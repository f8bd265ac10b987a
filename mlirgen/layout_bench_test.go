package mlirgen

import (
	"bytes"
	"testing"

	"github.com/sdscgen/sdscgen/planner"
	"github.com/sdscgen/sdscgen/synth"
)

// BenchmarkLayout10k times newLayout alone on the 10k-op single bundle,
// cut as the parallel printer cuts it: the sequential pass before the
// printing workers start (with one large bundle, the time until both are
// busy).
func BenchmarkLayout10k(b *testing.B) {
	var src bytes.Buffer
	if err := synth.Generate(&src, synth.Config{Ops: 10_000, Bundles: 1, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	p := planner.Plan(checked(b, src.Bytes()), planner.Options{Budget: planner.DefaultBudget})
	home := new(scratchList)
	b.ReportAllocs()
	for b.Loop() {
		lay := newLayout(p, 0, defaultTuning.chunkOps, home, true, nil)
		lay.release()
	}
}
