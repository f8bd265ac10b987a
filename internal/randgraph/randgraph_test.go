package randgraph_test

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/sdscgen/sdscgen/frontend"
	"github.com/sdscgen/sdscgen/internal/randgraph"
)

// TestV2Coverage: over 2000 seeds every graph passes the v2 frontend
// (whose checks include the bounds rule, alias cycles and split lengths),
// the same seed gives the same text, and the v2 constructs all occur:
// views with and without an offset, offsets that are whole sticks and
// offsets that are not, chains, 1-D and 2-D cores, split and broadcast
// accesses on multi-core ops, one op reading and writing the same
// storage, and one op reading a name twice with different steps; and the
// v3 kinds: ops with one and ops without, two ops of one kind in one
// bundle (what may share an SDSC file), graphs of one kind and graphs of
// several.
func TestV2Coverage(t *testing.T) {
	var views, atZero, aligned, unaligned, chains, cores1, cores2, split, broadcast, readWrite, twice int
	var withKind, noKind, sameKind, oneKind, manyKinds int
	for seed := int64(0); seed < 2000; seed++ {
		src := randgraph.Generate(rand.New(rand.NewSource(seed)), randgraph.Default)
		if again := randgraph.Generate(rand.New(rand.NewSource(seed)), randgraph.Default); again != src {
			t.Fatalf("seed %d: two runs differ", seed)
		}
		f, errs := frontend.Parse("r.bir", []byte(src))
		if len(errs) > 0 {
			t.Fatalf("seed %d: %v\n%s", seed, errs, src)
		}
		g, errs := frontend.Check(f)
		if len(errs) > 0 {
			t.Fatalf("seed %d: %v\n%s", seed, errs, src)
		}
		for _, b := range g.Buffers.All() {
			v := g.ViewOf(b)
			if v.Alias < 0 {
				continue
			}
			views++
			switch {
			case v.AliasOffset == 0:
				atZero++
			case v.AliasOffset%128 == 0:
				aligned++
			default:
				unaligned++
			}
			if g.Buffers.At(int(v.Alias)).View >= 0 {
				chains++
			}
		}
		switch {
		case len(g.Kinds) == 2:
			oneKind++
		case len(g.Kinds) > 2:
			manyKinds++
		}
		for _, bu := range g.Bundles {
			seen := map[int32]bool{}
			for _, op := range bu.Ops {
				if op.Kind == 0 {
					noKind++
				} else {
					withKind++
					if seen[op.Kind] {
						sameKind++
					}
					seen[op.Kind] = true
				}
				switch len(g.Cores(&op)) {
				case 1:
					cores1++
				case 2:
					cores2++
				}
				if g.Cores(&op) != nil {
					for _, a := range g.Reads(&op) {
						if g.AddressingOf(&a).Split.Present() {
							split++
						} else {
							broadcast++
						}
					}
				}
				written := map[int32]bool{}
				for _, a := range g.Writes(&op) {
					written[g.GroupOf(&a)] = true
				}
				for i, a := range g.Reads(&op) {
					if written[g.GroupOf(&a)] {
						readWrite++
					}
					for _, b := range g.Reads(&op)[:i] {
						if b.Buffer == a.Buffer && !equal(g.Strides(&a), g.Strides(&b)) {
							twice++
						}
					}
				}
			}
		}
	}
	for name, n := range map[string]int{"views": views, "views at 0": atZero, "views at whole sticks": aligned,
		"views at other offsets": unaligned, "chained views": chains, "1-D cores": cores1, "2-D cores": cores2,
		"split reads": split, "broadcast reads": broadcast, "ops reading and writing one storage": readWrite,
		"names read twice with different steps": twice, "ops with a kind": withKind, "ops without a kind": noKind,
		"ops of a kind met before in their bundle": sameKind, "graphs of one kind": oneKind, "graphs of several kinds": manyKinds} {
		if n < 20 {
			t.Errorf("%s: only %d over 2000 graphs", name, n)
		}
	}
}

func equal(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestV1: with V1 set, the text has no v2 or v3 syntax (no "+" on alias
// lines, no cores, no split, no kind) and still passes the frontend.
func TestV1(t *testing.T) {
	for seed := int64(0); seed < 500; seed++ {
		cfg := randgraph.Default
		cfg.V1 = true
		src := randgraph.Generate(rand.New(rand.NewSource(seed)), cfg)
		if strings.Contains(src, "+") || strings.Contains(src, "cores") || strings.Contains(src, "split") || strings.Contains(src, "kind") {
			t.Fatalf("seed %d: v2 syntax in a V1 graph:\n%s", seed, src)
		}
		f, errs := frontend.Parse("r.bir", []byte(src))
		if len(errs) == 0 {
			_, errs = frontend.Check(f)
		}
		if len(errs) > 0 {
			t.Fatalf("seed %d: %v\n%s", seed, errs, src)
		}
	}
}
