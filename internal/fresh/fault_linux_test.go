package fresh

import (
	"runtime"
	"syscall"
	"testing"
)

// minorFaults is how many minor page faults this thread has taken
// (RUSAGE_THREAD).
func minorFaults(t *testing.T) int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1, &ru); err != nil {
		t.Fatal(err)
	}
	return ru.Minflt
}

// readThenWrite reads every page of m, then writes every page, as a hash
// table's first probes and inserts do, and returns the minor faults this
// took.
func readThenWrite(t *testing.T, m []byte) int64 {
	before := minorFaults(t)
	sum := byte(0)
	for i := 0; i < len(m); i += pageSize {
		sum += m[i]
	}
	for i := 0; i < len(m); i += pageSize {
		m[i] = sum + 1
	}
	return minorFaults(t) - before
}

// freshMap maps n bytes of new anonymous memory: nothing of it is backed
// yet, which a slice from make does not promise.
func freshMap(t *testing.T, n int) []byte {
	m, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	t.Cleanup(func() { syscall.Munmap(m) })
	return m
}

// TestTouchFaultsOncePerPage measures what Make is for (its touch): on memory read
// before it is written, every page faults twice without it (the read maps
// the zero page, the write copies it) and once with it. The check without
// touch tells whether this kernel behaves so at all (it does not with
// transparent huge pages on every mapping); if not, there is nothing to
// measure.
func TestTouchFaultsOncePerPage(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	const n = 8 << 20
	pages := int64(n / pageSize)
	if got := readThenWrite(t, freshMap(t, n)); got < pages*3/2 {
		t.Skipf("reading then writing %d fresh pages took %d faults: this kernel does not map the zero page first", pages, got)
	}
	m := freshMap(t, n)
	before := minorFaults(t)
	touch(m)
	got := minorFaults(t) - before + readThenWrite(t, m)
	if got > pages+pages/16 {
		t.Errorf("touch, then reading and writing %d fresh pages, took %d faults, want about one per page", pages, got)
	}
}
