package ir

import "iter"

// Chunked is an array that is never copied whole as it grows: its
// elements are kept in chunks, each allocated once, of 64 elements at
// first (or as SizeFirst says), doubling up to 65,536 (ChunkLen), and
// located by dense indices 0, 1, ..., Len()-1 as in one array.
// Graph.Accesses and Graph.Buffers are two; the frontend's builder keeps
// its other records appended one at a time (far starts, aliases, claims)
// in them too.
//
// Why: a graph-wide array built one element at a time is either grown
// by copies of itself (append's quarter steps, each into fresh pages) or
// built in chunks and joined into one array at the end: one more copy of
// the whole, into as many fresh pages again, at the moment the heap
// peaks. On the VM the benchmarks run on, a fresh page costs tens of
// microseconds to fault in, and the join of the accesses took 0.62 s of
// a 10.95 s run on the kargs family (BENCHMARKS.md, "a fourth full
// run").
//
// A run of elements appended together with Push from one start (an op's
// accesses) is always in one chunk: Slice returns it without copying.
// Finding an element's chunk costs a load from a table of one entry per
// 64 elements and a comparison or two (see chunk).
type Chunked[T any] struct {
	chunks [][]T
	starts []int32 // the index of each chunk's first element
	// slots[i] is the chunk that holds index i*slotLen, the first of
	// the chunks that may hold an index from there to the next slot's.
	slots []int32
	n     int32
	first int32 // the first chunk's capacity, if not firstChunk (SizeFirst)
}

// ChunkLen is the largest length of a Chunked's chunks, but for a chunk
// of a single run longer than it: 65,536 (768 KiB of accesses, 2 MiB of
// buffers).
const ChunkLen = 1 << chunkShift

// A chunk is at least firstChunk long (but for one that a run which did
// not fit ended early), and a slot locates the chunk of every slotLen-th
// index: its following indices are then in that chunk or the next
// (rarely one more). A slot per ChunkLen indices left chunk's search to
// walk the short first chunks, up to ten of them for an index under
// 65,536: 4 % of a 10k-op parse, where the builder looks every access's
// buffer up. The table costs 4 bytes per 64 elements.
const (
	chunkShift = 16
	firstChunk = 1 << slotShift
	slotShift  = 6
	slotLen    = 1 << slotShift
)

// ChunkedOf returns a Chunked of the elements v, in one chunk: for a
// graph that a test or a tool builds by hand.
func ChunkedOf[T any](v ...T) Chunked[T] {
	var c Chunked[T]
	c.Append(v...)
	return c
}

// SizeFirst makes the first chunk hold n elements (at most ChunkLen),
// where the caller expects about n: an array of a small graph is then
// one chunk, made once, whose elements chunk finds at once. It has no
// effect once an element is pushed.
func (c *Chunked[T]) SizeFirst(n int) {
	c.first = int32(min(max(n, firstChunk), ChunkLen))
}

// Len is the number of elements.
func (c *Chunked[T]) Len() int { return int(c.n) }

// chunk returns the chunk that holds index i (0 <= i < Len()): the slot
// of i's slotLen-aligned run names the chunk holding its first index;
// the chunks after it that start at or before i are skipped (at most
// one or two: see slotShift).
func (c *Chunked[T]) chunk(i int32) int {
	k := int(c.slots[i>>slotShift])
	for k+1 < len(c.starts) && c.starts[k+1] <= i {
		k++
	}
	return k
}

// At returns the element at index i.
func (c *Chunked[T]) At(i int) *T {
	k := c.chunk(int32(i))
	return &c.chunks[k][int32(i)-c.starts[k]]
}

// Slice returns the elements at indices off to end-1, capacity capped:
// a run Push appended together (nil when off == end).
func (c *Chunked[T]) Slice(off, end int32) []T {
	if off == end {
		return nil
	}
	k := c.chunk(off)
	s := c.starts[k]
	return c.chunks[k][off-s : end-s : end-s]
}

// InOne reports whether indices off to end-1 (off < end) are elements of
// one chunk, as a run Push appended together is: what Slice needs.
func (c *Chunked[T]) InOne(off, end int32) bool {
	if off < 0 || off >= end || end > c.n {
		return false
	}
	k := c.chunk(off)
	return end-c.starts[k] <= int32(len(c.chunks[k]))
}

// Push appends a zero element and returns it. The elements from index
// start on (start <= Len(): the run being appended) stay in one chunk:
// when the last chunk is full, they move to a new one, keeping their
// indices.
func (c *Chunked[T]) Push(start int32) *T {
	k := len(c.chunks) - 1
	if k < 0 || len(c.chunks[k]) == cap(c.chunks[k]) {
		k = c.open(start)
	}
	if c.n&(slotLen-1) == 0 {
		c.slots = append(c.slots, int32(k))
	}
	c.n++
	last := &c.chunks[k]
	*last = (*last)[:len(*last)+1]
	return &(*last)[len(*last)-1]
}

// Append appends v, in one chunk, and returns the index of its first
// element.
func (c *Chunked[T]) Append(v ...T) int32 {
	start := c.n
	for _, e := range v {
		*c.Push(start) = e
	}
	return start
}

// open gives the elements from index start on a chunk of their own with
// room for more, and returns its number: a new chunk, or the last one
// grown if they are all of it.
func (c *Chunked[T]) open(start int32) int {
	k := len(c.chunks) - 1
	var run []T
	size := firstChunk
	if c.first > 0 {
		size = int(c.first)
	}
	if k >= 0 {
		last := c.chunks[k]
		run = last[start-c.starts[k]:]
		size = min(2*cap(last), ChunkLen)
		if start == c.starts[k] {
			// The run fills the chunk: it grows in place.
			c.chunks[k] = append(make([]T, 0, max(size, 2*len(run))), run...)
			return k
		}
		c.chunks[k] = last[: start-c.starts[k] : start-c.starts[k]]
	}
	c.chunks = append(c.chunks, append(make([]T, 0, max(size, 2*len(run))), run...))
	c.starts = append(c.starts, start)
	k++
	// The slots of the run's indices now name its new chunk.
	for i := (int(start) + slotLen - 1) >> slotShift; i < len(c.slots); i++ {
		c.slots[i] = int32(k)
	}
	return k
}

// Trim trims the last chunk as Trimmed does an array (the array is
// complete: it is kept to the end of the run).
func (c *Chunked[T]) Trim() {
	if k := len(c.chunks) - 1; k >= 0 {
		c.chunks[k] = Trimmed(c.chunks[k])
	}
}

// Chunks returns the chunks, in index order: the array whole, for a pass
// over every element. The caller may change the elements, not the
// slices.
func (c *Chunked[T]) Chunks() [][]T { return c.chunks }

// All yields every index and a pointer to its element, in order.
func (c *Chunked[T]) All() iter.Seq2[int, *T] {
	return func(yield func(int, *T) bool) {
		for k, ch := range c.chunks {
			for j := range ch {
				if !yield(int(c.starts[k])+j, &ch[j]) {
					return
				}
			}
		}
	}
}
