// Package fresh prepares freshly made tables that are read before they
// are written.
//
// A large slice from make is, until touched, memory the kernel has not
// backed yet. Reading a page of it first maps the shared zero page; the
// first write to that page then faults a second time, copies it, and
// flushes that address from the TLB of every core running the process
// (an inter-processor interrupt, costly in a virtual machine). Hash
// tables and stamp arrays read every slot before writing it, so they
// pay that twice per page. Writing each page once when the table is
// made faults it once, for writing. On memory the process already
// backs (a reused heap span), that costs one store per page.
package fresh

import "unsafe"

// pageSize is the smallest page size of the platforms Go runs on;
// touching one element per pageSize bytes touches every page of a
// larger one too.
const pageSize = 4096

// Make returns make([]T, n) with one element per page written (the zero
// value, so the slice is as make returns it): its pages are backed for
// writing.
func Make[T any](n int) []T {
	s := make([]T, n)
	touch(s)
	return s
}

// touch writes the zero value to one element of s per page. s must hold
// only zero values: then touch changes nothing but which pages are
// backed.
func touch[T any](s []T) {
	var zero T
	k := step(int(unsafe.Sizeof(zero)))
	for i := 0; i < len(s); i += k {
		s[i] = zero
	}
}

// step is how many elements of size bytes touch advances by: a page's
// worth, at least one.
func step(size int) int {
	return max(pageSize/max(size, 1), 1)
}
