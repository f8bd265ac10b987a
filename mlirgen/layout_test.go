package mlirgen

import (
	"bytes"
	"slices"
	"testing"

	"github.com/sdscgen/sdscgen/planner"
	"github.com/sdscgen/sdscgen/synth"
)

// TestLayoutChunks: a bundle laid out in chunks of k ops has the maps,
// declarations, arguments and results of the one-chunk layout, and its
// mark at chunk c is the state the one-op-chunk layout marks at op c*k
// (a test for any layout that splits the pass by chunks).
func TestLayoutChunks(t *testing.T) {
	var src bytes.Buffer
	if err := synth.Generate(&src, synth.Config{Ops: 700, Bundles: 3, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	p := planner.Plan(checked(t, src.Bytes()), planner.Options{Budget: planner.DefaultBudget})
	for bi := range p.Graph.Bundles {
		n := len(p.Graph.Bundles[bi].Ops)
		whole := newLayout(p, bi, 0, nil, true, nil)
		one := newLayout(p, bi, 1, nil, true, nil)
		if len(whole.marks) != 1 || whole.marks[0] != (mark{}) {
			t.Fatalf("bundle %d: one chunk's marks %v", bi, whole.marks)
		}
		if len(one.marks) != n {
			t.Fatalf("bundle %d: %d marks for %d one-op chunks", bi, len(one.marks), n)
		}
		for k := range one.marks[1:] {
			if a, b := one.marks[k], one.marks[k+1]; b.nextMap < a.nextMap || b.addrN < a.addrN || b.nextID < a.nextID || b.results < a.results {
				t.Fatalf("bundle %d: mark %d %+v after %+v", bi, k+1, b, a)
			}
		}
		for _, k := range []int{1, 2, 3, 7, 64, n - 1, n, n + 1} {
			if k < 1 {
				continue
			}
			lay := newLayout(p, bi, k, nil, true, nil)
			if lay.nArgs != whole.nArgs || lay.pooled != whole.pooled || lay.nResults != whole.nResults {
				t.Fatalf("bundle %d chunk %d: args %d pooled %v results %d, whole: %d %v %d", bi, k, lay.nArgs, lay.pooled, lay.nResults, whole.nArgs, whole.pooled, whole.nResults)
			}
			if !slices.EqualFunc(lay.maps, whole.maps, slices.Equal) {
				t.Fatalf("bundle %d chunk %d: maps %v, whole %v", bi, k, lay.maps, whole.maps)
			}
			if got, want := seqAll(&lay.mapOf), seqAll(&whole.mapOf); !slices.Equal(got, want) {
				t.Fatalf("bundle %d chunk %d: map numbers differ", bi, k)
			}
			if lay.decls.len() != whole.decls.len() {
				t.Fatalf("bundle %d chunk %d: %d declarations, whole %d", bi, k, lay.decls.len(), whole.decls.len())
			}
			for d := range lay.decls.len() {
				if a, b := lay.decl(lay.decls.at(d)), whole.decl(whole.decls.at(d)); a != b {
					t.Fatalf("bundle %d chunk %d: declaration %d %+v, whole %+v", bi, k, d, a, b)
				}
			}
			for c, m := range lay.marks {
				if m != one.marks[c*k] {
					t.Fatalf("bundle %d chunk %d: mark %d %+v, op %d's %+v", bi, k, c, m, c*k, one.marks[c*k])
				}
			}
			lay.release()
		}
		whole.release()
		one.release()
	}
}

func seqAll[T any](s *seq[T]) []T {
	var all []T
	for k := range s.len() {
		all = append(all, s.at(k))
	}
	return all
}
