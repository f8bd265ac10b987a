// Package slab hands out slices carved from large shared arrays, and
// resizes scratch slices in place: the memory helpers of the frontend
// (whose AST and graph would otherwise be millions of small
// allocations), the planner, the allocators and the verifier.
package slab

// Grow returns s resized to n, reusing its array when it is large
// enough. Reused elements keep their values (see GrowZero).
func Grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// GrowZero is Grow with every element zero.
func GrowZero[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// Slab hands out single elements and exact-length slices of large shared
// arrays, doubling their size from First up to Max elements. A list is
// built in place at the end of the current array: start it with Mark,
// Push its elements and Cut it. A cut list's capacity is its length
// (s[a:b:b]), so that a consumer appending to it copies instead of
// overwriting its neighbour.
//
// The zero Slab is ready: its arrays grow from 16 to DefaultMax.
type Slab[T any] struct {
	buf   []T
	First int // the size of the first array (at least 16)
	Max   int // the size of the arrays once grown (0: DefaultMax)
}

// DefaultMax is a Slab's Max when it is 0.
const DefaultMax = 4096

func (c *Slab[T]) max() int {
	if c.Max == 0 {
		return DefaultMax
	}
	return c.Max
}

// grow starts a new array with room for at least n more elements and
// moves the last keep elements (a list under construction) to it.
func (c *Slab[T]) grow(n, keep int) {
	size := min(max(2*cap(c.buf), c.First, 16), c.max())
	buf := make([]T, keep, max(size, 2*(keep+n)))
	copy(buf, c.buf[len(c.buf)-keep:])
	c.buf = buf
}

// Reset empties c for reuse, dropping what its elements point to.
func (c *Slab[T]) Reset() {
	clear(c.buf)
	c.buf = c.buf[:0]
}

// One returns a new zero element.
func (c *Slab[T]) One() *T {
	if len(c.buf) == cap(c.buf) {
		c.grow(1, 0)
	}
	c.buf = c.buf[:len(c.buf)+1]
	return &c.buf[len(c.buf)-1]
}

// Mark starts a list.
func (c *Slab[T]) Mark() int { return len(c.buf) }

// Push appends v to the list that starts at *start, which moves when the
// list has to move to a new array.
func (c *Slab[T]) Push(start *int, v T) {
	if len(c.buf) == cap(c.buf) {
		keep := len(c.buf) - *start
		c.grow(1, keep)
		*start = 0
	}
	c.buf = append(c.buf, v)
}

// Extend appends n zero elements to the list that starts at *start and
// returns them.
func (c *Slab[T]) Extend(start *int, n int) []T {
	if cap(c.buf)-len(c.buf) < n {
		keep := len(c.buf) - *start
		c.grow(n, keep)
		*start = 0
	}
	k := len(c.buf)
	c.buf = c.buf[:k+n]
	return c.buf[k : k+n : k+n]
}

// Open returns the list pushed since start, not cut yet: it is c's to
// move until Cut (read it again after a Push or an Extend).
func (c *Slab[T]) Open(start int) []T { return c.buf[start:] }

// Cut returns the list pushed since start, nil when it is empty.
func (c *Slab[T]) Cut(start int) []T {
	if start == len(c.buf) {
		return nil
	}
	list := c.buf[start:len(c.buf):len(c.buf)]
	if len(list) > c.max() && cap(c.buf)-len(c.buf) > len(list)/8 {
		// A list longer than Max grew alone into an array about twice
		// its size (see grow): give it an exact copy instead, so that
		// what holds the list does not keep the rest. The array is
		// then scratch: the next lists are built in it again, from
		// start, instead of growing a new array from First by
		// doubling (a graph of ten bundles of 100,000 ops allocated
		// 114 MB that way for 48 MB of ops). What is past the length
		// is kept zero, as a new array's is, for Extend.
		list = append([]T(nil), list...)
		clear(c.buf[start:])
		c.buf = c.buf[:start]
	}
	return list
}

// CopyOf returns a copy of list, as Cut does.
func (c *Slab[T]) CopyOf(list []T) []T {
	if len(list) == 0 {
		return nil
	}
	if len(list) > c.max() {
		// A long list gets an array of its own, of its exact size.
		return append([]T(nil), list...)
	}
	start := c.Mark()
	copy(c.Extend(&start, len(list)), list)
	return c.Cut(start)
}
