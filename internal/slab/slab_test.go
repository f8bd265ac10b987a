package slab

import (
	"slices"
	"testing"
)

func TestGrow(t *testing.T) {
	s := make([]int, 3, 8)
	copy(s, []int{1, 2, 3})
	if g := Grow(s, 5); &g[0] != &s[0] || len(g) != 5 || g[2] != 3 {
		t.Errorf("Grow within capacity: %v, want the same array, length 5, values kept", g)
	}
	if g := GrowZero(s, 5); &g[0] != &s[0] || !slices.Equal(g, make([]int, 5)) {
		t.Errorf("GrowZero within capacity: %v, want the same array, all zero", g)
	}
	if g := Grow(s, 9); len(g) != 9 || &g[0] == &s[0] {
		t.Errorf("Grow past capacity: length %d, want a new array of 9", len(g))
	}
}

// Lists built in turn keep their values across the slab's new arrays,
// have capacity equal to length, and the list under construction moves
// with them.
func TestSlabLists(t *testing.T) {
	var c Slab[int] // zero: 16 to DefaultMax
	var lists [][]int
	for n := range 300 {
		start := c.Mark()
		for i := range n {
			c.Push(&start, n*1000+i)
			if got := c.Open(start); len(got) != i+1 || got[i] != n*1000+i {
				t.Fatalf("list %d: Open after %d pushes is %v", n, i+1, got)
			}
		}
		l := c.Cut(start)
		if n == 0 && l != nil {
			t.Fatalf("empty list cut as %v, want nil", l)
		}
		if cap(l) != len(l) {
			t.Fatalf("list %d: cap %d, len %d", n, cap(l), len(l))
		}
		lists = append(lists, l)
	}
	for n, l := range lists {
		for i, v := range l {
			if v != n*1000+i {
				t.Fatalf("list %d[%d] = %d, want %d", n, i, v, n*1000+i)
			}
		}
	}
}

// A list longer than Max gets an array of its own, by Cut and by
// CopyOf (its capacity may then exceed its length: nothing follows it).
func TestSlabLongList(t *testing.T) {
	c := Slab[int]{Max: 16}
	start := c.Mark()
	for i := range 100 {
		c.Push(&start, i)
	}
	// The list moves to arrays of 16, 2*17 = 34, 2*35 = 70 and 2*71 =
	// 142 elements: 42 spare, over an eighth of the list, so Cut copies
	// it out and builds the next list from the array's start.
	if l := c.Cut(start); len(l) != 100 || l[99] != 99 || c.Mark() != 0 {
		t.Errorf("long cut: len %d, %d elements left in the slab", len(l), c.Mark())
	}
	src := make([]int, 40)
	if l := c.CopyOf(src); len(l) != 40 || c.Mark() != 0 {
		t.Errorf("long copy: len %d, %d elements in the slab", len(l), c.Mark())
	}
	short := c.CopyOf([]int{7, 8})
	if !slices.Equal(short, []int{7, 8}) || cap(short) != 2 {
		t.Errorf("short copy %v cap %d", short, cap(short))
	}
	if p := c.One(); *p != 0 {
		t.Errorf("One = %d, want a zero element", *p)
	}
	c.Reset()
	if c.Mark() != 0 {
		t.Errorf("Reset left %d elements", c.Mark())
	}
}

// After Cut copies a long list out, its array is the next lists'
// scratch: a second long list of the same length costs its copy alone,
// not the doubling from First again, and the array's reused elements
// read zero, as a new array's do.
func TestSlabLongListReusesArray(t *testing.T) {
	var c Slab[int]
	c.Max = 16
	build := func() []int {
		start := c.Mark()
		for i := range 100 {
			c.Push(&start, i+1)
		}
		return c.Cut(start)
	}
	build()
	if allocs := testing.AllocsPerRun(10, func() { build() }); allocs != 1 {
		t.Errorf("a long list after another: %v allocations, want 1 (its copy)", allocs)
	}
	start := c.Mark()
	if e := c.Extend(&start, 100); slices.ContainsFunc(e, func(v int) bool { return v != 0 }) {
		t.Errorf("Extend on the reused array: %v, want zeros", e)
	}
}
