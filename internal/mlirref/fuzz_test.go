package mlirref

import (
	"math/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/sdscgen/sdscgen/frontend"
)

// FuzzAgainstMlirgen: for any graph the frontend accepts, mlirgen and the
// reference print the same text for every bundle, fused and unfused,
// under the three plans, in the four forms, with the sdsc_cache off and
// on. Graphs with an op on more than 64 cores are skipped (the per-core
// symbols make them slow, and the generators cover cores).
func FuzzAgainstMlirgen(f *testing.F) {
	ins, _ := filepath.Glob("../../golden/testdata/*/input.bir")
	for _, in := range ins {
		if src, err := os.ReadFile(in); err == nil {
			f.Add(src)
		}
	}
	for _, name := range []string{"empty-bodies", "derived-key-shared", "all-over-budget", "lx-only-and-zero-size"} {
		f.Add([]byte(edgePrograms[name]))
	}
	for seed := int64(0); seed < 8; seed++ {
		f.Add([]byte(cacheGraph(rand.New(rand.NewSource(seed)))))
		f.Add([]byte(symbolGraph(rand.New(rand.NewSource(seed)))))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file, errs := frontend.Parse("fuzz.bir", src)
		if errs.Len() > 0 {
			return
		}
		g, errs := frontend.Check(file)
		if errs.Len() > 0 {
			return
		}
		for bi := range g.Bundles {
			for oi := range g.Bundles[bi].Ops {
				if g.NumCores(&g.Bundles[bi].Ops[oi]) > 64 {
					return
				}
			}
		}
		compareChecked(t, "fuzz", string(src), g)
	})
}
