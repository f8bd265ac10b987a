package frontend

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sdscgen/sdscgen/ir"
)

// checkInvariants verifies what package ir promises about a checked graph.
func checkInvariants(t *testing.T, g *ir.Graph) {
	t.Helper()
	inGroup := make([]int, len(g.Buffers))
	for gi, gr := range g.Groups {
		if gi > 0 && g.Groups[gi-1].Name >= gr.Name {
			t.Errorf("groups not sorted: %q before %q", g.Groups[gi-1].Name, gr.Name)
		}
		if len(gr.Members) == 0 {
			t.Errorf("empty group %q", gr.Name)
		}
		var size int64
		name := ""
		for k, m := range gr.Members {
			if k > 0 && gr.Members[k-1] >= m {
				t.Errorf("group %q members out of order", gr.Name)
			}
			inGroup[m]++
			if g.Buffers[m].Group != gi {
				t.Errorf("buffer %q in group %q says group %d", g.Buffers[m].Name, gr.Name, g.Buffers[m].Group)
			}
			size = max(size, g.Buffers[m].Size)
			if name == "" || g.Buffers[m].Name < name {
				name = g.Buffers[m].Name
			}
		}
		if size != gr.Size || name != gr.Name {
			t.Errorf("group %q: size %d name %q, want %d %q", gr.Name, gr.Size, gr.Name, size, name)
		}
	}
	for i, b := range g.Buffers {
		if inGroup[i] != 1 || b.Size < 0 || b.Size%ir.StickBytes != 0 {
			t.Errorf("buffer %q: in %d groups, size %d", b.Name, inGroup[i], b.Size)
		}
	}
	access := func(a ir.Access, loops int) {
		if a.Buffer < 0 || a.Buffer >= len(g.Buffers) || a.Group != g.Buffers[a.Buffer].Group {
			t.Errorf("bad access %+v", a)
		}
		if a.Strides != nil && len(a.Strides) != loops {
			t.Errorf("access has %d strides in %d loops", len(a.Strides), loops)
		}
	}
	for _, b := range g.Bundles {
		for k, l := range b.Loops {
			wantDepth := 1
			if l.Parent >= 0 {
				if l.Parent >= k {
					t.Errorf("loop %d has later parent %d", k, l.Parent)
					continue
				}
				wantDepth = b.Loops[l.Parent].Depth + 1
			}
			if l.Depth != wantDepth || l.Count < 1 || l.First > l.Last+1 || l.First < 0 || l.Last >= len(b.Ops) {
				t.Errorf("bad loop %d %+v", k, l)
			}
		}
		if b.Kind == ir.KindLoop && (len(b.Loops) == 0 || len(b.Body) != 1 || b.Body[0].Loop != 0) {
			t.Errorf("bare loop bundle %q is not one loop", b.Name)
		}
		for i, op := range b.Ops {
			if op.Step != i {
				t.Errorf("op %q has step %d at %d", op.Name, op.Step, i)
			}
			for d, li := range op.Loops {
				l := b.Loops[li]
				if l.Depth != d+1 || i < l.First || i > l.Last {
					t.Errorf("op %q not inside its loop %d", op.Name, li)
				}
			}
			for _, a := range op.Reads {
				access(a, len(op.Loops))
			}
			for _, a := range op.Writes {
				access(a, len(op.Loops))
			}
		}
	}
	for _, c := range g.CPU {
		for _, a := range append(append([]ir.Access{}, c.Reads...), c.Writes...) {
			access(a, 0)
			if a.Strides != nil {
				t.Errorf("cpu node %q has strides", c.Name)
			}
		}
	}
}

// TestInvariantsOnValidFiles runs the fuzz invariants on the hand-written
// valid inputs, so a plain `go test` exercises them too.
func TestInvariantsOnValidFiles(t *testing.T) {
	files, _ := filepath.Glob("testdata/valid/*.bir")
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, mustCheck(t, string(src)))
	}
	for _, src := range []string{
		"graph g { buffer x : 4 loop a count 2 { loop b count 3 { op o reads x step [1,2] } op p writes x step 4 } }",
		"graph g { buffer x : 4 buffer y : f16[2,3] alias x = y rename z -> y cpu c reads z op q reads z }",
	} {
		checkInvariants(t, mustCheck(t, src))
	}
}
