// Package bench holds the scaling benchmarks of the whole pipeline on
// synthetic graphs (package synth): Parse, Check, Plan (and the first-fit
// allocator alone), Emit, and Default (the library's share of the default
// command: compile with the verifier asynchronous, print) at 10k, 100k and 1M leaf ops in one bundle, and
// 1M ops over 1,000 bundles. It has no code of its own; see bench_test.go
// and scripts/bench.sh, and BENCHMARKS.md for the figures.
//
// Benchmarks run only with -bench; the 1M cases take seconds each and a few
// GiB of memory, so select sizes with the pattern, e.g.
//
//	go test -run '^$' -bench 'Plan/(100k|1M)$' -benchtime 3x ./bench/
package bench
