package mlirgen

import (
	"encoding/binary"

	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/planner"
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

// The rules of the cache key, in the order sdscKey writes them (and
// SDSCWhy names the first that differs).
const (
	ruleKind = iota
	ruleCores
	ruleCounts
	ruleStorage
	ruleShape
	nRules
)

var ruleText = [nRules]string{
	ruleKind:    "its kind",
	ruleCores:   "its cores list",
	ruleCounts:  "its number of reads or writes",
	ruleStorage: "the storage of an access (kernel argument index, pooled, LX group) or whether it has a split",
	ruleShape:   "its symbol table shape (which symbol each access and core uses)",
}

// sdscKey appends op's cache key to k (op.Kind must be nonzero; st holds
// its symbols) and returns it with the end of each rule's part.
func sdscKey(lay *layout, op *ir.Op, st *opSyms, k []byte) ([]byte, [nRules]int) {
	var ends [nRules]int
	g := lay.g
	k = binary.AppendUvarint(k, uint64(op.Kind))
	ends[ruleKind] = len(k)
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
	ends[ruleCores] = len(k)
	k = binary.AppendUvarint(k, uint64(op.NReads))
	k = binary.AppendUvarint(k, uint64(op.Accesses.Len-op.NReads))
	ends[ruleCounts] = len(k)
	accs := g.OpAccesses(op)
	for ai := range accs {
		a := &accs[ai]
		gi := g.GroupOf(a)
		sl := lay.slot(gi)
		split := uint64(0)
		if g.AddressingOf(a).Split.Present() {
			split = 1
		}
		switch sl.kind() {
		case omitted:
			k = binary.AppendUvarint(k, 0|split<<2)
			k = binary.AppendUvarint(k, uint64(gi))
		case poolBase:
			k = binary.AppendUvarint(k, 1|split<<2)
		default:
			k = binary.AppendUvarint(k, 2|split<<2)
			k = binary.AppendUvarint(k, uint64(lay.argNum(sl, gi)))
		}
	}
	ends[ruleStorage] = len(k)
	for _, u := range st.uses {
		k = binary.AppendUvarint(k, uint64(u))
	}
	ends[ruleShape] = len(k)
	return k, ends
}

// assign returns the file of op, whose symbols st holds, when the
// bundle used nFiles files before it; miss says it is a new file (number
// nFiles).
func (c *sdscCache) assign(lay *layout, op *ir.Op, st *opSyms, nFiles int32) (file int32, miss bool) {
	if op.Kind == 0 {
		return nFiles, true
	}
	c.key, _ = sdscKey(lay, op, st, c.key[:0])
	if f, ok := c.files[string(c.key)]; ok {
		return f, false
	}
	if c.files == nil {
		c.files = map[string]int32{}
	}
	c.files[string(c.key)] = nFiles
	return nFiles, true
}

// SDSCUse is the SDSC file one op's execute names.
type SDSCUse struct {
	// File is the K of its sdsc_K.json.
	File int32
	// First is the step of the first op of the bundle that uses the
	// file: the op's own step when it compiles a file of its own.
	First int32
}

// SDSCFiles returns the file of every op of bundle bi, in step order, as
// the bundle's MLIR names them: with cache, under the sdsc_cache; without,
// op k's file is k.
func SDSCFiles(p *planner.Result, bi int, cache bool) []SDSCUse {
	n := len(p.Graph.Bundles[bi].Ops)
	out := make([]SDSCUse, n)
	if !cacheApplies(p.Graph, cache) {
		for k := range out {
			out[k] = SDSCUse{File: int32(k), First: int32(k)}
		}
		return out
	}
	lay := newLayout(p, bi, 0, nil, cache, nil)
	defer lay.release()
	first := make([]int32, 0, n)
	for k := range n {
		f := int32(k)
		if lay.fileOf.len() > 0 {
			f = lay.fileOf.at(k)
		}
		if int(f) == len(first) {
			first = append(first, int32(k))
		}
		out[k] = SDSCUse{File: f, First: first[f]}
	}
	return out
}

// SDSCWhy says why op step of bundle bi compiles an SDSC file of its own
// under the sdsc_cache: no kind, no earlier op of its kind, or the first
// rule in which it differs from the nearest earlier op of its kind (that
// op's step). It is "" for an op that reuses a file.
func SDSCWhy(p *planner.Result, bi, step int) (why string, nearest int) {
	lay := newLayout(p, bi, 0, nil, true, nil)
	defer lay.release()
	ops := lay.b.Ops
	op := &ops[step]
	if op.Kind == 0 {
		return "it has no kind: an op without a kind never shares its file", -1
	}
	if lay.fileOf.len() > 0 {
		// Misses take the next number, so an op whose file is not
		// above every earlier op's reuses one.
		f, top := lay.fileOf.at(step), int32(-1)
		for k := range step {
			top = max(top, lay.fileOf.at(k))
		}
		if f <= top {
			return "", -1
		}
	}
	nearest = -1
	for k := step - 1; k >= 0; k-- {
		if ops[k].Kind == op.Kind {
			nearest = k
			break
		}
	}
	if nearest < 0 {
		return "no earlier op of the bundle has its kind", -1
	}
	var st opSyms
	lay.resolve(op, &st, false)
	mine, mEnds := sdscKey(lay, op, &st, nil)
	lay.resolve(&ops[nearest], &st, false)
	theirs, tEnds := sdscKey(lay, &ops[nearest], &st, nil)
	lo := 0
	for r := range nRules {
		if string(mine[lo:mEnds[r]]) != string(theirs[lo:tEnds[r]]) {
			return "it differs from " + p.Graph.Str(ops[nearest].Name) + " in " + ruleText[r], nearest
		}
		lo = mEnds[r]
	}
	// The same key as an earlier op: a reuse, answered above.
	return "", nearest
}

// cacheApplies reports whether the sdsc_cache, on when cache is, can
// make an op of g name another op's file: only ops with a kind share.
func cacheApplies(g *ir.Graph, cache bool) bool { return cache && len(g.Kinds) > 1 }

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
