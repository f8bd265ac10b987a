package mlirgen

import (
	"bytes"
	"math/rand"
	"testing"

	"github.com/sdscgen/sdscgen/frontend"
	"github.com/sdscgen/sdscgen/internal/randgraph"
	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/planner"
	"github.com/sdscgen/sdscgen/synth"
)

func checked(t *testing.T, src []byte) *ir.Graph {
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

// TestParallelSameBytes: EmitAll on several goroutines writes exactly what
// the sequential loop writes, on random graphs (fused and fusion off) and
// on synthetic ones whose bundles are batched into jobs, printed directly
// (a bundle above bigOps ops) or both, in every output form.
func TestParallelSameBytes(t *testing.T) {
	var graphs []*ir.Graph
	r := rand.New(rand.NewSource(3))
	for k := 0; k < 40; k++ {
		g := checked(t, []byte(randgraph.Generate(r, randgraph.Config{Buffers: 30, Bundles: 10, MaxOps: 8, MaxDepth: 3})))
		graphs = append(graphs, g, g.Unfused())
	}
	var src bytes.Buffer
	if err := synth.Generate(&src, synth.Config{Ops: 20000, Bundles: 300, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	g := checked(t, src.Bytes())
	graphs = append(graphs, g, g.Unfused())
	// Small thresholds mix direct bundles and batched jobs in one graph.
	j0, d0 := jobOps, bigOps
	defer func() { jobOps, bigOps = j0, d0 }()
	jobOps, bigOps = 12, 5
	direct, batched := 0, 0
	for gi, g := range graphs {
		if gi == len(graphs)-2 { // the synthetic graph: the real thresholds
			jobOps, bigOps = j0, d0
		}
		p := planner.Plan(g, planner.Options{Budget: planner.DefaultBudget})
		for lo := 0; lo < len(g.Bundles); lo++ {
			if len(g.Bundles[lo].Ops) > bigOps {
				direct++
			} else if lo+1 < len(g.Bundles) && len(g.Bundles[lo+1].Ops) <= bigOps {
				batched++
			}
		}
		for _, opt := range []Options{{}, {Generic: true}, {FrontendPoolAllocation: true}, {Addresses: true}} {
			var seq bytes.Buffer
			if err := EmitAll(&seq, p, opt); err != nil {
				t.Fatal(err)
			}
			for _, w := range []int{2, 3} {
				opt.Workers = w
				var par bytes.Buffer
				if err := EmitAll(&par, p, opt); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(seq.Bytes(), par.Bytes()) {
					t.Fatalf("graph %d, %+v: parallel output differs (%d vs %d bytes)", gi, opt, par.Len(), seq.Len())
				}
			}
		}
	}
	if direct < 4 || batched < 10 {
		t.Errorf("%d direct and %d batched jobs: the cases do not cover both", direct, batched)
	}
}
