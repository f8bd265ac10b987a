package ir

import (
	"testing"
	"unsafe"
)

// TestSizes: the most numerous parts of a graph keep the sizes their
// docs give (on a 64-bit platform: a string is 16 bytes there), so that
// a field added without thought shows here rather than as a million-op
// graph's memory: Name 2*4 (offset, length); Buffer 8 (name) + 8 (pos)
// + 8 (size) + 2*4 (group, view) = 32; Bundle 16 + 8 + 8 (kind) + 2*24
// (ops, loops) + 8 (body); Op 8 (name) + 8 (pos) + 4*4 (reads, loops,
// cores, kind) + 8 (accesses) = 40, with no padding (every field is
// 4-byte aligned); Access 2*4; Group 8 (size) + 8 (members) = 16 (its
// root is its first member, its claims a byte apart in
// Graph.GroupClaims); Loop 16 + 8 + 8 + 4*4 + 8; Item 2*4; CPUNode
// 16 + 8 + 4 (reads) + 8 (accesses), padded to 40. A Buffer's and an
// Op's name was a string, 16 bytes: the Name's 8 make them 8 smaller
// (from 40 and 48) and free of pointers.
func TestSizes(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("sizes are for 64-bit platforms")
	}
	for _, c := range []struct {
		what      string
		got, want uintptr
	}{
		{"Name", unsafe.Sizeof(Name{}), 8},
		{"Buffer", unsafe.Sizeof(Buffer{}), 32},
		{"Bundle", unsafe.Sizeof(Bundle{}), 88},
		{"Op", unsafe.Sizeof(Op{}), 40},
		{"Access", unsafe.Sizeof(Access{}), 8},
		{"Group", unsafe.Sizeof(Group{}), 16},
		{"Loop", unsafe.Sizeof(Loop{}), 56},
		{"Item", unsafe.Sizeof(Item{}), 8},
		{"CPUNode", unsafe.Sizeof(CPUNode{}), 40},
	} {
		if c.got != c.want {
			t.Errorf("%s is %d bytes, want %d", c.what, c.got, c.want)
		}
	}
}
