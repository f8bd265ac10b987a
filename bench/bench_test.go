package bench

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"sync"
	"testing"

	"github.com/sdscgen/sdscgen/alloc"
	"github.com/sdscgen/sdscgen/frontend"
	"github.com/sdscgen/sdscgen/internal/cpuclock"
	"github.com/sdscgen/sdscgen/internal/heapstat"
	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/mlirgen"
	"github.com/sdscgen/sdscgen/planner"
	"github.com/sdscgen/sdscgen/synth"
	"github.com/sdscgen/sdscgen/verify"
)

// sizes are the graphs benchmarked: name, leaf ops, bundles.
var sizes = []struct {
	name         string
	ops, bundles int
}{
	{"10k", 10_000, 1},
	{"100k", 100_000, 1},
	{"1M", 1_000_000, 1},
	{"1Mx1000", 1_000_000, 1000},
	{"100kx100", 100_000, 100},
}

// input is one graph at every stage, built once per process and size.
type input struct {
	src  []byte
	file *frontend.File
	g    *ir.Graph
	plan *planner.Result
	// items are the intervals of the plan's largest bundle.
	items []alloc.Interval
}

var (
	mu     sync.Mutex
	inputs = map[string]*input{}
)

// get builds the stages of a size up to and including stage: 0 source,
// 1 parsed, 2 checked, 3 planned. Earlier sizes are dropped to bound the
// memory of a run that goes through every size.
func get(b *testing.B, name string, ops, bundles, stage int) *input {
	mu.Lock()
	defer mu.Unlock()
	in := inputs[name]
	if in == nil {
		clear(inputs)
		in = &input{}
		var buf bytes.Buffer
		if err := synth.Generate(&buf, synth.Config{Ops: ops, Bundles: bundles, Seed: 1}); err != nil {
			b.Fatal(err)
		}
		in.src = buf.Bytes()
		inputs[name] = in
	}
	if stage >= 1 && in.file == nil {
		f, errs := frontend.Parse(name+".bir", in.src)
		if errs != nil {
			b.Fatal(errs)
		}
		in.file = f
	}
	if stage >= 2 && in.g == nil {
		g, errs := frontend.Check(in.file)
		if errs != nil {
			b.Fatal(errs)
		}
		in.g = g
	}
	if stage >= 3 && in.plan == nil {
		in.plan = planner.Plan(in.g, planner.Options{Budget: planner.DefaultBudget})
		in.items = largestBundle(in.plan)
	}
	b.ResetTimer()
	return in
}

// each runs f on every size. Besides wall time it reports the process's
// CPU time per op (user+sys, GC workers included) as cpu-ms/op: on a
// loaded machine that is the steadier figure.
func each(b *testing.B, stage int, f func(b *testing.B, in *input)) {
	for _, s := range sizes {
		b.Run(s.name, func(b *testing.B) {
			in := get(b, s.name, s.ops, s.bundles, stage)
			// Collect the setup's garbage now, or the GC works it off
			// on the measured time.
			runtime.GC()
			b.ReportAllocs()
			b.ResetTimer()
			cpuclock.Measure(b, func() { f(b, in) })
		})
	}
}

func BenchmarkParse(b *testing.B) {
	each(b, 0, func(b *testing.B, in *input) {
		b.SetBytes(int64(len(in.src)))
		for b.Loop() {
			if _, errs := frontend.Parse("synth.bir", in.src); errs != nil {
				b.Fatal(errs)
			}
		}
	})
}

func BenchmarkCheck(b *testing.B) {
	each(b, 1, func(b *testing.B, in *input) {
		for b.Loop() {
			if _, errs := frontend.Check(in.file); errs != nil {
				b.Fatal(errs)
			}
		}
	})
}

func BenchmarkPlan(b *testing.B) {
	each(b, 2, func(b *testing.B, in *input) {
		for b.Loop() {
			planner.Plan(in.g, planner.Options{Budget: planner.DefaultBudget})
		}
	})
}

// BenchmarkFirstFit times the allocator alone on the candidates of the
// graph's largest bundle (the whole graph for the one-bundle sizes).
func BenchmarkFirstFit(b *testing.B) {
	each(b, 3, func(b *testing.B, in *input) {
		items := in.items
		b.ReportMetric(float64(len(items)), "buffers")
		for b.Loop() {
			alloc.FirstFit(items, planner.DefaultBudget)
		}
	})
}

func largestBundle(p *planner.Result) []alloc.Interval {
	best := 0
	for bi, pb := range p.Bundles {
		if pb.Candidates.Len > p.Bundles[best].Candidates.Len {
			best = bi
		}
	}
	var items []alloc.Interval
	for _, gi := range p.Candidates(best) {
		pg := &p.Groups[gi]
		gr := &p.Graph.Groups[gi]
		items = append(items, alloc.Interval{Name: p.Graph.GroupKey(gr), Size: gr.Size, Start: int(pg.Start), End: int(pg.End)})
	}
	return items
}

// countWriter counts what it is given.
type countWriter struct{ n int64 }

func (w *countWriter) Write(p []byte) (int, error) { w.n += int64(len(p)); return len(p), nil }

// BenchmarkEmit times mlirgen.EmitAll in both forms, on one goroutine and
// on as many as the CLI uses (GOMAXPROCS).
func BenchmarkEmit(b *testing.B) {
	for _, generic := range []bool{false, true} {
		for _, workers := range []int{1, runtime.GOMAXPROCS(0)} {
			b.Run(fmt.Sprintf("generic=%v/workers=%d", generic, workers), func(b *testing.B) {
				benchEmit(b, mlirgen.Options{Generic: generic, Workers: workers})
			})
		}
	}
}

func benchEmit(b *testing.B, opt mlirgen.Options) {
	each(b, 3, func(b *testing.B, in *input) {
		var cw countWriter
		if err := mlirgen.EmitAll(&cw, in.plan, opt); err != nil {
			b.Fatal(err)
		}
		b.SetBytes(cw.n)
		b.ResetTimer()
		for b.Loop() {
			if err := mlirgen.EmitAll(io.Discard, in.plan, opt); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkPipeline is the CLI's work without the file system and the
// verifier: parse and check (frontend.ParseCheck, no AST), plan and emit
// (generic) from the source bytes.
func BenchmarkPipeline(b *testing.B) {
	each(b, 0, func(b *testing.B, in *input) {
		for b.Loop() {
			g, errs := frontend.ParseCheck("synth.bir", in.src)
			if errs != nil {
				b.Fatal(errs)
			}
			p := planner.Plan(g, planner.Options{Budget: planner.DefaultBudget})
			if err := mlirgen.EmitAll(io.Discard, p, mlirgen.Options{Generic: true}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkLiveHeap reports the live heap after each stage of the CLI's
// path (MiB, after a full GC), the floor under its peak RSS: src is the
// input, ir the graph frontend.ParseCheck builds (it keeps no reference
// to the source), plan the planner's result on top of the graph.
// (frontend's BenchmarkPeakHeapAST1Mx1000 measures the AST path.)
func BenchmarkLiveHeap(b *testing.B) {
	each(b, 0, func(b *testing.B, in *input) {
		for b.Loop() {
			base := liveMiB()
			g, errs := frontend.ParseCheck("synth.bir", in.src)
			if errs != nil {
				b.Fatal(errs)
			}
			ir := liveMiB() - base
			p := planner.Plan(g, planner.Options{Budget: planner.DefaultBudget})
			plan := liveMiB() - base - ir
			runtime.KeepAlive(p)
			b.ReportMetric(float64(len(in.src))/(1<<20), "src-MiB")
			b.ReportMetric(ir, "ir-MiB")
			b.ReportMetric(plan, "plan-MiB")
		}
	})
}

// liveMiB is the live heap after a full collection, in MiB.
func liveMiB() float64 { return float64(heapstat.Live()) / (1 << 20) }

// BenchmarkVerify times what the CLI's default --verify adds: the
// independent verifier on the plan, then on the plan's JSON rendering.
func BenchmarkVerify(b *testing.B) {
	each(b, 3, func(b *testing.B, in *input) {
		for b.Loop() {
			if err := verify.Plan(in.g, in.plan, verify.Options{Budget: planner.DefaultBudget}); err != nil {
				b.Fatal(err)
			}
			var buf bytes.Buffer
			if err := planner.WriteJSON(&buf, in.plan); err != nil {
				b.Fatal(err)
			}
			if err := verify.JSON(in.g, in.plan, buf.Bytes()); err != nil {
				b.Fatal(err)
			}
		}
	})
}
