package mlirgen

import (
	"cmp"
	"slices"
	"strconv"
	"sync"

	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/planner"
)

// operandKind says where a group's addresses come from in a bundle.
type operandKind uint8

const (
	omitted  operandKind = iota // LX: no symbol, no operand
	poolBase                    // pooled: %pool_addr_V
	argBase                     // kernel argument: %arg_N
)

// symKind is the kind of a symbol's key (bundle-ir.md §4 "Symbols").
type symKind uint8

const (
	symPool    symKind = iota // pool(V)
	symKernel                 // kernel(N)
	symSlice                  // slice(N, v)
	symDerived                // derived(N, v + o_c)
)

// sym is one symbol an op registered: its key (kind, a, b), the SSA value
// it stands for, and, while the op is emitted, its %addr_K.
type sym struct {
	kind symKind
	a, b int64
	name value
	addr int64 // K of its %addr_K in this op, or -1
	used bool  // already listed in the op's execute
}

// opSyms is the symbol state of one op: the symbols it registered, in id
// order, and for each (non-LX access, core) in operand order the index of
// the symbol that core uses. It is scratch, reset for every op.
type opSyms struct {
	syms []sym
	uses []int32
	// index finds a key among many symbols; nil until the op has more
	// than linearLimit of them (the common op has a handful).
	index map[symKey]int32
}

type symKey struct {
	kind symKind
	a, b int64
}

const linearLimit = 16

func (st *opSyms) reset() {
	st.syms = st.syms[:0]
	st.uses = st.uses[:0]
	if st.index != nil {
		clear(st.index)
	}
}

// register returns the symbol of a key, registering it (next id) when the
// op has none yet.
func (st *opSyms) register(kind symKind, a, b int64, name value) int32 {
	if len(st.syms) <= linearLimit {
		for k := range st.syms {
			if s := &st.syms[k]; s.kind == kind && s.a == a && s.b == b {
				return int32(k)
			}
		}
	} else {
		if st.index == nil {
			st.index = make(map[symKey]int32)
		}
		if len(st.index) == 0 {
			for k, s := range st.syms {
				st.index[symKey{s.kind, s.a, s.b}] = int32(k)
			}
		}
		if k, ok := st.index[symKey{kind, a, b}]; ok {
			return k
		}
		st.index[symKey{kind, a, b}] = int32(len(st.syms))
	}
	st.syms = append(st.syms, sym{kind: kind, a: a, b: b, name: name, addr: -1})
	return int32(len(st.syms) - 1)
}

// layout is everything about a bundle that must be known before its first
// line is printed: kernel argument numbers, the affine maps and the
// declared symbol values, each in order of first use.
//
// kind and argNum are indexed by group but hold meaningful values only
// for the groups the bundle touches: they live in scratch reused from
// bundle to bundle, so a graph of B bundles and G groups costs O(G)
// memory once, not O(B*G).
type layout struct {
	g      *ir.Graph
	p      *planner.Result
	kind   []operandKind // per group, for this bundle
	argNum []int         // per group: N of %arg_N, for argBase groups
	args   []int         // group of each %arg_N
	pooled bool          // the bundle pools at least one group
	maps   [][]int64     // nonzero step lists, numbered first-seen
	// mapOf holds, for each tiled non-LX access in operand order through
	// the bundle, its map.
	mapOf []int32
	// decls are the distinct declared values (%pool_addr_V,
	// %arg_N_slice_S, %B_core_O) in registration order, encoded as
	// declare says.
	decls  []int64
	others []value
	sc     *scratch
}

// scratch is the per-group and per-op state of a bundle's emission.
// seen[gi] == gen marks the groups visited by the current layout, so
// nothing is cleared between bundles.
type scratch struct {
	gen    uint32
	seen   []uint32
	kind   []operandKind
	argNum []int
	// declSeen[gi] == gen marks that declLast[gi] is the value group gi
	// declared last in this bundle.
	declSeen []uint32
	declLast []value
	op       opSyms
	vals     []value // operands of the op being printed
	ids      []int64 // its symbol ids
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

func getScratch(n int) *scratch {
	sc := scratchPool.Get().(*scratch)
	if len(sc.seen) < n {
		sc.seen = make([]uint32, n)
		sc.kind = make([]operandKind, n)
		sc.argNum = make([]int, n)
		sc.declSeen = make([]uint32, n)
		sc.declLast = make([]value, n)
		sc.gen = 0
	}
	sc.gen++
	if sc.gen == 0 { // wrapped: stale stamps could match again
		clear(sc.seen)
		clear(sc.declSeen)
		sc.gen = 1
	}
	return sc
}

// release hands the layout's scratch back for the next bundle; the layout
// must not be used afterwards. Not calling it is safe, merely slower.
func (lay *layout) release() {
	if lay.sc != nil {
		scratchPool.Put(lay.sc)
		lay.sc, lay.kind, lay.argNum = nil, nil, nil
	}
}

// forAccesses calls f for every access of op in operand order: reads,
// then writes.
func forAccesses(op *ir.Op, f func(a *ir.Access)) {
	for k := range op.Reads {
		f(&op.Reads[k])
	}
	for k := range op.Writes {
		f(&op.Writes[k])
	}
}

func newLayout(p *planner.Result, bi int) *layout {
	g := p.Graph
	b := &g.Bundles[bi]
	sc := getScratch(len(g.Groups))
	lay := &layout{g: g, p: p, kind: sc.kind, argNum: sc.argNum, sc: sc}
	seen, gen := sc.seen, sc.gen
	mapIdx := map[string]int32{}
	// key is the step key of an access; lastKey and lastMap remember the
	// previous one, which consecutive accesses often repeat.
	var key, lastKey []byte
	lastMap := int32(-1)
	classify := func(a *ir.Access) {
		gi := a.Group
		if seen[gi] == gen {
			return
		}
		seen[gi] = gen
		switch {
		case g.Groups[gi].LX:
			lay.kind[gi] = omitted
		case p.Pooled(gi, bi):
			lay.kind[gi] = poolBase
			lay.pooled = true
		default:
			lay.kind[gi] = argBase
			lay.argNum[gi] = len(lay.args)
			lay.args = append(lay.args, gi)
		}
	}
	addMap := func(a *ir.Access) {
		if lay.kind[a.Group] == omitted || !a.HasStride() {
			return
		}
		key = key[:0]
		for _, s := range a.Strides {
			if s != 0 {
				key = strconv.AppendInt(key, s, 10)
				key = append(key, ',')
			}
		}
		if lastMap >= 0 && string(key) == string(lastKey) {
			lay.mapOf = append(lay.mapOf, lastMap)
			return
		}
		m, ok := mapIdx[string(key)]
		if !ok {
			m = int32(len(lay.maps))
			mapIdx[string(key)] = m
			var coeffs []int64
			for _, s := range a.Strides {
				if s != 0 {
					coeffs = append(coeffs, s)
				}
			}
			lay.maps = append(lay.maps, coeffs)
		}
		lay.mapOf = append(lay.mapOf, m)
		lastKey, lastMap = append(lastKey[:0], key...), m
	}
	st := &sc.op
	for k := range b.Ops {
		op := &b.Ops[k]
		forAccesses(op, classify)
		lay.resolve(op, st, true)
		forAccesses(op, addMap)
	}
	lay.distinctDecls()
	return lay
}

// resolve fills st with op's symbols (bundle-ir.md §4 "Symbols" and "Which symbol a
// core uses"). The groups of op's accesses must be classified. With
// collect it declares the values of the op's slice, derived and pool
// symbols instead (the layout pass).
func (lay *layout) resolve(op *ir.Op, st *opSyms, collect bool) {
	st.reset()
	nc := op.NumCores()
	for k := range op.Reads {
		lay.resolveAccess(op, &op.Reads[k], st, nc, collect)
	}
	for k := range op.Writes {
		lay.resolveAccess(op, &op.Writes[k], st, nc, collect)
	}
}

func (lay *layout) resolveAccess(op *ir.Op, a *ir.Access, st *opSyms, nc int, collect bool) {
	gi := a.Group
	v := lay.g.Buffers[a.Buffer].ViewOffset
	// reg registers a key. With collect it declares the key's value
	// instead (uses are then meaningless): the values come in the order
	// the keys would be registered, and declare drops the repeats. Only a
	// derived key is still registered there, as its name is not its key:
	// two accesses of one op may reach one derived key by different
	// names (a view's slice + O, or the root + O'), and only the first
	// names the op's symbol.
	reg := func(kind symKind, x, y int64, name value) int32 {
		if !collect {
			return st.register(kind, x, y, name)
		}
		switch kind {
		case symPool, symSlice:
			lay.declare(gi, name)
		case symDerived:
			if n := len(st.syms); int(st.register(kind, x, y, name)) == n {
				lay.declare(gi, name)
			}
		}
		return 0
	}
	switch lay.kind[gi] {
	case omitted:
	case poolBase:
		base := lay.p.Groups[gi].Offset + v
		for c := 0; c < nc; c++ {
			val := base + a.CoreOffset(op.Cores, c)
			st.uses = append(st.uses, reg(symPool, val, 0, poolAddr(val)))
		}
	case argBase:
		n := int64(lay.argNum[gi])
		b := reg(symKernel, n, 0, arg(n))
		s := int64(-1)
		if v > 0 {
			b = reg(symSlice, n, v, slice(n, v))
			s = v
		}
		st.uses = append(st.uses, b)
		o0 := a.CoreOffset(op.Cores, 0)
		for c := 1; c < nc; c++ {
			oc := a.CoreOffset(op.Cores, c)
			if oc == o0 {
				st.uses = append(st.uses, b)
				continue
			}
			st.uses = append(st.uses, reg(symDerived, n, v+oc, core(n, s, oc-o0)))
		}
	}
}

// declare adds a declared value. The value group gi declared last is
// skipped at once (every op that touches a group registers its symbols
// again); distinctDecls removes the remaining repeats at the end. A pool
// address V (>= 0) is stored as itself, any other value as -(k+1) for
// lay.others[k]: eight bytes a declaration, as a bundle may pool a
// million buffers.
func (lay *layout) declare(gi int, v value) {
	sc := lay.sc
	if sc.declSeen[gi] == sc.gen && sc.declLast[gi] == v {
		return
	}
	sc.declSeen[gi], sc.declLast[gi] = sc.gen, v
	if v.kind == vPoolAddr {
		lay.decls = append(lay.decls, v.n)
		return
	}
	lay.others = append(lay.others, v)
	lay.decls = append(lay.decls, -int64(len(lay.others)))
}

// decl returns a declaration's value.
func (lay *layout) decl(d int64) value {
	if d >= 0 {
		return poolAddr(d)
	}
	return lay.others[-d-1]
}

// distinctDecls keeps the first occurrence of every declared value, in
// order. Pool addresses, the bulk, are deduped by a sort of (value,
// position) pairs, several times faster than as many map probes; the few
// slice and core values go through a map.
func (lay *layout) distinctDecls() {
	ds := lay.decls
	if len(ds) < 2 {
		return
	}
	type entry struct {
		v   int64
		pos int32
	}
	es := make([]entry, 0, len(ds))
	var others map[value]bool
	keep := make([]bool, len(ds))
	for k, d := range ds {
		if d >= 0 {
			es = append(es, entry{d, int32(k)})
			continue
		}
		if others == nil {
			others = map[value]bool{}
		}
		if v := lay.decl(d); !others[v] {
			others[v] = true
			keep[k] = true
		}
	}
	slices.SortFunc(es, func(a, b entry) int {
		if c := cmp.Compare(a.v, b.v); c != 0 {
			return c
		}
		return cmp.Compare(a.pos, b.pos)
	})
	for k := range es {
		if k == 0 || es[k].v != es[k-1].v {
			keep[es[k].pos] = true
		}
	}
	out := ds[:0]
	for k, d := range ds {
		if keep[k] {
			out = append(out, d)
		}
	}
	lay.decls = out
}
