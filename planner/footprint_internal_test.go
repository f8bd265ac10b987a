package planner

import (
	"slices"
	"testing"

	"github.com/sdscgen/sdscgen/frontend"
)

// TestFootprintWithoutRanges: the plan JSON writer's footprint (no
// ranges) is Footprint's, without First and Last.
func TestFootprintWithoutRanges(t *testing.T) {
	g, errs := frontend.ParseCheck("g.bir", []byte(`graph g {
  buffer x : f16[1024]
  buffer y : f16[1024]
  buffer z : f16[1024]
  buffer o : f16[1024]
  input x
  output o
  fused b0 {
    op a reads x writes y
    op c reads y writes z
  }
  cpu n reads z writes y
  op d reads y writes o
}
`))
	if errs != nil {
		t.Fatal(errs)
	}
	p := Plan(g, Options{Budget: DefaultBudget})
	f, w := p.Footprint(), p.footprint(false)
	if w.First != nil || w.Last != nil || f.First == nil {
		t.Fatalf("ranges: with %v, without %v %v", f.First, w.First, w.Last)
	}
	if !slices.Equal(f.Nodes, w.Nodes) || !slices.Equal(f.Standalone, w.Standalone) || f.Peak != w.Peak ||
		f.PeakPosition != w.PeakPosition || f.NoPoolingPeak != w.NoPoolingPeak || f.ResidentPoolsPeak != w.ResidentPoolsPeak {
		t.Errorf("footprints differ: %+v, %+v", f, w)
	}
	if len(f.Nodes) != 3 || f.Peak == 0 {
		t.Errorf("footprint %+v: want three positions and a peak", f)
	}
}
