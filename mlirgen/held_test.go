package mlirgen

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/sdscgen/sdscgen/planner"
)

// wideOps is a graph of one fused bundle of n ops, each on cores cores
// reading 8 buffers and writing one, every access split across the cores
// (128 bytes a core): every op prints a line and an address per core and
// access, so the text is some hundreds of times the source.
func wideOps(n, cores int) []byte {
	var b strings.Builder
	b.WriteString("graph wide {\n")
	for i := range 9 {
		fmt.Fprintf(&b, "  buffer b%d : f16[%d, 64]\n", i, cores)
	}
	b.WriteString("  input b0, b1, b2, b3, b4, b5, b6, b7\n  output b8\n  fused f {\n")
	for k := range n {
		fmt.Fprintf(&b, "    op o%d cores %d reads b0 split 128, b1 split 128, b2 split 128, b3 split 128, b4 split 128, b5 split 128, b6 split 128, b7 split 128 writes b8 split 128\n", k, cores)
	}
	b.WriteString("  }\n}\n")
	return []byte(b.String())
}

// TestParallelHeldBytes: the text printed ahead of the writer is bounded
// by bytes (heldBound), not by a number of ops, when one op prints tens
// of kilobytes: a bundle printed whole as one piece (fewer ops than
// bigOps), and one cut into chunks. The output is many times the bound,
// so holding a whole piece would exceed it, and it is the sequential
// printer's, byte for byte.
func TestParallelHeldBytes(t *testing.T) {
	g := checked(t, wideOps(320, 256))
	p := planner.Plan(g, planner.Options{Budget: planner.DefaultBudget})
	var seq bytes.Buffer
	if err := EmitAll(&seq, p, Options{}); err != nil {
		t.Fatal(err)
	}
	for _, cut := range []bool{false, true} {
		tune := &defaultTuning
		if cut {
			tune = sizes(defaultTuning.jobOps, 100, 128, defaultTuning.declChunk)
		}
		if c := len(g.Bundles[0].Ops) > tune.bigOps; c != cut {
			t.Fatalf("cut %v: the bundle of %d ops is cut: %v", cut, len(g.Bundles[0].Ops), c)
		}
		for _, w := range []int{2, 4} {
			bound := heldBound(w)
			if int64(seq.Len()) < 4*bound {
				t.Fatalf("the output (%d bytes) is not several times the bound (%d)", seq.Len(), bound)
			}
			var par bytes.Buffer
			held, err := emitPipeline(&par, p, Options{Workers: w, tune: tune})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(par.Bytes(), seq.Bytes()) {
				t.Fatalf("cut %v, %d workers: output differs\n%s", cut, w, firstDiff(seq.String(), par.String()))
			}
			if held > bound || held == 0 {
				t.Errorf("cut %v, %d workers: held %d bytes of %d printed; want at most %d", cut, w, held, seq.Len(), bound)
			}
		}
	}
}
