package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestTuneGC: gcTuner.input applies the command's collector settings,
// except where the user's GOGC or GOMEMLIMIT is set (Go's own variables
// win).
func TestTuneGC(t *testing.T) {
	percent := debug.SetGCPercent(100)
	limit := debug.SetMemoryLimit(math.MaxInt64)
	defer func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}()
	read := func() (int, int64) {
		p := debug.SetGCPercent(-1)
		debug.SetGCPercent(p)
		return p, debug.SetMemoryLimit(-1) // a negative limit only reads it
	}
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	gc := newGCTuner(getenv)
	gc.mapHeap = func(int) {} // TestMapHeapOnce's
	defer gc.stop()

	// 100 MiB of input, a large run: with fusion on GOGC 200 under a
	// limit of 4.5 x 100 MiB; with it off Go's default GOGC under
	// 12 x 100 MiB, capped at 480 MiB. (This test's live heap is a few
	// megabytes, far under the limits: they are the rules' own.)
	gc.input(100<<20, false)
	if p, l := read(); p != 200 || l != 450<<20 {
		t.Errorf("100 MiB input: GOGC %d, limit %d; want 200, 450 MiB", p, l)
	}
	gc.input(100<<20, true)
	if p, l := read(); p != 100 || l != 480<<20 {
		t.Errorf("100 MiB input, fusion off: GOGC %d, limit %d; want 100, 480 MiB (the cap)", p, l)
	}
	// 4.5 x 120 MiB is 540 MiB: over the cap.
	gc.input(120<<20, false)
	if p, l := read(); p != 200 || l != 480<<20 {
		t.Errorf("120 MiB input: GOGC %d, limit %d; want 200, 480 MiB (the cap)", p, l)
	}
	// 12 x 30 MiB is 360 MiB, under it.
	gc.input(30<<20, true)
	if p, l := read(); p != 100 || l != 360<<20 {
		t.Errorf("30 MiB input, fusion off: GOGC %d, limit %d; want 100, 360 MiB", p, l)
	}
	// A 1000-byte input: a tiny run (GOGC off), the 256 MiB floor.
	gc.input(1000, false)
	if p, l := read(); p != -1 || l != 256<<20 {
		t.Errorf("1000-byte input: GOGC %d, limit %d; want off (-1), 256 MiB", p, l)
	}
	// Just under and at 4 MiB: the tiny-run boundary (fusion off too).
	gc.input(4<<20-1, true)
	if p, l := read(); p != -1 || l != 256<<20 {
		t.Errorf("4 MiB - 1 byte, fusion off: GOGC %d, limit %d; want off (-1), 256 MiB", p, l)
	}
	gc.input(4<<20, false)
	if p, _ := read(); p != 300 {
		t.Errorf("4 MiB: GOGC %d, want 300", p)
	}
	// Just under and at 16 MiB: the small-run boundary.
	gc.input(16<<20-1, false)
	if p, _ := read(); p != 300 {
		t.Errorf("16 MiB - 1 byte: GOGC %d, want 300", p)
	}
	// 4.5 x 16 MiB is 72 MiB and 12 x 16 MiB 192 MiB: both under the
	// floor.
	for unfused, percent := range map[bool]int{false: 200, true: 100} {
		gc.input(16<<20, unfused)
		if p, l := read(); p != percent || l != 256<<20 {
			t.Errorf("16 MiB, unfused %v: GOGC %d, limit %d; want %d, 256 MiB", unfused, p, l, percent)
		}
	}

	debug.SetGCPercent(100)
	debug.SetMemoryLimit(math.MaxInt64)
	// A run's environment does not change: the user's is a new run's,
	// whose tuner never sets a limit (the one above would keep its own).
	gc.stop()
	env["GOGC"], env["GOMEMLIMIT"] = "50", "1GiB"
	user := newGCTuner(getenv)
	defer user.stop()
	user.input(100<<20, false)
	if p, l := read(); p != 100 || l != math.MaxInt64 {
		t.Errorf("user's GOGC and GOMEMLIMIT: the command changed them to %d, %d", p, l)
	}
}

// TestTuneGraph: once the graph is checked, gcTuner.graph grows a fused
// run's limit by perBundleLimit (440) bytes a bundle; fusion off (whose
// limit already counts a bundle per op) and a user's GOMEMLIMIT are left
// alone.
func TestTuneGraph(t *testing.T) {
	limit := debug.SetMemoryLimit(math.MaxInt64)
	defer debug.SetMemoryLimit(limit)
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	gc := newGCTuner(getenv)
	gc.mapHeap = func(int) {} // TestMapHeapOnce's
	defer gc.stop()

	// 100 MiB of input in 1M bundles: 450 MiB (4.5 x) + 440 MB.
	gc.graph(100<<20, 1_000_000, false)
	if l := debug.SetMemoryLimit(-1); l != 450<<20+440_000_000 {
		t.Errorf("1M bundles: limit %d, want %d", l, 450<<20+440_000_000)
	}
	// 1000 bundles: 440,000 bytes more than the source's limit.
	gc.graph(100<<20, 1000, false)
	if l := debug.SetMemoryLimit(-1); l != 450<<20+440_000 {
		t.Errorf("1000 bundles: limit %d, want %d", l, 450<<20+440_000)
	}
	// 200 MiB in 1000 bundles: the cap bounds the source's share only.
	gc.graph(200<<20, 1000, false)
	if l := debug.SetMemoryLimit(-1); l != 480<<20+440_000 {
		t.Errorf("200 MiB, 1000 bundles: limit %d, want %d", l, 480<<20+440_000)
	}
	// Fusion off: 12 x 30 MiB whatever the bundles.
	gc.graph(30<<20, 1_000_000, true)
	if l := debug.SetMemoryLimit(-1); l != 360<<20 {
		t.Errorf("fusion off: limit %d, want 360 MiB", l)
	}
	// A small input keeps the 256 MiB floor, plus its bundles.
	gc.graph(1000, 10, false)
	if l := debug.SetMemoryLimit(-1); l != 256<<20+4400 {
		t.Errorf("1000 bytes, 10 bundles: limit %d, want %d", l, 256<<20+4400)
	}
	gc.stop() // as in TestTuneGC: a user's GOMEMLIMIT is a new run's
	env["GOMEMLIMIT"] = "1GiB"
	user := newGCTuner(getenv)
	defer user.stop()
	debug.SetMemoryLimit(12345 << 20)
	user.input(100<<20, false)
	user.graph(100<<20, 1_000_000, false)
	if l := debug.SetMemoryLimit(-1); l != 12345<<20 {
		t.Errorf("GOMEMLIMIT set: limit %d changed", l)
	}
}

// TestLimitFor: the limit is the rules' base until the live heap needs
// more, then a thirty-second over the live heap; and never under the
// memory the run has held.
func TestLimitFor(t *testing.T) {
	for _, c := range []struct{ base, live, held, want int64 }{
		{480 << 20, 0, 0, 480 << 20},
		{480 << 20, 400 << 20, 0, 480 << 20},           // 450 MiB of room would do
		{480 << 20, 480 << 20 * 32 / 33, 0, 480 << 20}, // a thirty-second over: the base exactly
		{480 << 20, 800 << 20, 0, 825 << 20},           // a graph larger than the cap
		{1200 << 20, 800 << 20, 0, 1200 << 20},         // the bundles' share leaves room
		{480 << 20, 430 << 20, 650 << 20, 650 << 20},   // the live data fell from its peak
		{480 << 20, 800 << 20, 820 << 20, 825 << 20},   // a thirty-second over the live heap is more
		{480 << 20, 800 << 20, 840 << 20, 840 << 20},   // the memory held is more
		{480 << 20, 100 << 20, 300 << 20, 480 << 20},   // the base is more
	} {
		if got := limitFor(c.base, c.live, c.held); got != c.want {
			t.Errorf("limitFor(%d, %d, %d) = %d, want %d", c.base, c.live, c.held, got, c.want)
		}
	}
}

// TestGCTunerFollowsLiveHeap: after a collection the tuner raises the
// limit to a thirty-second over the live heap when its base is less; when the
// live data is gone, the limit stays at the memory the run held (64 MiB
// and more), not the base: the peak is already reached. Memory released
// to the system before the tuner's first collection (as the heap mapped
// ahead is: 256 MiB, allocated, never written, dropped) is not counted.
// The waits are for the finalizer goroutine, which runs after the
// collection; the deadline is a guard only.
func TestGCTunerFollowsLiveHeap(t *testing.T) {
	limit := debug.SetMemoryLimit(math.MaxInt64)
	defer debug.SetMemoryLimit(limit)
	gc := newGCTuner(func(string) string { return "" })
	defer gc.stop()
	const base, held, mapped = 16 << 20, 64 << 20, 256 << 20
	block := make([]byte, mapped)
	runtime.KeepAlive(block)
	block = nil
	debug.FreeOSMemory()
	gc.setBase(base)
	wait := func(what string, ok func(int64) bool) {
		deadline := time.Now().Add(time.Minute)
		for {
			runtime.GC()
			l := debug.SetMemoryLimit(-1)
			if ok(l) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: the limit is still %d", what, l)
			}
			runtime.Gosched()
		}
	}
	data := make([]byte, held)
	for i := range data {
		data[i] = byte(i) // the pages are the live heap's whatever the allocator
	}
	wait("64 MiB live", func(l int64) bool { return l >= held*33/32 })
	if l := debug.SetMemoryLimit(-1); l >= mapped {
		t.Errorf("limit %d: the 256 MiB released before the first collection counted", l)
	}
	runtime.KeepAlive(data)
	data = nil
	// The tuner sets the limit with its lock held: under it, the limit
	// and what it was made of are read at once.
	deadline := time.Now().Add(time.Minute)
	for {
		runtime.GC()
		gc.mu.Lock()
		live, h, l := gc.live, gc.held, debug.SetMemoryLimit(-1)
		gc.mu.Unlock()
		if live < held {
			if h < held || l != h {
				t.Errorf("64 MiB dropped: held %d, limit %d; want the limit at the memory held, 64 MiB or more", h, l)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("64 MiB dropped: the live heap is still %d", live)
		}
		runtime.Gosched()
	}
}

// TestMapHeapOnce: the tuner maps the heap once, at the first input of
// hugeheap.MinInput (512 KiB) bytes or more. A file's size is known
// from the start: under smallInput (16 MiB) the block is
// smallHeapFactor (32) times the input (512 KiB: 16 MiB; 10 MiB: 320
// MiB), from there twice the input's memory limit (16 MiB of input has
// the 256 MiB floor as its limit, so 512 MiB: the two rules meet there;
// 100 MiB: 2 x 4.5 x 100 MiB; fusion off, 40 MiB: 2 x 12 x 40 MiB).
// A stream, whose first size is 0, is mapped for twice the limit of what
// it has given when it passes MinInput: its end is not known (512 KiB:
// 512 MiB).
func TestMapHeapOnce(t *testing.T) {
	for _, c := range []struct {
		name    string
		inputs  []int
		unfused bool
		want    int
	}{
		{"file under MinInput", []int{512<<10 - 1}, false, 0},
		{"file of MinInput", []int{512 << 10, 100 << 20}, false, 16 << 20},
		{"file of 1 MiB", []int{1 << 20}, false, 32 << 20},
		{"file of 10 MiB", []int{10 << 20}, false, 320 << 20},
		{"file of 10 MiB, fusion off", []int{10 << 20}, true, 320 << 20},
		{"file of 16 MiB", []int{16 << 20}, false, 512 << 20},
		{"file of 40 MiB, fusion off", []int{40 << 20}, true, 960 << 20},
		{"file of 100 MiB", []int{100 << 20}, false, 900 << 20},
		{"stream", []int{0, 100 << 10, 512<<10 - 1, 512 << 10, 100 << 20}, false, 512 << 20},
	} {
		var sizes []int
		gc := newGCTuner(func(string) string { return "1" }) // the user's GOGC and GOMEMLIMIT: the limits are left alone
		gc.mapHeap = func(n int) { sizes = append(sizes, n) }
		for _, n := range c.inputs {
			gc.input(n, c.unfused)
		}
		switch {
		case c.want == 0 && len(sizes) != 0:
			t.Errorf("%s: mapped %v, want nothing", c.name, sizes)
		case c.want != 0 && (len(sizes) != 1 || sizes[0] != c.want):
			t.Errorf("%s: mapped %v, want once %d MiB", c.name, sizes, c.want>>20)
		}
	}
}

// TestMapHeapNotHeld: a stream's tuner is armed before the heap is
// mapped (its first input is of 0 bytes; the mapping comes at 512 KiB),
// so a collection's tick may come while the block is dead but not yet
// released; that must not count as memory the run held, or the limit
// would rise to it for the rest of the run. Here the block is 256 MiB,
// the limit's floor, and a tick is made to see it before its release;
// with twice the limit, as the command maps, the runtime (over its
// limit) released the block before any tick in 60 s of collections
// here, but nothing orders the two.
func TestMapHeapNotHeld(t *testing.T) {
	limit := debug.SetMemoryLimit(math.MaxInt64)
	percent := debug.SetGCPercent(100)
	defer func() {
		debug.SetMemoryLimit(limit)
		debug.SetGCPercent(percent)
	}()
	const block = 256 << 20
	gc := newGCTuner(func(string) string { return "" })
	defer gc.stop()
	gc.mapHeap = func(int) {
		b := make([]byte, block)
		runtime.KeepAlive(b)
		b = nil
		// A collection and its tick while the dead block is still
		// held, then the release.
		deadline := time.Now().Add(time.Minute) // a guard only
		for {
			runtime.GC()
			gc.mu.Lock()
			h := gc.held
			gc.mu.Unlock()
			if h >= block/2 || time.Now().After(deadline) {
				break
			}
			runtime.Gosched()
		}
		debug.FreeOSMemory()
	}
	gc.input(0, false) // a stream: armed
	gc.input(512<<10, false)
	for range 3 {
		runtime.GC()
	}
	gc.mu.Lock()
	h, l := gc.held, debug.SetMemoryLimit(-1)
	gc.mu.Unlock()
	if h >= block/2 || l != minLimit {
		t.Errorf("after the mapping: held %d, limit %d; want the rules' %d: the %d-byte block, released, counted", h, l, minLimit, block)
	}
}
