package ir

import (
	"math/rand"
	"slices"
	"testing"
)

// TestChunked holds Chunked to a plain slice built alongside it: runs of
// random lengths pushed one element at a time (most short, some longer
// than a chunk, so that runs move to a chunk of their own and a chunk
// grows in place), appended runs, then every element read back by index,
// every run as one slice (in one chunk), and the whole array in order;
// and ChunkedOf's arrays, of a few elements and of none.
func TestChunked(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	var c Chunked[int32]
	var ref []int32
	type run struct{ off, end int32 }
	var runs []run
	for len(ref) < 5*ChunkLen {
		n := r.Intn(9)
		switch r.Intn(200) {
		case 0:
			n = ChunkLen + r.Intn(ChunkLen)
		case 1:
			n = r.Intn(3 * ChunkLen / 2)
		}
		start := int32(c.Len())
		if r.Intn(4) == 0 {
			v := make([]int32, n)
			for i := range v {
				v[i] = int32(len(ref) + i)
			}
			if got := c.Append(v...); got != start {
				t.Fatalf("Append returned %d, want %d", got, start)
			}
		} else {
			for i := range n {
				*c.Push(start) = int32(len(ref) + i)
			}
		}
		for i := range n {
			ref = append(ref, start+int32(i))
		}
		runs = append(runs, run{start, start + int32(n)})
	}
	if c.Len() != len(ref) {
		t.Fatalf("Len %d, want %d", c.Len(), len(ref))
	}
	for i, want := range ref {
		if got := *c.At(i); got != want {
			t.Fatalf("At(%d) = %d, want %d", i, got, want)
		}
	}
	for _, rn := range runs {
		s := c.Slice(rn.off, rn.end)
		if len(s) != int(rn.end-rn.off) || cap(s) != len(s) {
			t.Fatalf("Slice(%d, %d): len %d cap %d", rn.off, rn.end, len(s), cap(s))
		}
		for i, v := range s {
			if v != ref[int(rn.off)+i] {
				t.Fatalf("Slice(%d, %d)[%d] = %d, want %d", rn.off, rn.end, i, v, ref[int(rn.off)+i])
			}
		}
		if rn.off < rn.end && !c.InOne(rn.off, rn.end) {
			t.Fatalf("run [%d, %d) not in one chunk", rn.off, rn.end)
		}
	}
	if c.InOne(0, int32(c.Len())) || c.InOne(0, int32(c.Len())+1) || c.InOne(-1, 1) || c.InOne(3, 3) {
		t.Error("InOne accepted a span across chunks, past the end, before the start or empty")
	}
	next := 0
	for i, p := range c.All() {
		if i != next || *p != ref[i] {
			t.Fatalf("All yielded %d: %d after %d elements, want %d: %d", i, *p, next, next, ref[next])
		}
		next++
	}
	if next != len(ref) {
		t.Fatalf("All yielded %d elements, want %d", next, len(ref))
	}
	if len(c.Chunks()) < 6 {
		t.Errorf("%d chunks for %d elements", len(c.Chunks()), len(ref))
	}
	for k, ch := range c.Chunks() {
		if len(ch) == 0 {
			t.Errorf("chunk %d is empty", k)
		}
	}
	c.Trim()
	chunks := c.Chunks()
	if last := chunks[len(chunks)-1]; cap(last)-len(last) > len(last)/8 {
		t.Errorf("after Trim the last chunk has %d elements and %d spare", len(last), cap(last)-len(last))
	}
	for i, want := range ref {
		if got := *c.At(i); got != want {
			t.Fatalf("after Trim, At(%d) = %d, want %d", i, got, want)
		}
	}
	of := ChunkedOf[int32](4, 5, 6)
	if s := of.Slice(0, 3); of.Len() != 3 || len(of.Chunks()) != 1 || *of.At(1) != 5 || !slices.Equal(s, []int32{4, 5, 6}) {
		t.Errorf("ChunkedOf(4, 5, 6): Len %d, %d chunks, Slice(0, 3) %v", of.Len(), len(of.Chunks()), s)
	}
	if none := ChunkedOf[int32](); none.Len() != 0 || none.Chunks() != nil {
		t.Errorf("ChunkedOf(): Len %d, %d chunks", none.Len(), len(none.Chunks()))
	}
}

// TestChunkedNeverCopiesWhole: pushing a million single-element runs
// allocates each chunk once; nothing is moved but a run that did not
// fit (none here), so the elements' arrays add up to the elements, not
// to a multiple of them as a slice that doubles does.
func TestChunkedNeverCopiesWhole(t *testing.T) {
	var c Chunked[int64]
	for i := range 1 << 20 {
		*c.Push(int32(i)) = int64(i)
	}
	total := 0
	for _, ch := range c.Chunks() {
		total += cap(ch)
	}
	if total > (1<<20)+ChunkLen {
		t.Errorf("chunks of %d elements in all for %d", total, 1<<20)
	}
	if c.Slice(5, 5) != nil {
		t.Error("an empty run is not nil")
	}
}

// TestChunkSearchShort: chunk finds an index's chunk at most two chunks
// after the one its slot names, in the short first chunks too (a slot
// per ChunkLen indices walked up to ten of them there: 4 % of a 10k-op
// parse). The elements are pushed as the builder pushes buffers (one a
// run) and accesses (short runs, some that do not fit their chunk).
func TestChunkSearchShort(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for _, maxRun := range []int{1, 9, 300} {
		var c Chunked[int64]
		for c.Len() < 3*ChunkLen {
			start := int32(c.Len())
			for range 1 + r.Intn(maxRun) {
				c.Push(start)
			}
		}
		for i := range c.Len() {
			if skipped := c.chunk(int32(i)) - int(c.slots[i>>slotShift]); skipped > 2 {
				t.Fatalf("runs up to %d: index %d is %d chunks after its slot's", maxRun, i, skipped)
			}
		}
	}
}

// TestChunkedSizeFirst: a first chunk sized for 1,000 elements holds
// them all; the next one starts a second chunk of twice that; a size
// over ChunkLen is ChunkLen, and under firstChunk is firstChunk.
func TestChunkedSizeFirst(t *testing.T) {
	var c Chunked[int64]
	c.SizeFirst(1000)
	for i := range 1000 {
		*c.Push(int32(i)) = int64(i)
	}
	if ch := c.Chunks(); len(ch) != 1 || cap(ch[0]) != 1000 {
		t.Fatalf("1000 elements: %d chunks, the first of capacity %d; want 1 of 1000", len(ch), cap(c.Chunks()[0]))
	}
	*c.Push(1000) = 1000
	if ch := c.Chunks(); len(ch) != 2 || cap(ch[1]) != 2000 || *c.At(1000) != 1000 || *c.At(999) != 999 {
		t.Fatalf("1001 elements: %d chunks, the second of capacity %d", len(ch), cap(ch[len(ch)-1]))
	}
	for _, n := range []int{1, 1 << 20} {
		var d Chunked[int64]
		d.SizeFirst(n)
		d.Push(0)
		if got, want := cap(d.Chunks()[0]), min(max(n, firstChunk), ChunkLen); got != want {
			t.Errorf("SizeFirst(%d): capacity %d, want %d", n, got, want)
		}
	}
}
