package frontend

import (
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/sdscgen/sdscgen/internal/randgraph"
)

// TestCheckAndRelease: CheckAndRelease returns what Check returns, graph
// or diagnostics, on every repository .bir file (valid and invalid) and
// on random graphs, and leaves the file without its buffer declarations,
// its other declarations and its nodes.
func TestCheckAndRelease(t *testing.T) {
	var srcs [][]byte
	for _, pattern := range []string{"testdata/*/*.bir", "../golden/testdata/*/input.bir", "../examples/*.bir"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, file := range m {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			srcs = append(srcs, src)
		}
	}
	r := rand.New(rand.NewSource(5))
	for k := 0; k < 300; k++ {
		srcs = append(srcs, []byte(randgraph.Generate(r, randgraph.Config{Buffers: 20, Bundles: 6, MaxOps: 8, MaxDepth: 3})))
	}
	valid, invalid := 0, 0
	for k, src := range srcs {
		f1, errs := Parse("f.bir", src)
		if errs != nil {
			continue // a syntax error: Check is not reached
		}
		f2, _ := Parse("f.bir", src)
		g1, errs1 := Check(f1)
		g2, errs2 := CheckAndRelease(f2)
		if !reflect.DeepEqual(g1, g2) || !reflect.DeepEqual(errs1, errs2) {
			t.Fatalf("source %d: CheckAndRelease differs from Check\n%s", k, src)
		}
		if f2.Graph.Buffers != nil || f2.Graph.Decls != nil || f2.Graph.Nodes != nil {
			t.Errorf("source %d: the AST was not released", k)
		}
		if len(f1.Graph.Nodes) > 0 && f1.Graph.Nodes[0] == (Node{}) {
			t.Errorf("source %d: Check changed the file", k)
		}
		if errs1 == nil {
			valid++
		} else {
			invalid++
		}
	}
	if valid < 300 || invalid < 20 {
		t.Errorf("%d valid and %d invalid files checked", valid, invalid)
	}
}
