package frontend

import (
	"hash/maphash"
	"unsafe"

	"github.com/sdscgen/sdscgen/internal/fresh"
	"github.com/sdscgen/sdscgen/internal/prefetch"
	"github.com/sdscgen/sdscgen/ir"
)

// The checker's storage. A million-op graph names about 2.5 million
// things and has some 3 million operands; a Go map per namespace and a
// small allocation per list made name lookups, allocation and the
// garbage collector's marking most of Check's cost. What follows stores
// them in a few large arrays instead.

// nameTable interns names: it gives every distinct name an id, in order
// of first appearance, and keeps per id what the name is bound to. It is
// an open-addressing table with linear probing whose slots hold an id
// and the low 32 bits of its name's hash (8 bytes each, half a slot that
// also held the name's first bytes: on a 1M-op graph the slots were 32
// MB and the records 24); a probe compares the hash bits in the slot,
// then loads the id's record and compares the name's bytes only when
// they agree. (Slots of the id alone, 4 bytes, loaded the record, a
// cache miss in a table larger than the caches, at every probe: on the
// wide family's graph, 2.7 million names, a third of the time the table
// took.) The records hold no pointers, so that the garbage collector
// never scans them. The names themselves are copied into the graph's
// store (ir.Graph.Names), once each: a record's ir.Name is what the
// graph's Buffer.Name of that name holds.
type nameTable struct {
	slots []uint64 // hash<<32 | id+1; 0: empty
	n     int      // ids handed out
	// entries holds the per-id records in chunks of entryChunk, so that
	// growing the table past its first chunk never copies (or holds
	// twice) the records. The first chunk starts at the table's hint (at
	// least minEntries; a large source's is whole from the start) and
	// grows by appending up to entryChunk, so that a small graph does
	// not clear 16,384 records (390 KB) for a few names: a record's
	// address (entry) is therefore valid only until the next intern.
	entries [][]nameEntry
	first   int // the first chunk's initial capacity
	// store is the graph's name store, where intern copies each new
	// name.
	store *ir.NameStore
	hasher
	// recent caches the ids of the names looked up last, by hash: an
	// op mostly reads what the op before it wrote, and a hit costs no
	// probe of the (much larger than a CPU cache) slots.
	recent [64]int32 // id+1; 0: none
}

// nameEntry is what one name is bound to. A name may be a buffer and the
// source of a rename at once: a rename shadows a buffer of its name.
// (Node names are a namespace of their own, kept apart: see
// builder.node.)
type nameEntry struct {
	ref  ir.Name // the name, in the graph's store
	hash uint32  // the low 32 bits of the name's hash
	buf  int32   // index of the buffer of that name, or -1
	ren  int32   // index of the effective rename from it, or -1
}

const (
	entryShift = 14
	entryChunk = 1 << entryShift
	minEntries = 64
)

// newNameTable returns a table sized for about hint names, which copies
// the names into store: it grows (copying only the slots) when they are
// more.
func newNameTable(hint int, store *ir.NameStore) *nameTable {
	n := 1 << 10
	for 3*n < 4*hint && n < 1<<26 {
		n *= 2
	}
	return &nameTable{slots: fresh.Make[uint64](n), hasher: newHasher(), first: min(max(hint, minEntries), entryChunk), store: store}
}

// entry returns the record of id, valid until the next intern.
func (t *nameTable) entry(id int32) *nameEntry {
	return &t.entries[id>>entryShift][id&(entryChunk-1)]
}

// name returns the name of id.
func (t *nameTable) name(id int32) string { return t.store.Str(t.entry(id).ref) }

// hasher hashes names with a random seed.
type hasher struct {
	seed   maphash.Seed
	seed64 uint64
}

func newHasher() hasher {
	h := hasher{seed: maphash.MakeSeed()}
	h.seed64 = maphash.String(h.seed, "sdscgen")
	return h
}

// hash returns the hash of s: for a name of up to 8 bytes (generated
// graphs' are), splitmix64's finalizer over its bytes, its length and a
// random seed, which is much cheaper than maphash's call.
func (t *hasher) hash(s string) uint64 {
	if len(s) > 8 {
		return maphash.String(t.seed, s)
	}
	var key uint64
	for i := len(s) - 1; i >= 0; i-- {
		key = key<<8 | uint64(s[i])
	}
	x := key ^ t.seed64 ^ uint64(len(s))<<59
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// intern returns the id of s, giving it a new one (with no bindings) the
// first time it is seen. s need not outlive the call: the table keeps a
// copy.
func (t *nameTable) intern(s string) int32 { return t.internHash(s, t.hash(s)) }

// prefetch returns the hash of s after asking the CPU to load the slot
// where its probe starts, so that a lookup of s a little later finds it
// cached (see builder.prefetch).
func (t *nameTable) prefetch(s string) uint64 {
	h := t.hash(s)
	prefetch.Line(unsafe.Pointer(&t.slots[uint32(h)&uint32(len(t.slots)-1)]))
	return h
}

// internHash is intern(s) given h, s's hash.
func (t *nameTable) internHash(s string, h uint64) int32 {
	h32 := uint32(h)
	r := &t.recent[(h>>32)&63]
	if id := *r - 1; id >= 0 {
		if e := t.entry(id); e.hash == h32 && t.store.Str(e.ref) == s {
			return id
		}
	}
	mask := uint32(len(t.slots) - 1)
	for i := h32 & mask; ; i = (i + 1) & mask {
		sl := &t.slots[i]
		if *sl == 0 {
			id := int32(t.n)
			t.n++
			if id&(entryChunk-1) == 0 {
				c := entryChunk
				if id == 0 {
					c = t.first
				}
				t.entries = append(t.entries, make([]nameEntry, 0, c))
			}
			last := &t.entries[len(t.entries)-1]
			*last = append(*last, nameEntry{ref: t.store.Add(s), hash: h32, buf: -1, ren: -1})
			*sl, *r = uint64(h32)<<32|uint64(id+1), id+1
			if 4*t.n >= 3*len(t.slots) {
				t.grow()
			}
			return id
		}
		if uint32(*sl>>32) == h32 {
			id := int32(uint32(*sl)) - 1
			if t.store.Str(t.entry(id).ref) == s {
				*r = id + 1
				return id
			}
		}
	}
}

// grow doubles the slots, placing every id again by the hash in its
// slot.
func (t *nameTable) grow() {
	old := t.slots
	t.slots = fresh.Make[uint64](2 * len(old))
	mask := uint32(len(t.slots) - 1)
	for _, v := range old {
		if v == 0 {
			continue
		}
		i := uint32(v>>32) & mask
		for t.slots[i] != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = v
	}
}
