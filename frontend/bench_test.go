package frontend

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/sdscgen/sdscgen/internal/cpuclock"
	"github.com/sdscgen/sdscgen/ir"
)

// genBundle generates one fused bundle of n leaf ops over a small rotating
// set of buffers, half of them inside counted loops with steps, which is
// the shape of a large generated graph.
func genBundle(n int) []byte {
	var b strings.Builder
	b.WriteString("graph big {\n")
	const nbuf = 1000
	for i := 0; i < nbuf; i++ {
		fmt.Fprintf(&b, "  buffer b%d : f16[4, 64]\n", i)
	}
	b.WriteString("  input b0\n  output b1\n  alias b2 = b3\n  rename r0 -> b4\n  fused blk {\n")
	for i := 0; i < n; i++ {
		if i%2 == 0 {
			fmt.Fprintf(&b, "    loop l%d count 4 {\n      op o%d reads b%d step 128, b%d writes b%d\n    }\n", i, i, i%nbuf, (i+1)%nbuf, (i+7)%nbuf)
		} else {
			fmt.Fprintf(&b, "    op o%d reads b%d, r0 writes b%d // a comment\n", i, i%nbuf, (i+3)%nbuf)
		}
	}
	b.WriteString("  }\n}\n")
	return []byte(b.String())
}

const benchOps = 100_000

// BenchmarkLex measures the scanner alone.
func BenchmarkLex(b *testing.B) {
	src := string(genBundle(benchOps))
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	cpuclock.Measure(b, func() {
		for b.Loop() {
			s := newScanner("big.bir", src)
			var t token
			for s.scan(&t); t.kind != lexer.EOF; s.scan(&t) {
			}
			if s.err != nil {
				b.Fatal(s.err.msg)
			}
		}
	})
}

func BenchmarkParse(b *testing.B) {
	src := genBundle(benchOps)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	cpuclock.Measure(b, func() {
		for b.Loop() {
			if _, errs := Parse("big.bir", src); errs != nil {
				b.Fatal(errs)
			}
		}
	})
}

// BenchmarkParseReference is the participle parser that Parse replaced,
// at a tenth of the size: it is that slow.
func BenchmarkParseReference(b *testing.B) {
	src := genBundle(benchOps / 10)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	cpuclock.Measure(b, func() {
		for b.Loop() {
			if _, errs := parseReference("big.bir", src); errs != nil {
				b.Fatal(errs)
			}
		}
	})
}

func BenchmarkCheck(b *testing.B) {
	src := genBundle(benchOps)
	f, errs := Parse("big.bir", src)
	if errs != nil {
		b.Fatal(errs)
	}
	b.ReportAllocs()
	cpuclock.Measure(b, func() {
		for b.Loop() {
			g, errs := Check(f)
			if errs != nil {
				b.Fatal(errs)
			}
			if len(g.Bundles[0].Ops) != benchOps {
				b.Fatalf("got %d ops", len(g.Bundles[0].Ops))
			}
		}
	})
}

// perfFile reads one of the graphs scripts/bench.sh makes (sdscgen synth
// --seed 1) from /tmp/perf-final, skipping the benchmark when it is
// absent.
func perfFile(b *testing.B, name string) []byte {
	src, err := os.ReadFile(filepath.Join("/tmp/perf-final", name))
	if err != nil {
		b.Skipf("%v (make it with scripts/bench.sh, or `sdscgen synth --seed 1`)", err)
	}
	return src
}

// benchParseCheck measures what sdscgen.Compile runs before planning.
func benchParseCheck(b *testing.B, name string) {
	src := perfFile(b, name)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	cpuclock.Measure(b, func() {
		for b.Loop() {
			f, errs := Parse(name, src)
			if errs != nil {
				b.Fatal(errs)
			}
			if _, errs := CheckAndRelease(f); errs != nil {
				b.Fatal(errs)
			}
		}
	})
}

// benchParseCheckStream measures ParseCheck, which builds no AST.
func benchParseCheckStream(b *testing.B, name string) {
	src := perfFile(b, name)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	cpuclock.Measure(b, func() {
		for b.Loop() {
			if _, errs := ParseCheck(name, src); errs != nil {
				b.Fatal(errs)
			}
		}
	})
}

// benchParseOldCheck measures Parse and the old checker (oldCheck), the
// baseline.
func benchParseOldCheck(b *testing.B, name string) {
	src := perfFile(b, name)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	cpuclock.Measure(b, func() {
		for b.Loop() {
			f, errs := Parse(name, src)
			if errs != nil {
				b.Fatal(errs)
			}
			if _, errs := oldCheck(f, true); errs != nil {
				b.Fatal(errs)
			}
		}
	})
}

func BenchmarkParseOldCheck10k(b *testing.B)      { benchParseOldCheck(b, "10k.bir") }
func BenchmarkParseOldCheck1Mx1000(b *testing.B)  { benchParseOldCheck(b, "1Mx1000.bir") }
func BenchmarkParseThenCheck10k(b *testing.B)     { benchParseCheck(b, "10k.bir") }
func BenchmarkParseThenCheck1Mx1000(b *testing.B) { benchParseCheck(b, "1Mx1000.bir") }
func BenchmarkParseCheck10k(b *testing.B)         { benchParseCheckStream(b, "10k.bir") }
func BenchmarkParseCheck1Mx1000(b *testing.B)     { benchParseCheckStream(b, "1Mx1000.bir") }

// BenchmarkPeakHeap1Mx1000 reports the peak live heap of one ParseCheck
// of the 1Mx1000 graph, over what was live before (the source, which the
// caller holds), and the live heap of the graph it returns. The builder
// calls memHook where its heap may peak (every 65536 ops and between the
// steps of finish); the hook collects garbage and samples the live heap.
// The CPU figure of this benchmark is meaningless.
func BenchmarkPeakHeap1Mx1000(b *testing.B) {
	src := perfFile(b, "1Mx1000.bir")
	var g *ir.Graph
	for b.Loop() {
		g = nil
		runtime.GC()
		base := liveHeap()
		var peak uint64
		memHook = func() {
			runtime.GC()
			peak = max(peak, liveHeap())
		}
		var errs ErrorList
		g, errs = ParseCheck("1Mx1000.bir", src)
		memHook = nil
		if errs != nil {
			b.Fatal(errs)
		}
		runtime.GC()
		graph := liveHeap() - base
		b.ReportMetric(float64(peak-base)/1e6, "peak-MB")
		b.ReportMetric(float64(graph)/1e6, "graph-MB")
		b.ReportMetric(float64(peak-base-graph)/1e6, "over-MB")
		b.ReportMetric(float64(len(src))/1e6, "src-MB")
		b.ReportMetric(float64(base)/1e6, "base-MB")
	}
	runtime.KeepAlive(g)
}

// BenchmarkPeakHeapOld1Mx1000 is BenchmarkPeakHeap1Mx1000 for Parse and
// the old checker (oldCheck), sampled after Parse only (the AST at its largest) and
// at the end.
func BenchmarkPeakHeapOld1Mx1000(b *testing.B) {
	src := perfFile(b, "1Mx1000.bir")
	var g *ir.Graph
	for b.Loop() {
		g = nil
		runtime.GC()
		base := liveHeap()
		f, errs := Parse("1Mx1000.bir", src)
		if errs != nil {
			b.Fatal(errs)
		}
		runtime.GC()
		ast := liveHeap() - base
		g, errs = oldCheck(f, true)
		if errs != nil {
			b.Fatal(errs)
		}
		f = nil
		runtime.GC()
		graph := liveHeap() - base
		b.ReportMetric(float64(ast)/1e6, "ast-MB")
		b.ReportMetric(float64(graph)/1e6, "graph-MB")
	}
	runtime.KeepAlive(g)
}

// liveHeap is the heap that the last garbage collection found live.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
