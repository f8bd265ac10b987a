package frontend

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/synth"
)

// TestChunkCap checks the capacity of the node declaration chunks past
// the point where a shift of the first size overflows: the chunks double
// from 64 to nodeChunk (65536) and stay there, whatever the chunk's
// number.
func TestChunkCap(t *testing.T) {
	total := 0
	for k := range 200 {
		c := chunkCap(64, k, nodeChunk)
		want := nodeChunk
		if k < 10 { // 64<<10 == nodeChunk
			want = 64 << k
		}
		if c != want {
			t.Fatalf("chunkCap(64, %d, %d) = %d, want %d", k, nodeChunk, c, want)
		}
		if k < 57 {
			total += c
		}
	}
	// The first 57 chunks hold 64+...+32768 (65472) and 47 full chunks:
	// 3,145,664 nodes, the count past which the 58th chunk (k = 57, the
	// first for which 64<<k overflows an int) was needed.
	if total != 3145664 {
		t.Errorf("the first 57 chunks hold %d nodes, want 3145664", total)
	}
	for _, k := range []int{57, 58, 63, 64, 65, 1 << 20} {
		if c := chunkCap(64, k, nodeChunk); c != nodeChunk {
			t.Errorf("chunkCap(64, %d, %d) = %d, want %d", k, nodeChunk, c, nodeChunk)
		}
	}
	if c := chunkCap(16, 3, 100); c != 100 {
		t.Errorf("chunkCap(16, 3, 100) = %d, want 100 (128 capped)", c)
	}
	if c := chunkCap(16, 2, 100); c != 64 {
		t.Errorf("chunkCap(16, 2, 100) = %d, want 64", c)
	}
}

// TestGraphArraysTrimmed checks that the graph-wide arrays a parse grows
// hold no more than an eighth of spare capacity once the graph is built:
// the spare is never used, and on a family's 1M-op graph the spare of
// Ints after a doubling was 78 MB. The source has 80,000 accesses and
// two buffers (the last chunk of each is trimmed, see ir.Chunked), and
// a list per access, each distinct (no two are shared, see intLists),
// so that Ints grows by doubling; every other op is in a loop of its
// own, whose body (Items) and enclosing loops (LoopLists) double too.
func TestGraphArraysTrimmed(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("graph g {\n  buffer a : 1048576000\n  input a\n  buffer b : 1048576000\n  output b\n  fused f {\n")
	for i := range 20000 {
		v := 1000000 + 4*i
		op := fmt.Sprintf("op o%d cores 4 reads a split %d, a split %d, a split %d writes b split %d", i, v, v+1, v+2, v+3)
		if i%2 == 0 {
			fmt.Fprintf(&sb, "    loop l%d count 2 {\n      %s\n    }\n", i, op)
		} else {
			fmt.Fprintf(&sb, "    %s\n", op)
		}
	}
	sb.WriteString("  }\n}\n")
	src := sb.String()
	for _, known := range []bool{true, false} {
		size := 0
		if known {
			size = len(src)
		}
		g, errs, err := ParseCheckReader("t.bir", strings.NewReader(src), size)
		if errs != nil || err != nil {
			t.Fatal(errs, err)
		}
		// Each op's four splits, and the one cores list [4], each
		// after its length.
		if n := 20000*4*2 + 2; len(g.Ints) != n {
			t.Fatalf("size %d: %d ints, want %d", size, len(g.Ints), n)
		}
		if spare := cap(g.Ints) - len(g.Ints); spare > len(g.Ints)/8 {
			t.Errorf("size %d: Ints has %d ints and %d spare, more than an eighth", size, len(g.Ints), spare)
		}
		// The accesses' chunks but the last are full (see ir.Chunked).
		chunks := g.Accesses.Chunks()
		if last := chunks[len(chunks)-1]; cap(last)-len(last) > len(last)/8 {
			t.Errorf("size %d: the last chunk of Accesses has %d and %d spare, more than an eighth", size, len(last), cap(last)-len(last))
		}
		// The buffers' one chunk, of 64 at first.
		if chunks := g.Buffers.Chunks(); len(chunks) != 1 {
			t.Errorf("size %d: the buffers are in %d chunks, want 1", size, len(chunks))
		} else if last := chunks[0]; cap(last)-len(last) > len(last)/8 {
			t.Errorf("size %d: the chunk of Buffers has %d and %d spare, more than an eighth", size, len(last), cap(last)-len(last))
		}
		// A loop's body, its one op (10,000), and the bundle's body, its
		// 10,000 loops and 10,000 ops; its ops' loop list, the loop.
		if len(g.Items) != 30000 || len(g.LoopLists) != 2*10000 {
			t.Fatalf("size %d: %d items and %d loop-list words, want 30000 and 20000", size, len(g.Items), len(g.LoopLists))
		}
		if spare := cap(g.Items) - len(g.Items); spare > len(g.Items)/8 {
			t.Errorf("size %d: Items has %d and %d spare, more than an eighth", size, len(g.Items), spare)
		}
		if spare := cap(g.LoopLists) - len(g.LoopLists); spare > len(g.LoopLists)/8 {
			t.Errorf("size %d: LoopLists has %d and %d spare, more than an eighth", size, len(g.LoopLists), spare)
		}
	}
}

// TestSmallSourcePresized: a small source's Items and LoopLists are
// made at their final size, never regrown (each growth a copy and fresh
// pages), for a graph of 10,000 ops in one bundle (the most top-level
// items) of every family.
func TestSmallSourcePresized(t *testing.T) {
	for _, fam := range synth.Families {
		var src bytes.Buffer
		if err := synth.Generate(&src, synth.Config{Ops: 10000, Bundles: 1, Seed: 1, Family: fam}); err != nil {
			t.Fatal(err)
		}
		if src.Len() >= smallSource {
			t.Fatalf("%s: %d bytes, not a small source", fam, src.Len())
		}
		g, errs := ParseCheck(fam+".bir", src.Bytes())
		if errs != nil {
			t.Fatal(errs)
		}
		if n, c := len(g.Items), src.Len()/smallBytesPerItem; n > c {
			t.Errorf("%s: %d items, more than the %d made for %d bytes", fam, n, c, src.Len())
		}
		if n, c := len(g.LoopLists), src.Len()/smallBytesPerLoopWord; n > c {
			t.Errorf("%s: %d loop-list words, more than the %d made for %d bytes", fam, n, c, src.Len())
		}
	}
}

// TestBuffersNeverCopiedWhole checks that a parse allocates no array of
// all the buffers in one piece: the builder declares them into
// Graph.Buffers, an ir.Chunked, and finish leaves them there. Before,
// the builder kept them in chunks of its own and finish copied those
// into one array: 56 bytes a buffer more, in fresh pages, written under
// the collector's write barriers (a buffer holds its name); 67 MB and
// some 0.16 s of CPU for the 1.2M buffers of the 1Mx1000 graph. The
// source declares 3*ir.ChunkLen buffers; with every allocation
// profiled, no allocation site of the frontend makes objects, on
// average, as large as their array.
func TestBuffersNeverCopiedWhole(t *testing.T) {
	const n = 3 * ir.ChunkLen
	var sb strings.Builder
	sb.WriteString("graph g {\n")
	for i := range n {
		fmt.Fprintf(&sb, "  buffer t%d : 128\n", i)
	}
	sb.WriteString("  input t0\n  output t1\n  fused f {\n    op o reads t0 writes t1\n  }\n}\n")
	src := []byte(sb.String())
	whole := int64(n) * int64(unsafe.Sizeof(ir.Buffer{}))

	defer func(rate int) { runtime.MemProfileRate = rate }(runtime.MemProfileRate)
	runtime.MemProfileRate = 1
	// profile returns the allocation records of the frontend's sites,
	// as of now (a collection publishes them).
	profile := func() map[[32]uintptr]runtime.MemProfileRecord {
		runtime.GC()
		runtime.GC()
		var recs []runtime.MemProfileRecord
		for {
			k, ok := runtime.MemProfile(recs, true)
			if ok {
				recs = recs[:k]
				break
			}
			recs = make([]runtime.MemProfileRecord, k+k/4+64)
		}
		sites := make(map[[32]uintptr]runtime.MemProfileRecord)
		for _, r := range recs {
			frames := runtime.CallersFrames(r.Stack())
			for {
				f, more := frames.Next()
				if strings.HasPrefix(f.Function, "github.com/sdscgen/sdscgen/frontend.") && !strings.Contains(f.Function, ".Test") {
					sites[r.Stack0] = r
					break
				}
				if !more {
					break
				}
			}
		}
		return sites
	}
	before := profile()
	g, errs := ParseCheck("a.bir", src)
	if errs != nil {
		t.Fatal(errs)
	}
	if g.Buffers.Len() != n {
		t.Fatalf("%d buffers, want %d", g.Buffers.Len(), n)
	}
	for stack, r := range profile() {
		objs, bytes := r.AllocObjects-before[stack].AllocObjects, r.AllocBytes-before[stack].AllocBytes
		if objs > 0 && bytes/objs >= whole {
			frames := runtime.CallersFrames(r.Stack())
			f, more := frames.Next()
			for more && strings.HasPrefix(f.Function, "runtime.") {
				f, more = frames.Next()
			}
			t.Errorf("%d buffers: %s made %d objects of %d bytes on average; an array of all the buffers takes %d", n, f.Function, objs, bytes/objs, whole)
		}
	}
}
