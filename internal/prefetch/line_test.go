package prefetch

import (
	"testing"
	"unsafe"
)

// Line never faults and changes nothing: a prefetch of any address, even
// nil, is a hint (a load there would panic).
func TestLineIsAHint(t *testing.T) {
	x := []uint64{1, 2, 3}
	Line(unsafe.Pointer(&x[1]))
	Line(nil)
	if x[0] != 1 || x[1] != 2 || x[2] != 3 {
		t.Errorf("Line changed memory: %v", x)
	}
}
