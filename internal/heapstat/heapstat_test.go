package heapstat

import (
	"runtime"
	"sync/atomic"
	"testing"
)

var sink []byte

// TestLiveSeesAnAllocation checks the figures move as they should: 64 MiB
// held is live, and allocated grows by at least as much; dropped, it is
// no longer live.
func TestLiveSeesAnAllocation(t *testing.T) {
	const n = 64 << 20
	base, alloc0 := LiveAndAllocated()
	sink = make([]byte, n)
	live, alloc1 := LiveAndAllocated()
	if live < base+n-n/8 {
		t.Errorf("live %d after holding %d bytes over %d", live, n, base)
	}
	if alloc1-alloc0 < n {
		t.Errorf("allocated grew by %d, want at least %d", alloc1-alloc0, n)
	}
	sink = nil
	if after := Live(); after > base+n/8 {
		t.Errorf("live %d after dropping %d bytes (was %d before)", after, n, base)
	}
}

// TestAllocatedPerCall: a call that allocates 1 MiB allocates that,
// and little more, per call.
func TestAllocatedPerCall(t *testing.T) {
	const n = 1 << 20
	got := AllocatedPerCall(4, func() { sink = make([]byte, n) })
	sink = nil
	if got < n || got > n+n/16 {
		t.Errorf("%d bytes a call, want %d and at most a sixteenth more", got, n)
	}
}

// TestSamplePeakSeesAPeak holds 64 MiB while the sampler runs, for at
// most a million yields (the sampler collects back to back: it takes a
// few): the sampler must have seen it.
func TestSamplePeakSeesAPeak(t *testing.T) {
	const n = 64 << 20
	base := Live()
	var hi atomic.Uint64
	stop := SamplePeak(&hi)
	b := make([]byte, n)
	for i := 0; i < 1e6 && hi.Load() < base+n-n/8; i++ {
		runtime.Gosched()
	}
	runtime.KeepAlive(b)
	b = nil
	stop()
	if hi.Load() < base+n-n/8 {
		t.Errorf("peak %d, want at least %d", hi.Load(), base+n-n/8)
	}
}
