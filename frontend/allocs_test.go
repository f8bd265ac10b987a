package frontend

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/sdscgen/sdscgen/internal/heapstat"
)

// TestParseCheckAllocsPerOp: ParseCheck allocates in chunks and slabs,
// never once per op. A graph of 4,000 ops in one bundle may allocate a
// little more than one of 1,000 (larger chunks, a larger table), but not
// 3,000 times more: the difference stays under 1,000 allocations. (An
// ir.Op built in a local and handed to a function value by address
// escaped to the heap, one allocation per op.)
func TestParseCheckAllocsPerOp(t *testing.T) {
	src := chainGraph
	allocs := func(s []byte) float64 {
		return testing.AllocsPerRun(3, func() {
			if _, errs := ParseCheck("a.bir", s); errs != nil {
				t.Fatal(errs)
			}
		})
	}
	small, large := allocs(src(1000)), allocs(src(4000))
	if large-small >= 1000 {
		t.Errorf("ParseCheck: %.0f allocations at 1,000 ops, %.0f at 4,000: about one per op", small, large)
	}
}

// TestParseCheckReaderSmallUnknownSize: a small input of unknown size
// (a pipe) allocates what the same input of known size does, besides its
// first window (unknownFirst): its accesses' chunks start small
// (ir.Chunked's first is of 64). Before, the first access sealed an empty first chunk
// and allocated (and cleared) a chunk of accChunk, 1.5 MiB, and the first
// window was of full size, 1 MiB.
func TestParseCheckReaderSmallUnknownSize(t *testing.T) {
	src := []byte("graph g {\n  buffer a : 128\n  buffer b : 128\n  input a\n  output b\n  fused f {\n    op o reads a writes b\n  }\n}\n")
	bytesOf := func(size int) uint64 {
		return heapstat.AllocatedPerCall(5, func() {
			if _, errs, err := ParseCheckReader("a.bir", bytes.NewReader(src), size); errs != nil || err != nil {
				t.Fatal(errs, err)
			}
		})
	}
	known, unknown := bytesOf(len(src)), bytesOf(0)
	// The first window of unknown size is unknownFirst; the rest may
	// differ by small chunks, not by an ir.ChunkLen of accesses.
	if extra := int64(unknown) - int64(known) - unknownFirst; extra > 64<<10 {
		t.Errorf("ParseCheckReader of a %d-byte input: %d bytes allocated with its size known, %d unknown: %d more than the first window's %d", len(src), known, unknown, extra, unknownFirst)
	}
}

// TestParseCheckSmallAllocates: a graph of a few names allocates what
// its few records take, not the first chunks a large graph needs: before,
// every graph cleared 16,384 name records (390 KB) and 4,096 buffers
// (229 KB), 637 KB for this 109-byte input; now some 20 KB (64 KiB
// allowed).
func TestParseCheckSmallAllocates(t *testing.T) {
	src := []byte("graph g {\n  buffer a : 128\n  buffer b : 128\n  input a\n  output b\n  fused f {\n    op o reads a writes b\n  }\n}\n")
	got := heapstat.AllocatedPerCall(5, func() {
		if _, errs := ParseCheck("a.bir", src); errs != nil {
			t.Fatal(errs)
		}
	})
	if got > 64<<10 {
		t.Errorf("ParseCheck of a %d-byte graph allocated %d bytes, want at most %d", len(src), got, 64<<10)
	}
}

// TestParseCheckReaderReusesWindows: ParseCheckReader reads its input
// through two windows, the spare written again once the parser is past
// the statements of its text (window.release), not through one new
// window per window's length of input. The same input scanned in line
// whole (ParseCheck's path, whose source the caller holds) allocates
// what the graph takes; the reader may allocate a few windows more, not
// the input's size again: before, 4 KiB windows over this 300 KB input
// added some 300 KB.
func TestParseCheckReaderReusesWindows(t *testing.T) {
	src := chainGraph(4000)
	inLine := pipeConfig{min: 1 << 30}
	const win = 4 << 10
	bytesOf := func(parse func()) int64 { return int64(heapstat.AllocatedPerCall(3, parse)) }
	whole := bytesOf(func() {
		if _, errs := parseCheck("a.bir", src, inLine); errs != nil {
			t.Fatal(errs)
		}
	})
	read := bytesOf(func() {
		_, errs, err := parseCheckReader("a.bir", bytes.NewReader(src), len(src), window{size: win, limit: maxSource}, inLine)
		if errs != nil || err != nil {
			t.Fatal(errs, err)
		}
	})
	if extra := read - whole; extra > 8*win {
		t.Errorf("ParseCheckReader of a %d-byte input through %d-byte windows allocated %d bytes more than ParseCheck of it in line (%d), want at most %d", len(src), win, extra, whole, 8*win)
	}
}

// chainGraph is a graph of ops ops in one bundle, each with a kind and
// two cores, reading the buffer the op before wrote: a buffer line and
// an op line per op.
func chainGraph(ops int) []byte {
	var b strings.Builder
	b.WriteString("graph g {\n  buffer t0 : 128\n  input t0\n")
	for i := 1; i <= ops; i++ {
		fmt.Fprintf(&b, "  buffer t%d : 128\n", i)
	}
	fmt.Fprintf(&b, "  output t%d\n  fused f {\n", ops)
	for i := 1; i <= ops; i++ {
		fmt.Fprintf(&b, "    op o%d kind add cores 2 reads t%d writes t%d\n", i, i-1, i)
	}
	b.WriteString("  }\n}\n")
	return []byte(b.String())
}
