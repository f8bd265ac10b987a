package main

import "runtime/debug"

// The garbage collector's settings for a compiler run, unless the user
// set GOGC or GOMEMLIMIT (Go's own variables, which then win); see
// docs/cli.md, "Resources", and BENCHMARKS.md for the measurements.
//
// A small run (an input under smallInput bytes, a real model's size)
// builds its graph and plan once and keeps them to the end, so
// collecting at every doubling of a heap of a few megabytes is wasted
// work: its heap may grow to smallGCPercent% over the live data.
//
// A large run keeps Go's default GOGC=100 under a soft memory limit in
// proportion to the input (at least minLimit). With fusion on, the live
// data peaks at about 3.4 times the source (the synthetic graphs of a
// million ops: the graph, the plan, the verifier's and the printers'
// scratch); the graph's big arrays hold no pointers, so collecting
// often under a limit of fusedFactor times the input, which leaves a
// third of headroom, costs a few per cent of CPU and keeps the peak RSS
// near the limit. With fusion off every op is a bundle of its own and
// the live data peaks at about 5 times the source, in many small
// objects: unfusedFactor leaves the heap room to grow, since a limit
// near the live data would make the collector run continuously.
const (
	smallInput     = 16 << 20
	smallGCPercent = 300
	fusedFactor    = 4.5
	unfusedFactor  = 12
	minLimit       = 256 << 20
)

// gcPercent is GOGC for an input of n bytes.
func gcPercent(n int) int {
	if n < smallInput {
		return smallGCPercent
	}
	return 100
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
// where getenv says the user has not chosen.
func tuneGC(getenv func(string) string, inputBytes int, unfused bool) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent(inputBytes))
	}
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memLimit(inputBytes, unfused))
	}
}
