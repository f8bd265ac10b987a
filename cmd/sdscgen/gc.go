package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// The garbage collector's settings for a compiler run, unless the user
// set GOGC or GOMEMLIMIT (Go's own variables, which then win); see
// docs/cli.md, "Resources", and BENCHMARKS.md for the measurements.
//
// A small run (an input under smallInput bytes, a real model's size)
// builds its graph and plan once and keeps them to the end, so
// collecting at every doubling of a heap of a few megabytes is wasted
// work: its heap may grow to smallGCPercent% over the live data. A tiny
// one (under tinyInput bytes) does not collect at all unless its heap
// reaches the memory limit's floor (minLimit): it allocates a few tens
// of megabytes in all (about 15 for 10k ops, a megabyte of source), and
// the one collection GOGC=300 made there (at 12 MB) cost more, in
// pauses, write barriers and marking beside the run's own work on both
// cores, than the fresh pages it saved (BENCHMARKS.md, round 4).
//
// A large run collects under a soft memory limit in proportion to the
// input (at least minLimit). With fusion on, the live data peaks at
// about 3.4 times the source (the synthetic graphs of a million ops: the
// graph, the plan, the verifier's and the printers' scratch); the graph's
// big arrays hold no pointers, so collecting under a limit of
// fusedFactor times the input, which leaves a third of headroom, is
// cheap and keeps the peak RSS near the limit. The limit is what bounds
// the heap then, so fusedGCPercent only spares the collections of the
// early phases, while the live data is still small (measured at a
// million ops: GOGC=200 costs 10-25% less CPU than 100, at the same
// RSS). With fusion off every op is a bundle of its own and the live
// data peaks at about 5 times the source, in many small objects: Go's
// default GOGC=100 under unfusedFactor times the input leaves the heap
// room to grow, since a limit near the live data would make the
// collector run continuously.
const (
	tinyInput      = 4 << 20
	smallInput     = 16 << 20
	smallGCPercent = 300
	fusedGCPercent = 200
	fusedFactor    = 4.5
	unfusedFactor  = 12
	minLimit       = 256 << 20
)

// gcPercent is GOGC for an input of n bytes, planned with fusion off
// when unfused.
func gcPercent(n int, unfused bool) int {
	switch {
	case n < tinyInput:
		return -1 // off: only the memory limit collects
	case n < smallInput:
		return smallGCPercent
	case unfused:
		return 100
	}
	return fusedGCPercent
}

// memLimit is the soft memory limit for an input of n bytes, planned
// with fusion off when unfused.
func memLimit(n int, unfused bool) int64 {
	f := fusedFactor
	if unfused {
		f = unfusedFactor
	}
	return max(minLimit, int64(float64(n)*f))
}

// tuneGC applies gcPercent and memLimit for an input of inputBytes
// where getenv says the user has not chosen; memLimit is then also the
// floor of the limit followLive sets.
func tuneGC(getenv func(string) string, inputBytes int, unfused bool) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent(inputBytes, unfused))
	}
	if getenv("GOMEMLIMIT") == "" {
		l := memLimit(inputBytes, unfused)
		limitFloor.Store(l)
		debug.SetMemoryLimit(l)
	}
}

// The limit in proportion to the input suits graphs whose live data is
// a few times the input and mostly pointer-free arrays (few, large
// bundles). A graph of many small bundles keeps far more live, in many
// small objects full of pointers: 500k one-op bundles (45 MB of source)
// hold 220-280 MB live, over the 256 MiB floor, and the collector ran
// back to back (65 collections, 15.4 s of CPU, against 11 and 6.8 s
// with GOGC=100 and no limit). So after each collection followLive
// raises the limit to what is live plus what of it the collector must
// scan (liveLimit): a collection then costs about the scan, and comes
// only after as many bytes again have been allocated, as GOGC=100 would
// do for a heap of pointers; pointer-free arrays add nothing to it, so
// the runs the input's limit suits keep it.

// limitFloor is the limit tuneGC set last; followLive never goes under
// it. 0: tuneGC has not set one (GOMEMLIMIT is the user's).
var limitFloor atomic.Int64

// liveLimit is the memory limit for live bytes of live data, scan of
// them scannable, over the floor.
func liveLimit(floor int64, live, scan uint64) int64 {
	return max(floor, int64(min(live+scan, math.MaxInt64/2)))
}

// followLive sets the memory limit to liveLimit after every collection
// from now on, while tuneGC has set a floor.
func followLive() {
	samples := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/scan/heap:bytes"}}
	afterEachGC(func() {
		floor := limitFloor.Load()
		if floor == 0 {
			return
		}
		metrics.Read(samples)
		if samples[0].Value.Kind() != metrics.KindUint64 || samples[1].Value.Kind() != metrics.KindUint64 {
			return // a runtime without these metrics: the floor stays
		}
		debug.SetMemoryLimit(liveLimit(floor, samples[0].Value.Uint64(), samples[1].Value.Uint64()))
	})
}

// gcTick is garbage as soon as it is made: its finalizer runs after the
// next collection.
type gcTick struct{ _ [2]*int }

// afterEachGC calls f on the finalizer goroutine after each collection.
func afterEachGC(f func()) {
	runtime.SetFinalizer(&gcTick{}, func(*gcTick) {
		f()
		afterEachGC(f)
	})
}
