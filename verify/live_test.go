package verify

import (
	"bytes"
	"io"
	"runtime"
	"testing"

	"github.com/sdscgen/sdscgen/frontend"
	"github.com/sdscgen/sdscgen/internal/cpuclock"
	"github.com/sdscgen/sdscgen/internal/heapstat"
	"github.com/sdscgen/sdscgen/planner"
	"github.com/sdscgen/sdscgen/synth"
)

// BenchmarkVerifyLive measures the verifier on the graphs of issue 12
// (synth seed 1, as /tmp/perf-final's), planned with the default
// first-fit and budget, on every core.
//
// In /live, the plan check runs as Plan runs it, and after the
// per-bundle checks, before their scratch is released (it keeps the
// largest size each buffer reached, and every graph-wide table is
// there), a collection measures the live heap. live-MB is that minus the
// live heap before (graph and plan): the verifier's peak live memory but
// for what one growing buffer leaves to the collector while it grows,
// which alloc-MB, every byte allocated up to then, bounds. (The JSON check, which
// PlanAndJSON runs beside it, keeps a 128 KiB window and a few words per
// bundle; BenchmarkVerify's JSON B/op is its allocation.)
//
// In /cpu, PlanAndJSON runs as the CLI runs it (the JSON streamed from
// planner.WriteJSON); cpu-ms/op is the process's CPU time per run, the
// writer and the collector included.
func BenchmarkVerifyLive(b *testing.B) {
	for _, bc := range []struct {
		name         string
		ops, bundles int
	}{
		{"1M", 1_000_000, 1},
		{"1Mx1000", 1_000_000, 1000},
	} {
		var p *planner.Result
		plan := func(b *testing.B) {
			if p == nil {
				p = livePlan(b, bc.ops, bc.bundles)
			}
		}
		opt := Options{Budget: planner.DefaultBudget, Workers: runtime.GOMAXPROCS(0)}
		b.Run(bc.name+"/live", func(b *testing.B) {
			plan(b)
			var live, alloc float64
			for b.Loop() {
				b.StopTimer()
				base, total := heapstat.LiveAndAllocated()
				b.StartTimer()
				// Measured where the most is live: after the
				// per-bundle checks, before their scratch is released.
				var now, all uint64
				pre := Prepare(p.Graph, opt)
				pre.atPeak = func() {
					b.StopTimer()
					now, all = heapstat.LiveAndAllocated()
					b.StartTimer()
				}
				if err := pre.Plan(p); err != nil {
					b.Fatal(err)
				}
				const mb = 1 << 20
				live = max(live, float64(now-min(now, base))/mb)
				alloc = max(alloc, float64(all-total)/mb)
			}
			b.ReportMetric(live, "live-MB")
			b.ReportMetric(alloc, "alloc-MB")
		})
		b.Run(bc.name+"/cpu", func(b *testing.B) {
			plan(b)
			runtime.GC()
			b.ResetTimer()
			cpuclock.Measure(b, func() {
				for b.Loop() {
					pr, pw := io.Pipe()
					go func() { pw.CloseWithError(planner.WriteJSON(pw, p)) }()
					perr, jerr := PlanAndJSON(p.Graph, p, opt, pr)
					pr.Close()
					if perr != nil || jerr != nil {
						b.Fatal(perr, jerr)
					}
				}
			})
		})
	}
}

func livePlan(b *testing.B, ops, bundles int) *planner.Result {
	b.Helper()
	var src bytes.Buffer
	if err := synth.Generate(&src, synth.Config{Ops: ops, Bundles: bundles, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	g, errs := frontend.ParseCheck("synth.bir", src.Bytes())
	if errs != nil {
		b.Fatal(errs)
	}
	return planner.Plan(g, planner.Options{Budget: planner.DefaultBudget, Workers: runtime.GOMAXPROCS(0)})
}
