package verify

import (
	"io"
	"runtime"
	"testing"
	"time"

	"github.com/sdscgen/sdscgen/internal/cpuclock"
	"github.com/sdscgen/sdscgen/planner"
)

// BenchmarkVerifyCPU times the verifier as the CLI runs it on the graphs
// of issue 12 (synth seed 1, one bundle, as /tmp/perf-final's 10k.bir
// and 1M.bir), planned with the default first-fit and budget, on every
// core: PlanAndJSON with the JSON streamed from planner.WriteJSON (whose
// CPU time is included in cpu-ms/op, as is the collector's). B/op counts
// the verifier's allocations and the writer's.
//
// /Prepare and /Prepared split it as the CLI can: Prepare (the
// graph-only checks, which can run beside planner.Plan), then
// Prepared.PlanAndJSON (the share that waits for the plan, measured
// without Prepare's time). /WriteJSON is the writer and the pipe alone.
func BenchmarkVerifyCPU(b *testing.B) {
	for _, bc := range []struct {
		name string
		ops  int
	}{
		{"10k", 10_000},
		{"1M", 1_000_000},
	} {
		var p *planner.Result
		plan := func(b *testing.B) {
			if p == nil {
				p = livePlan(b, bc.ops, 1)
			}
			runtime.GC()
			b.ReportAllocs()
			b.ResetTimer()
		}
		opt := Options{Budget: planner.DefaultBudget, Workers: runtime.GOMAXPROCS(0)}
		run := func(b *testing.B, check func(r io.Reader) (error, error)) {
			cpuclock.Measure(b, func() {
				for b.Loop() {
					pr, pw := io.Pipe()
					go func() { pw.CloseWithError(planner.WriteJSON(pw, p)) }()
					perr, jerr := check(pr)
					pr.Close()
					if perr != nil || jerr != nil {
						b.Fatal(perr, jerr)
					}
				}
			})
		}
		b.Run(bc.name+"/PlanAndJSON", func(b *testing.B) {
			plan(b)
			run(b, func(r io.Reader) (error, error) { return PlanAndJSON(p.Graph, p, opt, r) })
		})
		b.Run(bc.name+"/WriteJSON", func(b *testing.B) {
			// The writer and the pipe alone, read to io.Discard: what
			// the figures above include besides the verifier.
			plan(b)
			run(b, func(r io.Reader) (error, error) {
				_, err := io.Copy(io.Discard, r)
				return nil, err
			})
		})
		b.Run(bc.name+"/Prepare", func(b *testing.B) {
			// The share that can run beside planner.Plan.
			plan(b)
			cpuclock.Measure(b, func() {
				for b.Loop() {
					Prepare(p.Graph, opt)
				}
			})
		})
		b.Run(bc.name+"/Prepared", func(b *testing.B) {
			// The share that waits for the plan: Prepared.PlanAndJSON
			// (and the writer), Prepare's CPU time left out.
			plan(b)
			var cpu time.Duration
			for b.Loop() {
				b.StopTimer()
				pre := Prepare(p.Graph, opt)
				b.StartTimer()
				c0 := cpuclock.Now()
				pr, pw := io.Pipe()
				go func() { pw.CloseWithError(planner.WriteJSON(pw, p)) }()
				perr, jerr := pre.PlanAndJSON(p, pr)
				pr.Close()
				cpu += cpuclock.Now() - c0
				if perr != nil || jerr != nil {
					b.Fatal(perr, jerr)
				}
			}
			b.ReportMetric(float64(cpu)/1e6/float64(b.N), "cpu-ms/op")
		})
	}
}
