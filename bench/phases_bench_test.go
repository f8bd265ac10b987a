package bench

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/sdscgen/sdscgen/frontend"
	"github.com/sdscgen/sdscgen/internal/cpuclock"
	"github.com/sdscgen/sdscgen/internal/hugeheap"
	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/mlirgen"
	"github.com/sdscgen/sdscgen/planner"
	"github.com/sdscgen/sdscgen/verify"
)

var (
	phasesBIR     = flag.String("phases.bir", "", "comma-separated .bir files for BenchmarkPhases (it skips without)")
	phasesUnfused = flag.Bool("phases.unfused", false, "BenchmarkPhases: fusion off (every leaf op its own bundle), as --bundle-symbolic-args=false")
)

// BenchmarkPhases times the default command's phases, one after the
// other, on each .bir file -phases.bir names (scripts/bench.sh passes
// each shape family's graph), and reports each as MB/s of the .bir:
// parse+check (frontend.ParseCheckReader, as the command reads a file),
// plan (planner.Plan; with -phases.unfused after ir.Graph.Unfused), verify
// (the independent verifier on the plan and on its JSON, which it writes
// first) and emit (generic MLIR, the SDSC cache on, to io.Discard). Each
// phase's rate is the .bir size over the process CPU time (user + sys)
// that phase took, so that a loaded machine does not lower it; the
// phases run on as many goroutines as GOMAXPROCS: run with -cpu 1 for
// one-core rates. The clock is only this benchmark's; the library keeps
// none.
func BenchmarkPhases(b *testing.B) {
	eachBIR(b, func(b *testing.B, path string, src []byte) {
		// One untimed parse first, so that every graph's phases run
		// in a process whose collector has seen a heap of its size
		// (the first graph of a run otherwise paid for the pacer's
		// start on a small heap: a third of the later graphs' rate).
		warm, errs, err := frontend.ParseCheckReader(path, bytes.NewReader(src), len(src))
		if errs != nil || err != nil {
			b.Fatal(errs, err)
		}
		// The verifier reads the plan's JSON, which the command streams
		// to it in reused chunks; here it goes into one buffer, sized
		// before the clock starts so that the verify phase does not
		// also time the buffer doubling to the JSON's size (a third of
		// a GB on the 1M graphs: most of what this phase measured
		// before).
		var js bytes.Buffer
		js.Grow(jsonSize(warm))
		warm = nil
		runtime.GC()
		b.ReportAllocs()
		var parse, plan, ver, emit time.Duration
		for b.Loop() {
			t0 := cpuclock.Now()
			g, errs, err := frontend.ParseCheckReader(path, bytes.NewReader(src), len(src))
			if errs != nil || err != nil {
				b.Fatal(errs, err)
			}
			t1 := cpuclock.Now()
			if *phasesUnfused {
				g = g.Unfused()
			}
			p := planner.Plan(g, planner.Options{Budget: planner.DefaultBudget, Workers: runtime.GOMAXPROCS(0)})
			t2 := cpuclock.Now()
			if err := verify.Plan(g, p, verify.Options{Budget: planner.DefaultBudget, Workers: runtime.GOMAXPROCS(0)}); err != nil {
				b.Fatal(err)
			}
			js.Reset()
			if err := planner.WriteJSON(&js, p); err != nil {
				b.Fatal(err)
			}
			if err := verify.JSON(g, p, js.Bytes()); err != nil {
				b.Fatal(err)
			}
			t3 := cpuclock.Now()
			if err := mlirgen.EmitAll(io.Discard, p, mlirgen.Options{Generic: true, SDSCCache: true, Workers: runtime.GOMAXPROCS(0)}); err != nil {
				b.Fatal(err)
			}
			t4 := cpuclock.Now()
			parse += t1 - t0
			plan += t2 - t1
			ver += t3 - t2
			emit += t4 - t3
		}
		mb := float64(len(src)) * float64(b.N) / 1e6
		b.ReportMetric(float64(len(src))/1e6, "bir-MB")
		b.ReportMetric(mb/parse.Seconds(), "parse+check-MB/s")
		b.ReportMetric(mb/plan.Seconds(), "plan-MB/s")
		b.ReportMetric(mb/ver.Seconds(), "verify-MB/s")
		b.ReportMetric(mb/emit.Seconds(), "emit-MB/s")
	})
}

// jsonSize is the size of the plan JSON of the checked graph g (unfused
// with -phases.unfused), the verify phase's buffer.
func jsonSize(g *ir.Graph) int {
	if *phasesUnfused {
		g = g.Unfused()
	}
	var n countWriter
	if err := planner.WriteJSON(&n, planner.Plan(g, planner.Options{Budget: planner.DefaultBudget})); err != nil {
		panic(err)
	}
	return int(n.n)
}

// BenchmarkParseCheckFile is BenchmarkPhases' parse+check alone, on the
// files -phases.bir names: the one to profile the front end with on a
// family's graph (-cpuprofile).
func BenchmarkParseCheckFile(b *testing.B) {
	eachBIR(b, func(b *testing.B, path string, src []byte) {
		runtime.GC()
		b.ReportAllocs()
		b.SetBytes(int64(len(src)))
		cpuclock.Measure(b, func() {
			for b.Loop() {
				g, errs, err := frontend.ParseCheckReader(path, bytes.NewReader(src), len(src))
				if errs != nil || err != nil || g == nil {
					b.Fatal(errs, err)
				}
			}
		})
	})
}

// eachBIR runs f as a sub-benchmark on each file -phases.bir names, with
// its contents; it skips without the flag. Its process's heap is on huge
// pages as the command's is (mapHeap).
func eachBIR(b *testing.B, f func(b *testing.B, path string, src []byte)) {
	if *phasesBIR == "" {
		b.Skip("no -phases.bir")
	}
	paths := strings.Split(*phasesBIR, ",")
	mapHeap(paths)
	for _, path := range paths {
		b.Run(strings.TrimSuffix(filepath.Base(path), ".bir"), func(b *testing.B) {
			src, err := os.ReadFile(path)
			if err != nil {
				b.Fatal(err)
			}
			f(b, path, src)
		})
	}
}

// heapMapped says mapHeap has mapped this process's heap.
var heapMapped bool

// mapHeap maps this process's heap on transparent huge pages, once, as
// the command does for an input of hugeheap.MinInput bytes or more
// (docs/cli.md, "Huge pages"), when one of paths is that large: the
// phases are then timed on the memory the command runs them on. (In
// runs alternating with the benchmark before it maps, 1M's parse+check
// ran at 88-93 MB/s against 45-73, but one run of a phase moves by a
// factor of two on this VM.) The block is the command's, twice its
// memory limit, scaled to this benchmark's heap,
// which is not limited: it holds the source, the plan's JSON and the
// last graph's garbage (2.4 GB at its peak on wide-1M, 229 MB of .bir),
// so 16 times the largest file.
func mapHeap(paths []string) {
	if heapMapped {
		return
	}
	largest := int64(0)
	for _, path := range paths {
		if fi, err := os.Stat(path); err == nil {
			largest = max(largest, fi.Size())
		}
	}
	if largest >= hugeheap.MinInput {
		heapMapped = true
		hugeheap.Map(int(16 * largest))
	}
}
