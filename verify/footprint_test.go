package verify

import (
	"bytes"
	"testing"

	"github.com/sdscgen/sdscgen/frontend"
	"github.com/sdscgen/sdscgen/internal/heapstat"
	"github.com/sdscgen/sdscgen/planner"
	"github.com/sdscgen/sdscgen/synth"
)

// TestDeriveFootprintAllocates: the verifier's footprint keeps 4 bytes
// a position (the node there) and 8 (the standalone bytes there), and
// uses 28 more while it derives them (the nodes with their source
// positions, 12, sorted; a 128-bit difference array, 16), plus 8 bytes a
// group (its first and last position) and 8 a bundle (the bytes pooled
// in it). Without fusion every op is a position: at 97 bytes a position
// (each node 24, its name, kind and pool bytes copied, a bundle's
// position in an int), the footprint of a million ops was 71 MB of that
// run's peak; at 52 (the pooled bytes in a second difference array, each
// node kept with its position) 62 MB. Each of the eight allocations may
// round up to a whole 8 KiB page. The footprint is the planner's,
// position by position.
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
	want := uint64(40*T + 8*groups + 8*bundles + 8*8192)
	if got := heapstat.AllocatedPerCall(4, func() { deriveFootprint(g, p) }); got > want {
		t.Errorf("deriveFootprint of %d positions, %d groups, %d bundles allocates %d bytes, want at most %d", T, groups, bundles, got, want)
	}
}
