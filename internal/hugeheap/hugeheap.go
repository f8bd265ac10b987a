// Package hugeheap maps a process's heap ahead on transparent huge
// pages: the sdscgen command does it for a run of MinInput bytes of
// input or more (docs/cli.md, "Huge pages"), and the phase benchmarks
// (bench/) do it as the command does, so that they time the phases on
// the memory the command runs them on.
//
// A fresh 4 KiB page costs a page fault at its first write, and a run
// over a million ops writes some 150,000 of them (on kargs-1M a tenth of
// the command's CPU samples were in the virtual machine's page-fault
// path); a 2 MiB page costs one fault and the clearing of its bytes.
// The kernel gives huge pages only to memory marked for them unless it
// is set to give them everywhere ("always"), and the Go runtime does not
// mark its heap.
package hugeheap

import (
	"math"
	"runtime/debug"
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugePage is the size of a transparent huge page on x86-64 (and on
// arm64 with 4 KiB pages).
const hugePage = 2 << 20

// MinInput is the input size from which a run maps its heap: mapping
// and the collection that releases the block cost a few milliseconds,
// and a real model's graph (90-290 KB) ran 2-5 ms slower with it, 5,000
// synthetic ops (478 KB) 10 ms faster, 10,000 (1 MB) 30 ms. That was
// with a 512 MiB block and two collections; with a block of 32 times the
// input (cmd/sdscgen) and one, mapping from 128 KiB made 3,000 synthetic
// ops (286 KB) 6 to 9 ms faster but a real model's graph no faster
// (BENCHMARKS.md, "The collector's settings"), so the threshold stays.
const MinInput = 512 << 10

// Map maps n bytes of heap for the run ahead and asks the kernel to
// back them with transparent huge pages.
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
// The block's allocation would start a collection of its own (it
// passes the heap's goal, or a memory limit), and the release then waits
// for that one to end before it runs its own: Map turns both triggers
// off while it maps, so that one collection runs, and restores them.
// On the VM measured a collection of an almost empty heap took 0.5 to
// 6.4 ms of wall time (a throwaway program's runtime.GC calls at its
// start: its stops of the world, its workers woken): a 10k-op
// run was 0.4 to 2.1 ms faster (BENCHMARKS.md, "The collector's
// settings").
//
// Under a limit on the address space or the data segment (ulimit -v,
// ulimit -d) it maps nothing: the block, though never touched, counts
// against them, and a refused allocation is fatal in Go.
func Map(n int) {
	for _, r := range []int{unix.RLIMIT_AS, unix.RLIMIT_DATA} {
		var l unix.Rlimit
		if unix.Getrlimit(r, &l) != nil || l.Cur != unix.RLIM_INFINITY {
			return
		}
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
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
