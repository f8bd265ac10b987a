package main

import "runtime/debug"

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
// of megabytes in all, and the one collection GOGC=300 made there cost
// more, in pauses, write barriers and marking beside the run's own work
// on both cores, than the fresh pages it saved.
//
// A large run collects under a soft memory limit in proportion to the
// input (at least minLimit). With fusion on, the live data peaks at a
// few times the source (the graph, the plan, the verifier's and the
// printers' scratch); the graph's big arrays hold no pointers, so
// collecting under a limit of fusedFactor times the input, which leaves
// a third of headroom, is cheap and keeps the peak RSS near the limit.
// The limit is what bounds the heap then, so fusedGCPercent only spares
// the collections of the early phases, while the live data is still
// small (less CPU than GOGC=100 at the same RSS). With fusion off every
// op is a bundle of its own and the live data is larger, in many small
// objects: Go's default GOGC=100 under unfusedFactor times the input
// leaves the heap room to grow, since a limit near the live data would
// make the collector run continuously.
//
// BENCHMARKS.md, "The collector's settings", has the measurements behind
// each constant.
const (
	tinyInput      = 4 << 20
	smallInput     = 16 << 20
	smallGCPercent = 300
	fusedGCPercent = 200
	fusedFactor    = 4.5
	unfusedFactor  = 12
	minLimit       = 256 << 20
	perBundleLimit = 440
)

// A fused graph of many small bundles is, for the collector, the graph
// of fusion off: its live data grows with the bundles (their plans,
// pools, verifier and printer records), not only with the source. Once
// the graph is checked (tuneGraph), the limit grows by perBundleLimit
// bytes a bundle: the live data's per-bundle share, the source's share
// leaving the headroom. Without it a graph of one-op bundles kept more
// live than the source's limit, and the collector ran all the time. A
// graph of few bundles (a real model; a million ops in 1 or 1000
// bundles) gains under half a megabyte: its peak is unchanged.

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

// graphLimit is the soft memory limit once the graph is checked: an
// input of n bytes planned in bundles bundles, with fusion off when
// unfused (whose limit already counts a bundle per op).
func graphLimit(n, bundles int, unfused bool) int64 {
	l := memLimit(n, unfused)
	if !unfused {
		l += int64(bundles) * perBundleLimit
	}
	return l
}

// tuneGraph applies graphLimit once the graph is checked, where getenv
// says the user has not chosen GOMEMLIMIT.
func tuneGraph(getenv func(string) string, inputBytes, bundles int, unfused bool) {
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(graphLimit(inputBytes, bundles, unfused))
	}
}

// tuneGC applies gcPercent and memLimit for an input of inputBytes
// where getenv says the user has not chosen.
func tuneGC(getenv func(string) string, inputBytes int, unfused bool) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent(inputBytes, unfused))
	}
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memLimit(inputBytes, unfused))
	}
}
