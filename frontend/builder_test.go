package frontend

import (
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/sdscgen/sdscgen/internal/randgraph"
)

// TestBuilderMatchesOldChecker: temporary oracle test.
func TestBuilderMatchesOldChecker(t *testing.T) {
	var srcs [][]byte
	for _, pattern := range []string{"testdata/*/*.bir", "../golden/testdata/*/input.bir", "../examples/*.bir"} {
		m, _ := filepath.Glob(pattern)
		for _, file := range m {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			srcs = append(srcs, src)
		}
	}
	r := rand.New(rand.NewSource(7))
	configs := []randgraph.Config{
		randgraph.Default,
		{Buffers: 3, Bundles: 2, MaxOps: 3, MaxDepth: 1},
		{Buffers: 20, Bundles: 8, MaxOps: 8, MaxDepth: 4},
	}
	for k := 0; k < 3000; k++ {
		cfg := configs[k%len(configs)]
		cfg.V1 = k%4 > 0
		src := []byte(randgraph.Generate(r, cfg))
		if cfg.V1 {
			src = addV2(r, src)
		}
		srcs = append(srcs, src)
		srcs = append(srcs, mutate(r, src), mutate(r, src), mutate(r, src))
	}
	n, bad := 0, 0
	for _, src := range srcs {
		f1, errs := Parse("f.bir", src)
		if errs != nil {
			continue
		}
		n++
		f2, _ := Parse("f.bir", src)
		g1, e1 := oldCheck(f1, false)
		g2, e2 := Check(f2)
		g3, e3 := ParseCheck("f.bir", src)
		if e1.Error() != e2.Error() || e1.Error() != e3.Error() {
			t.Fatalf("diagnostics differ\nold: %v\nnew: %v\nstream: %v\n%s", e1, e2, e3, src)
		}
		if e1 != nil {
			bad++
		}
		if !reflect.DeepEqual(g1, g2) || !reflect.DeepEqual(g1, g3) {
			t.Fatalf("graphs differ\nold: %s\nnew: %s\nstream: %s\n%s", dump(g1), dump(g2), dump(g3), src)
		}
	}
	t.Logf("%d parsed, %d with errors", n, bad)
}
