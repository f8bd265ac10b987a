package planner_test

import (
	"testing"
	"unsafe"

	"github.com/sdscgen/sdscgen/planner"
)

// TestSizes: a plan holds a Group per storage group and a Bundle per
// bundle (per op without fusion), so their sizes are held here as
// ir.TestSizes holds the graph's: Group 8 (offset) + 3*4 (bundle,
// start, end) + 2 (reason), padded to 24; Bundle 8 (the candidates'
// span) + 2*8 (pool size, lower bound).
func TestSizes(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("sizes are for 64-bit platforms")
	}
	if n := unsafe.Sizeof(planner.Group{}); n != 24 {
		t.Errorf("Group is %d bytes, want 24", n)
	}
	if n := unsafe.Sizeof(planner.Bundle{}); n != 24 {
		t.Errorf("Bundle is %d bytes, want 24", n)
	}
}
