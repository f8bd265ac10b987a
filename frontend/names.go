package frontend

import (
	"hash/maphash"
	"strings"
)

// The checker's storage. A million-op graph names about 2.5 million
// things and has some 3 million operands; a Go map per namespace and a
// small allocation per list made name lookups, allocation and the
// garbage collector's marking most of Check's cost. What follows stores
// them in a few large arrays instead.

// nameTable interns names: it gives every distinct name an id, in order
// of first appearance, and keeps per id what the name is bound to. It is
// an open-addressing table with linear probing whose slots hold 32 bits
// of the name's hash beside its id, so that a probe compares strings only
// when the hashes agree.
type nameTable struct {
	slots []uint64 // hash<<32 | id+1; 0 is empty
	n     int      // ids handed out
	// entries holds the per-id records in chunks of entryChunk, so that
	// growing the table never copies (or holds twice) the records.
	entries [][]nameEntry
	arena   arena
	seed    maphash.Seed
}

// nameEntry is what one name is bound to. A name may be a buffer, the
// source of a rename and a node at once: buffers and nodes are separate
// namespaces, and a rename shadows a buffer of its name.
type nameEntry struct {
	s    string // the name, a copy owned by the graph (see arena)
	buf  int32  // index of the buffer of that name, or -1
	ren  int32  // index of the effective rename from it, or -1
	node Pos    // where the node of that name is declared; Line 0: none
}

const entryShift = 14
const entryChunk = 1 << entryShift

func newNameTable() *nameTable {
	return &nameTable{slots: make([]uint64, 1<<10), seed: maphash.MakeSeed()}
}

// entry returns the record of id.
func (t *nameTable) entry(id int32) *nameEntry {
	return &t.entries[id>>entryShift][id&(entryChunk-1)]
}

// intern returns the id of s, giving it a new one (with no bindings) the
// first time it is seen. s need not outlive the call: the table keeps a
// copy.
func (t *nameTable) intern(s string) int32 {
	h := uint32(maphash.String(t.seed, s))
	mask := uint32(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		sl := t.slots[i]
		if sl == 0 {
			id := int32(t.n)
			t.n++
			if id&(entryChunk-1) == 0 {
				t.entries = append(t.entries, make([]nameEntry, 0, entryChunk))
			}
			last := &t.entries[len(t.entries)-1]
			*last = append(*last, nameEntry{s: t.arena.copy(s), buf: -1, ren: -1})
			t.slots[i] = uint64(h)<<32 | uint64(id+1)
			if 4*t.n >= 3*len(t.slots) {
				t.grow()
			}
			return id
		}
		if uint32(sl>>32) == h {
			if id := int32(uint32(sl)) - 1; t.entry(id).s == s {
				return id
			}
		}
	}
}

// grow doubles the slots, placing every id again by its stored hash.
func (t *nameTable) grow() {
	old := t.slots
	t.slots = make([]uint64, 2*len(old))
	mask := uint32(len(t.slots) - 1)
	for _, sl := range old {
		if sl == 0 {
			continue
		}
		i := uint32(sl>>32) & mask
		for t.slots[i] != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = sl
	}
}

// arena copies names into large shared blocks: the graph's names are
// substrings of them, so that they neither keep the source alive nor
// cost an allocation each. A block is a strings.Builder grown once to
// its final capacity; the builder only ever appends, so every string
// taken from it stays unchanged.
type arena struct {
	b    *strings.Builder
	size int // capacity of the next block
}

const arenaMax = 1 << 20

func (a *arena) copy(s string) string {
	if a.b == nil || a.b.Cap()-a.b.Len() < len(s) {
		a.size = min(max(2*a.size, 4096), arenaMax)
		a.b = new(strings.Builder)
		a.b.Grow(max(a.size, len(s)))
	}
	start := a.b.Len()
	a.b.WriteString(s)
	return a.b.String()[start:]
}

// slab hands out exact-length slices of large shared arrays, doubling
// their size up to max elements. A list is built in place at the end of
// the current array: start it with mark, push its elements and cut it.
// A cut list's capacity is its length (s[a:b:b]), so that a consumer
// appending to it copies instead of overwriting its neighbour.
type slab[T any] struct {
	buf []T
	max int
}

// grow starts a new array with room for at least n more elements and
// moves the last keep elements (a list under construction) to it.
func (c *slab[T]) grow(n, keep int) {
	size := min(max(2*cap(c.buf), 16), c.max)
	buf := make([]T, keep, max(size, 2*(keep+n)))
	copy(buf, c.buf[len(c.buf)-keep:])
	c.buf = buf
}

func (c *slab[T]) mark() int { return len(c.buf) }

// push appends v to the list that starts at *start, which moves when the
// list has to move to a new array.
func (c *slab[T]) push(start *int, v T) {
	if len(c.buf) == cap(c.buf) {
		keep := len(c.buf) - *start
		c.grow(1, keep)
		*start = 0
	}
	c.buf = append(c.buf, v)
}

// extend appends n zero elements to the list that starts at *start and
// returns them.
func (c *slab[T]) extend(start *int, n int) []T {
	if cap(c.buf)-len(c.buf) < n {
		keep := len(c.buf) - *start
		c.grow(n, keep)
		*start = 0
	}
	k := len(c.buf)
	c.buf = c.buf[:k+n]
	return c.buf[k : k+n : k+n]
}

// cut returns the list pushed since start, nil when it is empty.
func (c *slab[T]) cut(start int) []T {
	if start == len(c.buf) {
		return nil
	}
	return c.buf[start:len(c.buf):len(c.buf)]
}

// copyOf returns a copy of list, as cut does.
func (c *slab[T]) copyOf(list []T) []T {
	if len(list) == 0 {
		return nil
	}
	start := c.mark()
	copy(c.extend(&start, len(list)), list)
	return c.cut(start)
}
