package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"

	"github.com/sdscgen/sdscgen/internal/hugeheap"
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
// (up to the cap below) leaves the heap room to grow, since a limit near
// the live data would make the collector run continuously.
//
// The source's share of a run's limit is capped at capLimit
// (480 MiB: a peak RSS of about 500 MiB with what the runtime holds
// beside the heap), so that a large run's footprint does not grow with
// its input while its live data leaves room under the cap: a 133 MB
// source whose live data peaks at 410 MB ran under 571 MiB, the
// collector idle for most of it. The cap is not a promise: after each
// collection gcTuner raises the limit to liveRoom times the live heap
// when that is more (limitFor), so a graph whose live data outgrows the
// cap collects each time it has allocated a thirty-second of its live
// data instead of all the time. It was an eighth (a 229 MB source whose
// live data reached 730 MB then ran at 822 MiB, the same CPU as under
// 4.5 times its source, 983 MiB); once that graph's buffer and op
// records held no pointers (the collector marks little of its live
// data), a sixteenth cost no more CPU and took 20 MiB off its peak (584
// -> 564 MiB at 530 MB live); with its live peak down to some 490 MB
// and the printer waiting for the verifier to let go of its records
// (sdscgen's Result.held), a thirty-second took it from 502 to 488-498
// MiB, some 15 more collections and no measurable CPU. Fusion off is capped too: a million ops without fusion kept some
// 620 MiB live at their peak then (some 430 MB now), in many small
// objects, and ran at 724 MiB instead of 1148 (12 times the source) for
// 1.5 times the CPU, a tenth of what mlir-opt takes on their output.
//
// Nor does the limit ever go under the memory the run has already held
// (the most the runtime held, less what it had returned to the system,
// at the end of a collection: limitFor's held): the peak RSS is already
// that, so collecting to stay under less saves no peak and costs CPU.
// Without fusion the live data peaks while the plan is verified, then
// falls by a quarter while the MLIR is printed: under an eighth over
// that (the rule then) the collector ran some thirty times while the MLIR was printed.
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
	capLimit       = 480 << 20
	liveRoom       = 1.03125
)

// A fused graph of many small bundles is, for the collector, the graph
// of fusion off: its live data grows with the bundles (their plans,
// pools, verifier and printer records), not only with the source. Once
// the graph is checked (gcTuner.graph), the limit grows by perBundleLimit
// bytes a bundle: the live data's per-bundle share, the source's share
// leaving the headroom. Without it a graph of one-op bundles kept more
// live than the source's limit, and the collector ran all the time. A
// graph of few bundles (a real model; a million ops in 1 or 1000
// bundles) gains under half a megabyte: its peak is unchanged.

// A run of hugeheap.MinInput bytes of input or more maps its heap ahead
// with transparent huge pages (package hugeheap). The block is
// hugeHeapFactor times the run's memory limit (a small file's is less:
// smallHeapFactor, below; heapBlock has both): the live data of a graph
// that outgrows the cap reached 1.6 times it (wide-1M), and a heap that
// grew past a block of the limit's size, huge pages below and small
// ones above, cost that graph more in collection than the faults saved.
// The block is address space only: the pages a run never writes are
// never backed.
const hugeHeapFactor = 2

// A small run (under smallInput) collects seldom or never, so its heap
// grows to about what it allocates in all: 12 to 16 times its input
// with fusion on, 36 with it off, measured on 10k ops of each synth
// family. Twice its memory limit, 512 MiB, is far more address space
// than that, and the runtime pays for every page of the block at its
// allocation and release (a 512 MiB block cost a 10k-op run 3.2 to 3.4
// ms more than a 32 MiB one, each released in one collection:
// BENCHMARKS.md, "The collector's settings"). A
// file's run maps smallHeapFactor times its input when that is less:
// under smallInput, since 32 x 16 MiB is the 512 MiB floor. A stream's
// end is not known when it is mapped: it maps for its limit.
const smallHeapFactor = 32

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
	return max(minLimit, min(capLimit, int64(float64(n)*f)))
}

// heapBlock is the heap mapped ahead for an input of n bytes (so far,
// on a stream), planned with fusion off when unfused: hugeHeapFactor
// times its memory limit, or smallHeapFactor times a file's input when
// that is less.
func heapBlock(n int, unfused, stream bool) int {
	b := hugeHeapFactor * int(memLimit(n, unfused))
	if !stream {
		b = min(b, smallHeapFactor*n)
	}
	return b
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

// limitFor is the memory limit for a run whose rules give base, whose
// last collection left live bytes of live heap and which has held at most
// held bytes at the end of a collection: base, liveRoom times the live
// heap, or held, whichever is most.
func limitFor(base, live, held int64) int64 {
	return max(base, int64(float64(live)*liveRoom), held)
}

// gcTuner sets the collector for a compiler run (see the top of this
// file), where getenv says the user has not chosen GOGC or GOMEMLIMIT.
// Once it has set a limit, it keeps it at limitFor the live heap and the
// memory held after every collection until stop.
//
// The live heap is runtime/metrics' /gc/heap/live:bytes, what the last
// collection marked; the memory held is /memory/classes/total:bytes less
// /memory/classes/heap/released:bytes, what the memory limit counts (the
// heap mapped ahead, never written, is released: input forgets what was
// held before). (runtime.MemStats.HeapAlloc, read in the tick, is
// that plus what was allocated before the sweeper reached the tick:
// the peak RSS was 7 to 78 MiB higher on the 1M family graphs, 107 with
// fusion off. Importing runtime/metrics costs a run about a millisecond
// of initialization.)
type gcTuner struct {
	getenv func(string) string
	mu     sync.Mutex
	base   int64 // the limit of the rules; 0 before the first
	live   int64 // the live heap after the last collection seen
	held   int64 // the most memory held at the end of a collection
	sample []metrics.Sample
	armed  bool
	done   bool
	// mapHeap maps heap with huge pages (hugeheap.Map; tests see the
	// size); mapped says it has been called.
	mapHeap func(n int)
	mapped  bool
	// told says input has been called; stream, that its first size was
	// 0 (a stream's, which tells its size as it is read).
	told, stream bool
}

func newGCTuner(getenv func(string) string) *gcTuner {
	return &gcTuner{getenv: getenv, sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}, mapHeap: hugeheap.Map}
}

// input applies gcPercent and memLimit for an input of inputBytes; the
// first time it is told of hugeheap.MinInput bytes or more, it maps
// heapBlock bytes of heap with huge pages. A file's run tells its size
// once; a stream's first tells 0, then the bytes read so far as they
// grow.
func (t *gcTuner) input(inputBytes int, unfused bool) {
	if !t.told {
		t.told, t.stream = true, inputBytes == 0
	}
	if !t.mapped && inputBytes >= hugeheap.MinInput {
		t.mapped = true
		t.mapHeap(heapBlock(inputBytes, unfused, t.stream))
		// A stream's tuner is armed before: a tick may have counted the
		// block, dead but not yet released, as held. The setBase below
		// applies the limit again.
		t.mu.Lock()
		t.held = 0
		t.mu.Unlock()
	}
	if t.getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent(inputBytes, unfused))
	}
	t.setBase(memLimit(inputBytes, unfused))
}

// graph applies graphLimit once the graph is checked.
func (t *gcTuner) graph(inputBytes, bundles int, unfused bool) {
	t.setBase(graphLimit(inputBytes, bundles, unfused))
}

// setBase makes base the rules' limit; the first call arms the tick.
func (t *gcTuner) setBase(base int64) {
	if t.getenv("GOMEMLIMIT") != "" {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.base = base
	t.apply()
	if !t.armed {
		t.armed = true
		t.arm()
	}
}

// apply sets limitFor the base, the live heap and the memory held; t.mu
// is held.
func (t *gcTuner) apply() {
	if !t.done {
		debug.SetMemoryLimit(limitFor(t.base, t.live, t.held))
	}
}

// gcTick is unreachable as soon as it is made: its finalizer runs after
// the collection that finds it so, and makes it the next one's. (It
// holds a pointer, so it is never one of the tiny allocations, which
// share a block and whose finalizers may never run.)
type gcTick struct{ t *gcTuner }

// arm has apply run after the next collection, and after every one from
// there until stop.
func (t *gcTuner) arm() { runtime.SetFinalizer(&gcTick{t: t}, ticked) }

// ticked is a tick's finalizer: it applies the limit and makes the tick
// the next collection's.
func ticked(k *gcTick) {
	k.t.mu.Lock()
	defer k.t.mu.Unlock()
	if !k.t.done {
		metrics.Read(k.t.sample)
		if v := k.t.sample[0].Value; v.Kind() == metrics.KindUint64 {
			k.t.live = int64(v.Uint64())
		}
		total, released := k.t.sample[1].Value, k.t.sample[2].Value
		if total.Kind() == metrics.KindUint64 && released.Kind() == metrics.KindUint64 {
			k.t.held = max(k.t.held, int64(total.Uint64()-released.Uint64()))
		}
		k.t.apply()
		runtime.SetFinalizer(k, ticked)
	}
}

// stop ends the limit's updates (a test's tuner).
func (t *gcTuner) stop() {
	t.mu.Lock()
	t.done = true
	t.mu.Unlock()
}
