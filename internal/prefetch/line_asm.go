//go:build amd64 || arm64

package prefetch

import "unsafe"

// Line starts loading the cache line holding p, for reading; it never
// faults, whatever p is.
//
//go:noescape
func Line(p unsafe.Pointer)
