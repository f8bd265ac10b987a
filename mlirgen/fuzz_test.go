package mlirgen

import (
	"math/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/sdscgen/sdscgen/frontend"
	"github.com/sdscgen/sdscgen/internal/randgraph"
	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/planner"
)

// FuzzParallelSameBytes: for any graph the frontend accepts, EmitAll on 2
// and 3 workers, with bundles cut into chunks of a few ops (laid out
// first, and printed while laid out), writes the sequential printer's
// bytes, in every output form, fused and unfused.
func FuzzParallelSameBytes(f *testing.F) {
	ins, _ := filepath.Glob("../golden/testdata/*/input.bir")
	for _, in := range ins {
		if src, err := os.ReadFile(in); err == nil {
			f.Add(src, uint8(3))
		}
	}
	for seed := int64(0); seed < 8; seed++ {
		cfg := randgraph.Config{Buffers: 30, Bundles: 3, MaxOps: 30, MaxDepth: 4}
		f.Add([]byte(randgraph.Generate(rand.New(rand.NewSource(seed)), cfg)), uint8(seed))
	}
	f.Fuzz(func(t *testing.T, src []byte, cut uint8) {
		file, errs := frontend.Parse("fuzz.bir", src)
		if len(errs) > 0 {
			return
		}
		g, errs := frontend.Check(file)
		if len(errs) > 0 {
			return
		}
		// Chunks of 1 to 8 ops, declarations cut every 1 to 4, every
		// bundle of more than one op cut.
		tune := sizes(4096, 1, int(cut&7)+1, int(cut>>3&3)+1)
		for _, gr := range []*ir.Graph{g, g.Unfused()} {
			if len(gr.Bundles) == 0 { // no text at all
				continue
			}
			p := planner.Plan(gr, planner.Options{Budget: planner.DefaultBudget})
			sameBytes(t, "fuzz", p, tune)
		}
	})
}
