package mlirgen

import (
	"bytes"
	"fmt"
	"io"
	"math/rand"
	"testing"
	"unsafe"

	"github.com/sdscgen/sdscgen/frontend"
	"github.com/sdscgen/sdscgen/internal/heapstat"
	"github.com/sdscgen/sdscgen/internal/randgraph"
	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/planner"
	"github.com/sdscgen/sdscgen/synth"
)

func checked(t testing.TB, src []byte) *ir.Graph {
	t.Helper()
	f, errs := frontend.Parse("p.bir", src)
	if errs != nil {
		t.Fatal(errs)
	}
	g, errs := frontend.Check(f)
	if errs != nil {
		t.Fatal(errs)
	}
	return g
}

// sizes is a tuning of parallel emission's part sizes.
func sizes(job, big, chunk, decl int) *tuning {
	return &tuning{jobOps: job, bigOps: big, chunkOps: chunk, declChunk: decl}
}

var allForms = []Options{{}, {Generic: true}, {FrontendPoolAllocation: true}, {Generic: true, FrontendPoolAllocation: true}, {Addresses: true},
	{SDSCCache: true}, {SDSCCache: true, Generic: true, FrontendPoolAllocation: true}}

// withKinds gives every op of g but every fourth one of three kinds, so
// that the sdsc_cache reuses files across chunk boundaries.
func withKinds(g *ir.Graph) *ir.Graph {
	names := []string{"", "k1", "k2", "k3"}
	for b := range g.Bundles {
		for k := range g.Bundles[b].Ops {
			g.Bundles[b].Ops[k].Kind = g.InternKind(names[k%4])
		}
	}
	return g
}

// sameBytes checks that EmitAll on 2 and 3 workers writes what it writes
// on one (the sequential printer: every bundle whole, no chunk), in every
// output form, with the part sizes of tune (nil: the default), and
// returns how many bundles were cut into chunks.
func sameBytes(t *testing.T, label string, p *planner.Result, tune *tuning) (cut int) {
	t.Helper()
	if tune == nil {
		tune = &defaultTuning
	}
	for _, b := range p.Graph.Bundles {
		if len(b.Ops) > tune.bigOps && len(b.Ops) > tune.chunkOps {
			cut++
		}
	}
	for _, opt := range allForms {
		opt.tune = tune
		var seq bytes.Buffer
		if err := EmitAll(&seq, p, opt); err != nil {
			t.Fatal(err)
		}
		if seq.Len() == 0 {
			t.Fatalf("%s %+v: no output", label, opt)
		}
		for _, w := range []int{2, 3} {
			opt.Workers = w
			var par bytes.Buffer
			if err := EmitAll(&par, p, opt); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(seq.Bytes(), par.Bytes()) {
				t.Fatalf("%s %+v: parallel output differs (%d vs %d bytes)\n%s", label, opt, par.Len(), seq.Len(), firstDiff(seq.String(), par.String()))
			}
		}
	}
	return cut
}

// firstDiff shows the first line where two texts differ.
func firstDiff(a, b string) string {
	line := 1
	for k := 0; k < min(len(a), len(b)); k++ {
		if a[k] != b[k] {
			return fmt.Sprintf("line %d: %q vs %q", line, lineAt(a, k), lineAt(b, k))
		}
		if a[k] == '\n' {
			line++
		}
	}
	return "one is a prefix of the other"
}

func lineAt(s string, k int) string {
	lo, hi := k, k
	for lo > 0 && s[lo-1] != '\n' {
		lo--
	}
	for hi < len(s) && s[hi] != '\n' {
		hi++
	}
	return s[lo:hi]
}

// randomGraphs returns n random graphs (seed seed) of the given number
// of bundles, every other one with op kinds, each followed by its copy
// with fusion off.
func randomGraphs(t *testing.T, seed int64, n, bundles int) []*ir.Graph {
	t.Helper()
	var graphs []*ir.Graph
	r := rand.New(rand.NewSource(seed))
	for k := 0; k < n; k++ {
		g := checked(t, []byte(randgraph.Generate(r, randgraph.Config{Buffers: 30, Bundles: bundles, MaxOps: 8, MaxDepth: 3})))
		if k%2 == 1 {
			g = withKinds(g)
		}
		graphs = append(graphs, g, g.Unfused())
	}
	return graphs
}

// TestParallelSameBytes: EmitAll on several goroutines writes exactly what
// the sequential loop writes, on random graphs (fused and fusion off) and
// on synthetic ones whose bundles are batched into jobs, printed directly
// (a bundle above bigOps ops) or both, in every output form.
func TestParallelSameBytes(t *testing.T) {
	graphs := randomGraphs(t, 3, 40, 10)
	var src bytes.Buffer
	if err := synth.Generate(&src, synth.Config{Ops: 20000, Bundles: 300, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	g := checked(t, src.Bytes())
	graphs = append(graphs, g, g.Unfused())
	// Small sizes mix cut bundles and batched jobs in one graph.
	tune := sizes(12, 5, 2, 3)
	cut := 0
	for gi, g := range graphs {
		if gi == len(graphs)-2 { // the synthetic graph: the real sizes
			tune = nil
		}
		p := planner.Plan(g, planner.Options{Budget: planner.DefaultBudget})
		cut += sameBytes(t, fmt.Sprintf("graph %d", gi), p, tune)
	}
	if cut < 20 {
		t.Errorf("only %d bundles were cut into chunks", cut)
	}
}

// TestParallelBigBundles: single large bundles (random graphs of one
// bundle with deep loops, and synthetic graphs of one bundle) cut into
// chunks of every size from one op up, so that chunk boundaries fall
// before, inside and after loops at every depth, and declarations are cut
// too: the text is the sequential printer's, in every form.
func TestParallelBigBundles(t *testing.T) {
	var graphs []*ir.Graph
	r := rand.New(rand.NewSource(11))
	for len(graphs) < 30 {
		// One top-level node: a bundle, or a CPU node (skipped).
		g := checked(t, []byte(randgraph.Generate(r, randgraph.Config{Buffers: 40, Bundles: 1, MaxOps: 60, MaxDepth: 4})))
		if len(g.Bundles) == 1 {
			if len(graphs)%2 == 1 {
				g = withKinds(g)
			}
			graphs = append(graphs, g)
		}
	}
	for _, ops := range []int{500, 3000} {
		var src bytes.Buffer
		if err := synth.Generate(&src, synth.Config{Ops: ops, Bundles: 1, Seed: uint64(ops)}); err != nil {
			t.Fatal(err)
		}
		graphs = append(graphs, checked(t, src.Bytes()))
	}
	loops := 0
	for _, g := range graphs {
		loops += len(g.Bundles[0].Loops)
	}
	if loops < 100 {
		t.Fatalf("only %d loops in the graphs", loops)
	}
	for _, cd := range [][2]int{{1, 1}, {2, 3}, {3, 2}, {7, 5}, {64, 100}} {
		tune := sizes(4096, 0, cd[0], cd[1])
		cut := 0
		for gi, g := range graphs {
			p := planner.Plan(g, planner.Options{Budget: planner.DefaultBudget})
			cut += sameBytes(t, fmt.Sprintf("chunks %v graph %d", cd, gi), p, tune)
		}
		if cut < len(graphs)/2 {
			t.Errorf("chunks %v: only %d of %d bundles cut", cd, cut, len(graphs))
		}
	}
}

// TestGroupTableSameBytes: a layout that keeps its group slots in a
// groupTab (a bundle touching few of the graph's groups) prints what the
// per-group array prints, sequentially and in parallel, in every form.
func TestGroupTableSameBytes(t *testing.T) {
	var graphs []*ir.Graph
	r := rand.New(rand.NewSource(5))
	for k := 0; k < 20; k++ {
		g := checked(t, []byte(randgraph.Generate(r, randgraph.Config{Buffers: 60, Bundles: 12, MaxOps: 6, MaxDepth: 3})))
		graphs = append(graphs, g, g.Unfused())
	}
	var src bytes.Buffer
	if err := synth.Generate(&src, synth.Config{Ops: 20000, Bundles: 300, Seed: 2}); err != nil {
		t.Fatal(err)
	}
	graphs = append(graphs, checked(t, src.Bytes()))
	small := 0 // bundles with fewer accesses than a quarter of the groups
	for gi, g := range graphs {
		for _, b := range g.Bundles {
			n := 0
			for _, op := range b.Ops {
				n += len(g.OpAccesses(&op))
			}
			if 4*n < len(g.Groups) {
				small++
			}
		}
		p := planner.Plan(g, planner.Options{Budget: planner.DefaultBudget})
		for _, opt := range allForms {
			for _, w := range []int{1, 2} {
				opt.Workers = w
				var dense, tab bytes.Buffer
				noTables := opt
				noTables.tune = &tuning{jobOps: defaultTuning.jobOps, bigOps: defaultTuning.bigOps,
					chunkOps: defaultTuning.chunkOps, declChunk: defaultTuning.declChunk, noGroupTables: true}
				if err := EmitAll(&dense, p, noTables); err != nil {
					t.Fatal(err)
				}
				if err := EmitAll(&tab, p, opt); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(dense.Bytes(), tab.Bytes()) {
					t.Fatalf("graph %d %+v: output with group tables differs\n%s", gi, opt, firstDiff(dense.String(), tab.String()))
				}
			}
		}
	}
	if small < 100 {
		t.Errorf("only %d bundles touch fewer than a quarter of the groups", small)
	}
}

// TestEmitterReused: the emitters of the chunks printed come from
// emitterPool and go back to it, so that printing a graph of many small
// bundles (fusion off: a bundle, and a chunk, per op) allocates less per
// bundle than one emitter (912 bytes on amd64, its two ops' inline storage):
// a million ops allocated 950 MB of emitters, and the collector ran
// every few tens of megabytes.
func TestEmitterReused(t *testing.T) {
	var src bytes.Buffer
	if err := synth.Generate(&src, synth.Config{Ops: 4000, Bundles: 1, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	g := checked(t, src.Bytes()).Unfused()
	p := planner.Plan(g, planner.Options{Budget: planner.DefaultBudget})
	emit := func() {
		if err := EmitAll(io.Discard, p, Options{Generic: true, SDSCCache: true, Workers: 1}); err != nil {
			t.Fatal(err)
		}
	}
	emit() // the pools' and the printer's first buffers
	per := heapstat.AllocatedPerCall(1, emit) / uint64(len(g.Bundles))
	if size := uint64(unsafe.Sizeof(bundleEmitter{})); per >= size {
		t.Errorf("printing %d one-op bundles allocated %d bytes a bundle, an emitter's %d or more", len(g.Bundles), per, size)
	}
}
