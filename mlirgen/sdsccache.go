package mlirgen

import (
	"encoding/binary"

	"github.com/sdscgen/sdscgen/ir"
)

// The sdsc_cache (bundle-ir.md "The SDSC cache"; torch-spyre's
// SPYRE_INDUCTOR_SDSC_CACHE, on by default upstream): an op whose SDSC
// would be identical to an earlier op's of the same bundle reuses that
// op's sdsc_K.json and prints that op's "symbol_ids". This file is the
// one home of the rule; the layout pass asks it, op by op, which file
// each op uses (sdscCache.assign), and the printers read the answer
// (layout.file).
//
// Two ops compile to the same SDSC exactly when their cache keys are
// equal. The key is, in this order:
//
//   - the op's kind (Op.Kind: equal values are equal kind names; an op
//     without a kind never reuses and has no key);
//   - its cores list, an absent clause read as [1] (so no `cores`,
//     `cores 1` and `cores [1]` are equal, and `cores [2, 1]` is not
//     `cores 2`);
//   - its number of reads and of writes;
//   - per access in operand order, its storage: a kernel argument's
//     index N, "pooled" (whatever the offset), or an LX group's index;
//     and whether it has a `split`;
//   - the op's symbol table shape: for each (non-LX access, core) in
//     operand order, the number of the symbol that core uses in the
//     op's registration order (opSyms.uses: the same registration that
//     numbers the printed ids, so the shape is read, not recomputed).
//
// Nothing else is in the key: steps, loops, sizes, names, pool offsets,
// view offsets, split values and core offsets matter only through the
// shape.
//
// Files are numbered by a counter that only a miss advances. A reusing
// op registers its own symbols with fresh ids (its declarations, applies
// and operands are its own); its execute prints the first op's file and
// that op's ids. Because the shapes are equal, the first op's ids are
// the reusing op's own first-use pattern offset by the first op's id
// base, so a file needs only that base (fileBase).
type sdscCache struct {
	files map[string]int32
	key   []byte
}

// reset empties the cache for the next bundle, keeping its storage.
func (c *sdscCache) reset() {
	clear(c.files)
}

// assign returns the file of op, whose symbols st holds, laid out in lay
// after nextID symbols of the bundle; base is nextID of the op that
// first used the file, nFiles the files the bundle used so far (a miss
// takes file nFiles, base nextID).
func (c *sdscCache) assign(lay *layout, op *ir.Op, st *opSyms, nFiles int32) (file int32, miss bool) {
	if op.Kind == 0 {
		return nFiles, true
	}
	g := lay.g
	k := c.key[:0]
	k = binary.AppendUvarint(k, uint64(op.Kind))
	cores := g.Cores(op)
	if cores == nil {
		k = binary.AppendUvarint(k, 1)
		k = binary.AppendUvarint(k, 1)
	} else {
		k = binary.AppendUvarint(k, uint64(len(cores)))
		for _, s := range cores {
			k = binary.AppendUvarint(k, uint64(s))
		}
	}
	k = binary.AppendUvarint(k, uint64(op.NReads))
	k = binary.AppendUvarint(k, uint64(op.Accesses.Len-op.NReads))
	accs := g.OpAccesses(op)
	for ai := range accs {
		a := &accs[ai]
		sl := lay.slot(a.Group)
		split := uint64(0)
		if a.Split.Present() {
			split = 1
		}
		switch sl.kind() {
		case omitted:
			k = binary.AppendUvarint(k, 0|split<<2)
			k = binary.AppendUvarint(k, uint64(a.Group))
		case poolBase:
			k = binary.AppendUvarint(k, 1|split<<2)
		default:
			k = binary.AppendUvarint(k, 2|split<<2)
			k = binary.AppendUvarint(k, uint64(sl.info>>argShift))
		}
	}
	for _, u := range st.uses {
		k = binary.AppendUvarint(k, uint64(u))
	}
	c.key = k
	if f, ok := c.files[string(k)]; ok {
		return f, false
	}
	if c.files == nil {
		c.files = map[string]int32{}
	}
	c.files[string(k)] = nFiles
	return nFiles, true
}

// file returns the sdsc file number of the bundle's op at step and the
// id base its execute prints: without the cache (or when no op of the
// graph has a kind) the op's own step and base.
func (lay *layout) file(step int32, ownBase int64) (int64, int64) {
	if lay.fileOf.len() == 0 {
		return int64(step), ownBase
	}
	f := lay.fileOf.at(int(step))
	return int64(f), lay.fileBase.at(int(f))
}
