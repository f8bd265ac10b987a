package mlirgen

import (
	"bytes"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/sdscgen/sdscgen/internal/randgraph"
	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/planner"
	"github.com/sdscgen/sdscgen/synth"
)

// TestStreamedChunksPrintAtReady: a chunk of ops printed the moment the
// layout reports it ready (before the layout reads a single later op),
// from the resolution the layout hands over, prints what it prints once
// the whole bundle is laid out, resolving its ops itself; ready comes for
// every chunk, in order; the chunks together are the ops' lines of the
// sequential module. So a streamed chunk reads nothing the layout fixes
// later, and the layout's resolution (%addr_K numbers included) is the
// printer's.
func TestStreamedChunksPrintAtReady(t *testing.T) {
	var graphs []*ir.Graph
	r := rand.New(rand.NewSource(17))
	for len(graphs) < 20 {
		g := checked(t, []byte(randgraph.Generate(r, randgraph.Config{Buffers: 40, Bundles: 1, MaxOps: 60, MaxDepth: 4})))
		if len(g.Bundles) == 1 {
			graphs = append(graphs, g)
		}
	}
	var src bytes.Buffer
	if err := synth.Generate(&src, synth.Config{Ops: 3000, Bundles: 1, Seed: 9}); err != nil {
		t.Fatal(err)
	}
	graphs = append(graphs, checked(t, src.Bytes()))
	streamed := 0
	for gi, g := range graphs {
		p := planner.Plan(g, planner.Options{Budget: planner.DefaultBudget})
		for _, chunk := range []int{1, 3, 64} {
			for _, generic := range []bool{false, true} {
				label := fmt.Sprintf("graph %d chunk %d generic %v", gi, chunk, generic)
				var early []string
				ready := func(lay *layout, c int, res *chunkRes) {
					if c != len(early) {
						t.Fatalf("%s: ready(%d) after %d chunks", label, c, len(early))
					}
					lay.hold(1)
					var b bytes.Buffer
					pr := newPrinter(&b)
					pr.indent = 2
					lay.chunkFn(c, lay.mapOf.len(), res, generic, (*bundleEmitter).walkChunk)(pr)
					if err := pr.flush(); err != nil {
						t.Fatal(err)
					}
					early = append(early, b.String())
				}
				lay := newLayout(p, 0, chunk, nil, ready)
				if !lay.streamed {
					lay.release()
					continue
				}
				streamed++
				if len(early) != len(lay.marks) {
					t.Fatalf("%s: %d chunks ready of %d", label, len(early), len(lay.marks))
				}
				var late []string
				for c := range lay.marks {
					end := lay.mapOf.len()
					if c+1 < len(lay.marks) {
						end = lay.marks[c+1].nextMap
					}
					lay.hold(1)
					var b bytes.Buffer
					pr := newPrinter(&b)
					pr.indent = 2
					lay.chunkFn(c, end, nil, generic, (*bundleEmitter).walkChunk)(pr)
					if err := pr.flush(); err != nil {
						t.Fatal(err)
					}
					late = append(late, b.String())
					if late[c] != early[c] {
						t.Fatalf("%s: chunk %d printed at ready differs\n%s", label, c, firstDiff(late[c], early[c]))
					}
				}
				lay.release()
				// The ops' lines of the whole module: after the last
				// declaration, before the return.
				whole := emitText(t, p, 0, Options{Generic: generic})
				end := strings.LastIndex(whole, "\t\treturn\n")
				got := strings.Join(early, "")
				if end < 0 || !strings.HasSuffix(whole[:end], got) {
					t.Fatalf("%s: the chunks are not the module's ops\n%s", label, got)
				}
			}
		}
	}
	// A layout that keeps a groupTab (a bundle touching under a
	// quarter of the groups) does not stream.
	if streamed < 60 {
		t.Errorf("only %d layouts streamed", streamed)
	}
}
