package main

import "runtime/debug"

// The garbage collector's settings for a compiler run, unless the user
// set GOGC or GOMEMLIMIT (Go's own variables, which then win); see
// docs/cli.md, "Resources", and BENCHMARKS.md for the measurements.
//
// A small run (an input under smallInput bytes, a real model's size)
// builds its graph and plan once and keeps them to the end, so
// collecting at every doubling of a heap of a few megabytes is wasted
// work: its heap may grow to smallGCPercent% over the live data. A
// large run keeps Go's default GOGC=100, under a soft memory limit of
// liveFactor times the input's size (at least minLimit), which stops the
// heap from doubling past what the largest runs measured need (the
// graph unfused at a million ops is about 9 times its source): a limit
// below the live data would make the collector run continuously.
const (
	smallInput     = 16 << 20
	smallGCPercent = 300
	liveFactor     = 12
	minLimit       = 256 << 20
)

// gcPercent is GOGC for an input of n bytes.
func gcPercent(n int) int {
	if n < smallInput {
		return smallGCPercent
	}
	return 100
}

// memLimit is the soft memory limit for an input of n bytes.
func memLimit(n int) int64 {
	return max(minLimit, int64(n)*liveFactor)
}

// tuneGC applies gcPercent and memLimit for an input of inputBytes
// where getenv says the user has not chosen.
func tuneGC(getenv func(string) string, inputBytes int) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent(inputBytes))
	}
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memLimit(inputBytes))
	}
}
