// Package heapstat reads the Go heap for the memory benchmarks: the
// bytes a full collection finds live, and the largest such figure seen
// while something runs. Only tests and benchmarks import it.
package heapstat

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
)

// Live collects garbage, then returns the bytes the collection found
// live.
func Live() uint64 {
	live, _ := LiveAndAllocated()
	return live
}

// LiveAndAllocated collects garbage, then returns the bytes the
// collection found live and every byte the process has allocated.
func LiveAndAllocated() (live, allocated uint64) {
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64(), s[1].Value.Uint64()
}

// AllocatedPerCall collects garbage, calls f runs times and returns the
// bytes allocated per call, the mean over the runs
// (runtime.MemStats.TotalAlloc's growth): for the tests that bound what
// a call allocates.
func AllocatedPerCall(runs int, f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range runs {
		f()
	}
	runtime.ReadMemStats(&after)
	return (after.TotalAlloc - before.TotalAlloc) / uint64(runs)
}

// SamplePeak records in hi the largest Live figure seen until the
// returned function is called (which waits for the sampler to finish):
// a goroutine collects back to back. The collector is otherwise kept off
// meanwhile, so that the samples, not the pacer, decide when garbage
// goes. A sample counts what was allocated while its collection ran, so
// on a busy machine it overstates, and a short peak between two samples
// can be missed.
func SamplePeak(hi *atomic.Uint64) (stop func()) {
	old := debug.SetGCPercent(-1)
	var done atomic.Bool
	var wg sync.WaitGroup
	wg.Go(func() {
		for !done.Load() {
			if v := Live(); v > hi.Load() {
				hi.Store(v)
			}
		}
	})
	return func() {
		done.Store(true)
		wg.Wait()
		debug.SetGCPercent(old)
	}
}
