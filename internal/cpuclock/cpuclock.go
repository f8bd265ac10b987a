// Package cpuclock reports process CPU time in benchmarks: on a shared,
// loaded machine it is steadier than wall time, so BENCHMARKS.md quotes it.
package cpuclock

import (
	"syscall"
	"testing"
	"time"
)

// Now is the process's user+system CPU time so far (GC included).
func Now() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Measure runs f (which should loop b.N times) and reports its CPU time
// per iteration as the metric cpu-ms/op.
func Measure(b *testing.B, f func()) {
	c0 := Now()
	f()
	b.ReportMetric(float64(Now()-c0)/1e6/float64(b.N), "cpu-ms/op")
}
