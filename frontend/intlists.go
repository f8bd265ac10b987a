package frontend

import (
	"slices"

	"github.com/sdscgen/sdscgen/ir"
)

// intLists stores each distinct int list of the graph (the `cores` of
// the ops, the `step` and `split` of the accesses) once in Graph.Ints:
// a list equal to one already stored gets that one's IntsRef. The lists
// are read-only once built, so nothing can tell a shared list from a
// copy. Graphs repeat a few lists over and over (the same split on every
// access of an op on four cores, the same strides in every loop): the
// synthetic families' 1M-op graphs have 1.1 to 4.5 million lists but
// only 31,000 to 118,000 distinct ones, and their Ints shrink from 21-88
// MB to 0.6-2.4 MB. A graph without repeats pays two to four slots (4
// bytes each; the table is at most half full) per list while the graph
// is built.
//
// The table is an open-addressing hash set of IntsRefs with linear
// probing, kept at most half full; a list's hash covers its length and
// values, from a random seed (the name table's), so that an input cannot
// be written to make its lists collide. Which list a repeat shares is
// the first one stored, whatever the hash, so the graph does not depend
// on it.
type intLists struct {
	slots []ir.IntsRef // 0: empty
	n     int          // lists stored
	seed  uint64
	// tmp is the scratch list a caller fills before add (see
	// builder.list).
	tmp []int64
}

// minIntSlots is the table's first size: a small graph has few distinct
// lists.
const minIntSlots = 256

// add returns the reference of a list equal to v in g.Ints, appending v
// (Graph.AddInts) when there is none; nil is the empty list, which is
// present too. v need not outlive the call.
func (t *intLists) add(g *ir.Graph, v []int64) ir.IntsRef {
	if v == nil {
		v = []int64{}
	}
	if 2*(t.n+1) > len(t.slots) {
		t.grow(g)
	}
	mask := len(t.slots) - 1
	for i := int(hashInts(t.seed, v)) & mask; ; i = (i + 1) & mask {
		r := t.slots[i]
		if r == 0 {
			r = g.AddInts(v)
			t.slots[i] = r
			t.n++
			return r
		}
		if slices.Equal(g.IntList(r), v) {
			return r
		}
	}
}

// grow doubles the slots (or makes the first ones), placing every list
// again.
func (t *intLists) grow(g *ir.Graph) {
	old := t.slots
	t.slots = make([]ir.IntsRef, max(2*len(old), minIntSlots))
	mask := len(t.slots) - 1
	for _, r := range old {
		if r == 0 {
			continue
		}
		i := int(hashInts(t.seed, g.IntList(r))) & mask
		for t.slots[i] != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = r
	}
}

// hashInts hashes a list's length and values from seed (splitmix64's
// mixing).
func hashInts(seed uint64, v []int64) uint64 {
	h := seed ^ uint64(len(v))*0x9e3779b97f4a7c15
	for _, x := range v {
		h ^= uint64(x)
		h *= 0xbf58476d1ce4e5b9
		h ^= h >> 31
	}
	h *= 0x94d049bb133111eb
	return h ^ h>>29
}

// addressings stores each distinct pair of an access's step and split
// lists (each already stored once by intLists, so a pair is two
// IntsRefs) once in Graph.Addressings, the way intLists stores a list:
// an open-addressing hash set, with linear probing and at most half
// full, of indices into Graph.Addressings, hashed from the name table's
// seed. Which access's pair a repeat shares is the first one stored.
// The synthetic families' 1M-op graphs have 0.9 to 3.1 million accesses
// with a step or a split and 53,000 to 309,000 distinct pairs.
type addressings struct {
	slots []int32 // 0: empty
	n     int     // pairs stored
	seed  uint64
}

// add returns the index in g.Addressings of a pair equal to d,
// appending d (Graph.AddAddressing) when there is none; 0 for the zero
// pair.
func (t *addressings) add(g *ir.Graph, d ir.Addressing) int32 {
	if d == (ir.Addressing{}) {
		return 0
	}
	if 2*(t.n+1) > len(t.slots) {
		t.grow(g)
	}
	mask := len(t.slots) - 1
	for i := int(hashPair(t.seed, d)) & mask; ; i = (i + 1) & mask {
		k := t.slots[i]
		if k == 0 {
			k = g.AddAddressing(d)
			t.slots[i] = k
			t.n++
			return k
		}
		if g.Addressings[k] == d {
			return k
		}
	}
}

// grow doubles the slots (or makes the first ones), placing every pair
// again.
func (t *addressings) grow(g *ir.Graph) {
	old := t.slots
	t.slots = make([]int32, max(2*len(old), minIntSlots))
	mask := len(t.slots) - 1
	for _, k := range old {
		if k == 0 {
			continue
		}
		i := int(hashPair(t.seed, g.Addressings[k])) & mask
		for t.slots[i] != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = k
	}
}

// hashPair hashes a pair's two references from seed (hashInts's mixing).
func hashPair(seed uint64, d ir.Addressing) uint64 {
	h := seed ^ (uint64(uint32(d.Strides))<<32|uint64(uint32(d.Split)))*0x9e3779b97f4a7c15
	h ^= h >> 31
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 29
	return h
}
