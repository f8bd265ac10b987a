package frontend

import (
	"bytes"
	"runtime"
	"syscall"
	"testing"
	"unsafe"
)

// threadCPU is the CPU time of the calling thread, in nanoseconds.
func threadCPU() int64 {
	var ts syscall.Timespec
	const clockThreadCPUTime = 3 // CLOCK_THREAD_CPUTIME_ID
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0)
	return ts.Nano()
}

// BenchmarkCritParseCheckReader10k is BenchmarkParseCheckReader10k with
// the caller's goroutine locked to its thread, reporting that thread's
// CPU time as crit-ms/op: the work on the parser's path, which the
// scanning and duplicate-node goroutines (on other threads) leave out.
// On a loaded machine it is steadier than the wall time, which it
// bounds from below when the other goroutines keep up.
func BenchmarkCritParseCheckReader10k(b *testing.B) {
	src := perfFile(b, "10k.bir")
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var crit int64
	for b.Loop() {
		t0 := threadCPU()
		if _, errs, err := ParseCheckReader("10k.bir", bytes.NewReader(src), len(src)); errs != nil || err != nil {
			b.Fatal(errs, err)
		}
		crit += threadCPU() - t0
	}
	b.ReportMetric(float64(crit)/1e6/float64(b.N), "crit-ms/op")
}
