package ir

import (
	"fmt"
	"testing"
)

// TestSpan: AddInts keeps the nil/empty distinction the old slice fields
// had, and IntList's result cannot be appended into a neighbour. Each
// list is stored after its length.
func TestSpan(t *testing.T) {
	g := &Graph{}
	absent := g.AddInts(nil)
	if absent != 0 || absent.Present() || g.IntList(absent) != nil || len(g.Ints) != 0 {
		t.Fatalf("nil: ref %d, slice %v, Ints %v", absent, g.IntList(absent), g.Ints)
	}
	a := g.AddInts([]int64{3, 4})
	empty := g.AddInts([]int64{})
	b := g.AddInts([]int64{5})
	// Ints: 2, 3, 4 (a at 1), 0 (empty at 4), 1, 5 (b at 5).
	if a != 1 || empty != 4 || b != 5 || fmt.Sprint(g.Ints) != "[2 3 4 0 1 5]" {
		t.Fatalf("refs %d %d %d, Ints %v", a, empty, b, g.Ints)
	}
	if s := g.IntList(empty); s == nil || len(s) != 0 || !empty.Present() {
		t.Errorf("empty list read back as %#v", s)
	}
	sa := g.IntList(a)
	if len(sa) != 2 || cap(sa) != 2 || sa[0] != 3 || sa[1] != 4 {
		t.Errorf("a = %v (cap %d)", sa, cap(sa))
	}
	_ = append(sa, 99)
	if len(g.IntList(empty)) != 0 || fmt.Sprint(g.IntList(b)) != "[5]" {
		t.Errorf("appending to a's slice overwrote its neighbours: %v", g.Ints)
	}
}

// TestCoreOffset: cores [2, 3], split [100, 1000]: core c has
// i0 = c mod 2, i1 = c/2 mod 3, offset 100*i0 + 1000*i1; a broadcast
// access is at 0 on every core.
func TestCoreOffset(t *testing.T) {
	g := &Graph{}
	cores := []int64{2, 3}
	var split Access
	g.SetSplit(&split, []int64{100, 1000})
	bcast := Access{}
	want := []int64{0, 100, 1000, 1100, 2000, 2100}
	for c, w := range want {
		if got := g.CoreOffset(&split, cores, c); got != w {
			t.Errorf("core %d: %d, want %d", c, got, w)
		}
		if got := g.CoreOffset(&bcast, cores, c); got != 0 {
			t.Errorf("broadcast core %d: %d", c, got)
		}
	}
	var st Access
	g.SetStrides(&st, []int64{0, 0})
	if g.HasStride(&st) || g.HasStride(&bcast) {
		t.Error("zero strides reported as a stride")
	}
	g.SetStrides(&st, []int64{0, 8})
	if !g.HasStride(&st) {
		t.Error("stride 8 not reported")
	}
}

// TestGraphArraysDouble: the graph-wide arrays the frontend appends to
// one list at a time (Ints, Items, LoopLists) double past their
// capacity: a million elements moved to a new array 20 times from 64,
// at most the final size copied in all, where append's quarter steps for
// a large slice moved Items and LoopLists 35 to 37 times (this test,
// before). Each array is appended to with lists of one or two elements
// (after its length, for Ints and LoopLists) until it has room for a
// million.
func TestGraphArraysDouble(t *testing.T) {
	const n = 1 << 20
	moves := func(name string, add func(k int), capOf func() int) {
		t.Helper()
		last, count := -1, 0
		for k := 0; capOf() < n; k++ {
			add(k)
			if c := capOf(); c != last {
				last, count = c, count+1
			}
		}
		if count > 22 {
			t.Errorf("%s: %d arrays to grow to a million elements, want at most 22 (doubling from 64)", name, count)
		}
	}
	var g Graph
	moves("Ints", func(k int) { g.AddInts([]int64{int64(k)}) }, func() int { return cap(g.Ints) })
	moves("Items", func(k int) { g.AddItems([]Item{{Op: int32(k)}, {Op: int32(k)}}) }, func() int { return cap(g.Items) })
	moves("LoopLists", func(k int) { g.AddLoopList([]int32{1, int32(k)}) }, func() int { return cap(g.LoopLists) })
}
