package planner

import (
	"math/rand"
	"testing"

	"github.com/sdscgen/sdscgen/frontend"
	"github.com/sdscgen/sdscgen/internal/randgraph"
)

// TestTouchesMatchUsage: the summary the reason rules read is Usage
// condensed. For every group of random graphs: the first reader and
// writer are the lists' first entries (-1 for none), the counts their
// lengths up to 2, the CPU flags whether the CPU lists are empty. And the
// lists are what Usage promises: strictly ascending (distinct) indices.
func TestTouchesMatchUsage(t *testing.T) {
	firstOf := func(l []int) int32 {
		if len(l) == 0 {
			return -1
		}
		return int32(l[0])
	}
	ascending := func(l []int) bool {
		for i := 1; i < len(l); i++ {
			if l[i] <= l[i-1] {
				return false
			}
		}
		return true
	}
	multi := 0
	for seed := 0; seed < 500; seed++ {
		r := rand.New(rand.NewSource(int64(seed)))
		cfg := randgraph.Config{Buffers: 2 + r.Intn(20), Bundles: 1 + r.Intn(6), MaxOps: 1 + r.Intn(8), MaxDepth: r.Intn(3)}
		src := randgraph.Generate(r, cfg)
		f, errs := frontend.Parse("t.bir", []byte(src))
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		g, errs := frontend.Check(f)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		ts := collectTouches(g)
		p := Plan(g, Options{Budget: 1 << 20})
		for gi := range g.Groups {
			u := p.Usage(gi)
			want := touches{
				reader: firstOf(u.ReadBy), writer: firstOf(u.WrittenBy),
				readers: uint8(min(len(u.ReadBy), 2)), writers: uint8(min(len(u.WrittenBy), 2)),
				cpuRead: len(u.CPUReadBy) > 0, cpuWritten: len(u.CPUWrittenBy) > 0,
			}
			if got := ts[gi]; got != want {
				t.Fatalf("seed %d, group %s: touches %+v, Usage %+v gives %+v\n%s", seed, g.GroupKey(&g.Groups[gi]), got, u, want, src)
			}
			for _, l := range [][]int{u.ReadBy, u.WrittenBy, u.CPUReadBy, u.CPUWrittenBy} {
				if !ascending(l) {
					t.Fatalf("seed %d, group %s: list %v not strictly ascending", seed, g.GroupKey(&g.Groups[gi]), l)
				}
			}
			if len(u.ReadBy) > 1 || len(u.WrittenBy) > 1 {
				multi++
			}
		}
	}
	if multi == 0 {
		t.Fatal("no group touched by two bundles: the saturation is not exercised")
	}
}
