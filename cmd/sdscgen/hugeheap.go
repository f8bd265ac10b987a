package main

import (
	"runtime/debug"
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugePage is the size of a transparent huge page on x86-64 (and on
// arm64 with 4 KiB pages).
const hugePage = 2 << 20

// mapHeap maps n bytes of heap for the run ahead and asks the kernel to
// back them with transparent huge pages (see hugeHeapInput in gc.go).
// The block is allocated, never touched (fresh memory from the runtime
// is not cleared, so that costs no page), marked MADV_HUGEPAGE and
// given back: debug.FreeOSMemory collects it and releases its pages
// (untouched, they cost nothing to release), so that the runtime does
// not count them against the memory limit. The runtime keeps the
// mapping, its page allocator hands out the lowest free addresses
// first, and the mark stays on the mapping whatever the runtime does
// with its pages later. A kernel without transparent huge pages refuses
// the advice; that error is ignored, the run is the same without it.
//
// Under a limit on the address space or the data segment (ulimit -v,
// ulimit -d) it maps nothing: the block, though never touched, counts
// against them, and a refused allocation is fatal in Go.
func mapHeap(n int) {
	for _, r := range []int{unix.RLIMIT_AS, unix.RLIMIT_DATA} {
		var l unix.Rlimit
		if unix.Getrlimit(r, &l) != nil || l.Cur != unix.RLIM_INFINITY {
			return
		}
	}
	madviseHuge(make([]byte, n))
	debug.FreeOSMemory()
}

// madviseHuge marks the huge pages wholly inside b. It is a function of
// its own so that b is dead when it returns.
//
//go:noinline
func madviseHuge(b []byte) {
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	beg := (p + hugePage - 1) &^ (hugePage - 1)
	end := (p + uintptr(len(b))) &^ (hugePage - 1)
	if beg < end {
		_ = unix.Madvise(b[beg-p:end-p], unix.MADV_HUGEPAGE)
	}
}
