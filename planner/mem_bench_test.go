package planner_test

import (
	"bytes"
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"testing"

	"github.com/sdscgen/sdscgen/frontend"
	"github.com/sdscgen/sdscgen/internal/heapstat"
	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/planner"
	"github.com/sdscgen/sdscgen/synth"
)

// BenchmarkPlanPeakLive reports what Plan adds to the live heap on the
// 1M-op synthetic graphs, as the CLI calls it (GOMAXPROCS workers):
//
//   - peak-MiB: the most live bytes above the checked graph seen while
//     Plan runs (its scratch and the Result being built), sampled by a
//     goroutine that collects back to back. A sample counts what was
//     allocated while its collection ran, garbage by then included, so
//     on a busy machine (long collections) it overstates; and a short
//     peak between two samples can be missed;
//   - alloc-MiB: all that one Plan allocates (run with the collector
//     off): an upper bound of the peak, the same on every run;
//   - result-MiB: the Result kept after Plan returns;
//   - scratch-MiB: peak-MiB less result-MiB.
//
// Each sample is a full collection, so the timing of this benchmark means
// nothing; BenchmarkPlan (bench/) times Plan.
func BenchmarkPlanPeakLive(b *testing.B) {
	for _, s := range []struct {
		name         string
		ops, bundles int
	}{{"1M", 1_000_000, 1}, {"1Mx1000", 1_000_000, 1000}} {
		b.Run(s.name, func(b *testing.B) {
			g := synthGraph(b, s.ops, s.bundles)
			opt := planner.Options{Budget: planner.DefaultBudget, Workers: runtime.GOMAXPROCS(0)}
			var peak, result uint64
			for b.Loop() {
				base := heapstat.Live()
				var hi atomic.Uint64
				stop := heapstat.SamplePeak(&hi)
				p := planner.Plan(g, opt)
				stop()
				after := heapstat.Live()
				runtime.KeepAlive(p)
				peak = max(peak, max(hi.Load(), after)-base)
				result = max(result, after-base)
			}
			// Once more with the collector off: all Plan allocates.
			runtime.GC()
			old := debug.SetGCPercent(-1)
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			runtime.KeepAlive(planner.Plan(g, opt))
			runtime.ReadMemStats(&m1)
			debug.SetGCPercent(old)
			const mib = 1 << 20
			b.ReportMetric(float64(m1.TotalAlloc-m0.TotalAlloc)/mib, "alloc-MiB")
			b.ReportMetric(float64(peak)/mib, "peak-MiB")
			b.ReportMetric(float64(result)/mib, "result-MiB")
			b.ReportMetric(float64(peak-result)/mib, "scratch-MiB")
		})
	}
}

// synthGraph is the checked graph `sdscgen synth --seed 1` makes.
func synthGraph(b *testing.B, ops, bundles int) *ir.Graph {
	b.Helper()
	var buf bytes.Buffer
	if err := synth.Generate(&buf, synth.Config{Ops: ops, Bundles: bundles, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	g, errs := frontend.ParseCheck("synth.bir", buf.Bytes())
	if errs != nil {
		b.Fatal(errs)
	}
	return g
}
