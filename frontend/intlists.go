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
	set  refSet[ir.IntsRef]
	seed uint64
	// tmp is the scratch list a caller fills before add (see
	// builder.list).
	tmp []int64
}

// minIntSlots is a table's first size: a small graph has few distinct
// lists and pairs.
const minIntSlots = 256

// refSet is the hash set both tables (intLists, addressings) are:
// references (> 0) to values the graph stores, in open-addressing slots
// with linear probing, kept at most half full. The caller hashes and
// compares the values; the set only probes and grows.
type refSet[R ~int32] struct {
	slots []R // 0: empty
	n     int // references stored
}

// find returns the slot of the first reference from hash h on for which
// same is true, or else the empty slot where such a reference goes (*slot
// == 0): the caller stores it there and counts it (n++). It first doubles
// the slots (or makes the first ones) when one more reference would fill
// more than half of them, placing each again by its hash (rehash).
func (s *refSet[R]) find(h uint64, same func(R) bool, rehash func(R) uint64) *R {
	if 2*(s.n+1) > len(s.slots) {
		old := s.slots
		s.slots = make([]R, max(2*len(old), minIntSlots))
		mask := len(s.slots) - 1
		for _, r := range old {
			if r == 0 {
				continue
			}
			i := int(rehash(r)) & mask
			for s.slots[i] != 0 {
				i = (i + 1) & mask
			}
			s.slots[i] = r
		}
	}
	mask := len(s.slots) - 1
	for i := int(h) & mask; ; i = (i + 1) & mask {
		if r := s.slots[i]; r == 0 || same(r) {
			return &s.slots[i]
		}
	}
}

// add returns the reference of a list equal to v in g.Ints, appending v
// (Graph.AddInts) when there is none; nil is the empty list, which is
// present too. v need not outlive the call.
func (t *intLists) add(g *ir.Graph, v []int64) ir.IntsRef {
	if v == nil {
		v = []int64{}
	}
	sl := t.set.find(hashInts(t.seed, v),
		func(r ir.IntsRef) bool { return slices.Equal(g.IntList(r), v) },
		func(r ir.IntsRef) uint64 { return hashInts(t.seed, g.IntList(r)) })
	if *sl == 0 {
		*sl = g.AddInts(v)
		t.set.n++
	}
	return *sl
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
// a refSet of indices into Graph.Addressings, hashed from the name
// table's seed. Which access's pair a repeat shares is the first one
// stored. The synthetic families' 1M-op graphs have 0.9 to 3.1 million
// accesses with a step or a split and 53,000 to 309,000 distinct pairs.
type addressings struct {
	set  refSet[int32]
	seed uint64
}

// add returns the index in g.Addressings of a pair equal to d,
// appending d (Graph.AddAddressing) when there is none; 0 for the zero
// pair.
func (t *addressings) add(g *ir.Graph, d ir.Addressing) int32 {
	if d == (ir.Addressing{}) {
		return 0
	}
	sl := t.set.find(hashPair(t.seed, d),
		func(k int32) bool { return g.Addressings[k] == d },
		func(k int32) uint64 { return hashPair(t.seed, g.Addressings[k]) })
	if *sl == 0 {
		*sl = g.AddAddressing(d)
		t.set.n++
	}
	return *sl
}

// hashPair hashes a pair's two references from seed (hashInts's mixing).
func hashPair(seed uint64, d ir.Addressing) uint64 {
	h := seed ^ (uint64(uint32(d.Strides))<<32|uint64(uint32(d.Split)))*0x9e3779b97f4a7c15
	h ^= h >> 31
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 29
	return h
}
