package verify

import (
	"bytes"
	"math"
	"slices"
	"testing"

	"github.com/sdscgen/sdscgen/frontend"
	"github.com/sdscgen/sdscgen/internal/heapstat"
	"github.com/sdscgen/sdscgen/planner"
	"github.com/sdscgen/sdscgen/synth"
)

// TestDeriveFootprintAllocates: the verifier's footprint keeps 4 bytes
// a position (the node there, sorted in place) and 8 (the standalone
// bytes there, summed in place from their changes), plus 8 bytes a group
// (its first and last position) and 8 a bundle (the bytes pooled in it)
// while it derives them. Without fusion every op is a position: at 97
// bytes a position (each node 24, its name, kind and pool bytes copied,
// a bundle's position in an int), the footprint of a million ops was 71
// MB of that run's peak; at 52 (two 128-bit difference arrays, each node
// kept with its position) 62 MB; at 40 (one) 32 MB. Each of the six
// allocations may round up to a whole 8 KiB page. The footprint is the
// planner's, position by position.
func TestDeriveFootprintAllocates(t *testing.T) {
	var src bytes.Buffer
	if err := synth.Generate(&src, synth.Config{Ops: 20000, Bundles: 200, Seed: 3, Family: "views"}); err != nil {
		t.Fatal(err)
	}
	g, errs := frontend.ParseCheck("synth.bir", src.Bytes())
	if errs != nil {
		t.Fatal(errs)
	}
	g = g.Unfused()
	p := planner.Plan(g, planner.Options{Budget: planner.DefaultBudget})
	T, groups, bundles := len(g.Bundles)+len(g.CPU), len(g.Groups), len(g.Bundles)
	if len(g.CPU) == 0 {
		t.Fatal("the graph should have CPU nodes")
	}
	w, f := deriveFootprint(g, p), p.Footprint()
	if w.peak != f.Peak || w.peakAt != f.PeakPosition || w.noPool != f.NoPoolingPeak || w.resident != f.ResidentPoolsPeak || w.len() != len(f.Nodes) {
		t.Fatalf("derived peak %d at %d, %d, %d over %d positions; the planner's %d at %d, %d, %d over %d",
			w.peak, w.peakAt, w.noPool, w.resident, w.len(), f.Peak, f.PeakPosition, f.NoPoolingPeak, f.ResidentPoolsPeak, len(f.Nodes))
	}
	for i, n := range f.Nodes {
		if w.name(i) != planner.NodeName(g, n) || w.cpu(i) != n.CPU || w.standalone[i] != f.Standalone[i] || w.pool(i) != f.Pool(i) {
			t.Fatalf("position %d: derived %q (cpu %v) %d + %d, the planner's %q (cpu %v) %d + %d",
				i, w.name(i), w.cpu(i), w.standalone[i], w.pool(i), planner.NodeName(g, n), n.CPU, f.Standalone[i], f.Pool(i))
		}
	}
	want := uint64(12*T + 8*groups + 8*bundles + 6*8192)
	if got := heapstat.AllocatedPerCall(4, func() { deriveFootprint(g, p) }); got > want {
		t.Errorf("deriveFootprint of %d positions, %d groups, %d bundles allocates %d bytes, want at most %d", T, groups, bundles, got, want)
	}
}

// TestDeriveFootprintHuge: standalone groups whose sizes add up to 2^63
// bytes or more take the 128-bit path, which saturates where the sum
// does not fit and is exact again where it falls back. Each top-level op
// is a position; x (input) is live at all five, a at 0-2, b 1-2, c 2-3,
// d 3-4 and e (output) at 4: the sums are 2^62+128, 2^63+128
// (saturated), 3*2^62+128 (saturated), 2^62+1152 and 2176, the
// planner's too.
func TestDeriveFootprintHuge(t *testing.T) {
	g, errs := frontend.ParseCheck("huge.bir", []byte(`graph g {
  buffer x : 128
  buffer a : 4611686018427387904
  buffer b : 4611686018427387904
  buffer c : 4611686018427387904
  buffer d : 1024
  buffer e : 1024
  input x
  output e
  op o0 reads x writes a
  op o1 reads a writes b
  op o2 reads a, b writes c
  op o3 reads c writes d
  op o4 reads d writes e
}
`))
	if errs != nil {
		t.Fatal(errs)
	}
	p := planner.Plan(g, planner.Options{Budget: planner.DefaultBudget})
	w, f := deriveFootprint(g, p), p.Footprint()
	want := []int64{1<<62 + 128, math.MaxInt64, math.MaxInt64, 1<<62 + 1152, 2176}
	if !slices.Equal(w.standalone, want) || !slices.Equal(f.Standalone, want) {
		t.Errorf("standalone bytes: derived %v, the planner's %v, want %v", w.standalone, f.Standalone, want)
	}
	if w.peak != math.MaxInt64 || w.peakAt != 1 || w.peak != f.Peak || w.peakAt != f.PeakPosition ||
		w.noPool != f.NoPoolingPeak || w.resident != f.ResidentPoolsPeak {
		t.Errorf("derived peak %d at %d (%d, %d); the planner's %d at %d (%d, %d)",
			w.peak, w.peakAt, w.noPool, w.resident, f.Peak, f.PeakPosition, f.NoPoolingPeak, f.ResidentPoolsPeak)
	}
}
