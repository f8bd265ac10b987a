package main

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestTuneGC: the command's collector settings apply, except where the
// user's GOGC or GOMEMLIMIT is set (Go's own variables win).
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

	// 100 MiB of input, a large run: with fusion on GOGC 200 under a
	// limit of 4.5 x 100 MiB; with it off Go's default GOGC under
	// 12 x 100 MiB.
	tuneGC(getenv, 100<<20, false)
	if p, l := read(); p != 200 || l != 450<<20 {
		t.Errorf("100 MiB input: GOGC %d, limit %d; want 200, 450 MiB", p, l)
	}
	tuneGC(getenv, 100<<20, true)
	if p, l := read(); p != 100 || l != 1200<<20 {
		t.Errorf("100 MiB input, fusion off: GOGC %d, limit %d; want 100, 1200 MiB", p, l)
	}
	// A 1000-byte input: a tiny run (GOGC off), the 256 MiB floor.
	tuneGC(getenv, 1000, false)
	if p, l := read(); p != -1 || l != 256<<20 {
		t.Errorf("1000-byte input: GOGC %d, limit %d; want off (-1), 256 MiB", p, l)
	}
	// Just under and at 4 MiB: the tiny-run boundary (fusion off too).
	tuneGC(getenv, 4<<20-1, true)
	if p, l := read(); p != -1 || l != 256<<20 {
		t.Errorf("4 MiB - 1 byte, fusion off: GOGC %d, limit %d; want off (-1), 256 MiB", p, l)
	}
	tuneGC(getenv, 4<<20, false)
	if p, _ := read(); p != 300 {
		t.Errorf("4 MiB: GOGC %d, want 300", p)
	}
	// Just under and at 16 MiB: the small-run boundary.
	tuneGC(getenv, 16<<20-1, false)
	if p, _ := read(); p != 300 {
		t.Errorf("16 MiB - 1 byte: GOGC %d, want 300", p)
	}
	// 4.5 x 16 MiB is 72 MiB and 12 x 16 MiB 192 MiB: both under the
	// floor.
	for unfused, percent := range map[bool]int{false: 200, true: 100} {
		tuneGC(getenv, 16<<20, unfused)
		if p, l := read(); p != percent || l != 256<<20 {
			t.Errorf("16 MiB, unfused %v: GOGC %d, limit %d; want %d, 256 MiB", unfused, p, l, percent)
		}
	}

	debug.SetGCPercent(100)
	debug.SetMemoryLimit(math.MaxInt64)
	env["GOGC"], env["GOMEMLIMIT"] = "50", "1GiB"
	tuneGC(getenv, 100<<20, false)
	if p, l := read(); p != 100 || l != math.MaxInt64 {
		t.Errorf("user's GOGC and GOMEMLIMIT: the command changed them to %d, %d", p, l)
	}
}

// TestTuneGraph: once the graph is checked, a fused run's limit grows by
// perBundleLimit (440) bytes a bundle; fusion off (whose limit already
// counts a bundle per op) and a user's GOMEMLIMIT are left alone.
func TestTuneGraph(t *testing.T) {
	limit := debug.SetMemoryLimit(math.MaxInt64)
	defer debug.SetMemoryLimit(limit)
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }

	// 100 MiB of input in 1M bundles: 450 MiB (4.5 x) + 440 MB.
	tuneGraph(getenv, 100<<20, 1_000_000, false)
	if l := debug.SetMemoryLimit(-1); l != 450<<20+440_000_000 {
		t.Errorf("1M bundles: limit %d, want %d", l, 450<<20+440_000_000)
	}
	// 1000 bundles: 440,000 bytes more than the source's limit.
	tuneGraph(getenv, 100<<20, 1000, false)
	if l := debug.SetMemoryLimit(-1); l != 450<<20+440_000 {
		t.Errorf("1000 bundles: limit %d, want %d", l, 450<<20+440_000)
	}
	// Fusion off: 12 x 100 MiB whatever the bundles.
	tuneGraph(getenv, 100<<20, 1_000_000, true)
	if l := debug.SetMemoryLimit(-1); l != 1200<<20 {
		t.Errorf("fusion off: limit %d, want 1200 MiB", l)
	}
	// A small input keeps the 256 MiB floor, plus its bundles.
	tuneGraph(getenv, 1000, 10, false)
	if l := debug.SetMemoryLimit(-1); l != 256<<20+4400 {
		t.Errorf("1000 bytes, 10 bundles: limit %d, want %d", l, 256<<20+4400)
	}
	env["GOMEMLIMIT"] = "1GiB"
	debug.SetMemoryLimit(12345 << 20)
	tuneGraph(getenv, 100<<20, 1_000_000, false)
	if l := debug.SetMemoryLimit(-1); l != 12345<<20 {
		t.Errorf("GOMEMLIMIT set: limit %d changed", l)
	}
}
