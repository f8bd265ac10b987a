package mlirgen

import (
	"math/bits"
	"strconv"
	"sync"
	"sync/atomic"

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
			if s := &st.syms[k]; s.a == a && s.b == b && s.kind == kind {
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
// line is printed: kernel argument numbers, the affine maps, the declared
// symbol values, each in order of first use, and the emission state at
// the first op of every chunk of ops (marks), from which the chunks can
// be printed independently.
//
// The per-group classification lives in scratch reused from bundle to
// bundle (stamped with a generation, so nothing is cleared between
// bundles): a graph of B bundles and G groups costs O(G) memory once, not
// O(B*G). A layout is read-only once built; the printers of its chunks
// share it, and the last to finish releases its scratch.
type layout struct {
	g      *ir.Graph
	p      *planner.Result
	bi     int
	b      *ir.Bundle
	grp    []groupSlot // per group, for the groups this bundle touches
	args   []int       // group of each %arg_N
	pooled bool        // the bundle pools at least one group
	maps   [][]int64   // nonzero step lists, numbered first-seen
	// mapOf holds, for each tiled non-LX access in operand order through
	// the bundle, its map.
	mapOf []int32
	// decls are the distinct declared values (%pool_addr_V,
	// %arg_N_slice_S, %B_core_O) in registration order: a pool address V
	// (>= 0) as itself, any other value as -(k+1) for others[k] (eight
	// bytes a declaration, as a bundle may pool a million buffers).
	decls  []int64
	others []value
	// chunk is the number of ops of a chunk (every op: one chunk), and
	// marks[c] the state at op c*chunk.
	chunk int
	marks []mark
	// nResults counts the (non-LX access, core) pairs of the bundle: the
	// results of its address function.
	nResults int
	sc       *layoutScratch
	refs     atomic.Int32
}

// mark is the emission state at the first op of a chunk: what the ops
// before it used up.
type mark struct {
	nextMap int   // index into mapOf
	addrN   int64 // next %addr_K
	nextID  int64 // symbols registered (ids are their negated numbers)
	results int   // address function results
}

// groupSlot is a group's classification in the bundle being laid out: gen
// stamps the bundle, ref is refOmitted, refPool or the N of %arg_N.
type groupSlot struct {
	gen uint32
	ref int32
}

const (
	refOmitted = -1
	refPool    = -2
)

func (lay *layout) kind(gi int) operandKind {
	switch r := lay.grp[gi].ref; r {
	case refOmitted:
		return omitted
	case refPool:
		return poolBase
	default:
		return argBase
	}
}

// layoutScratch is the per-group state of layouts, reused from bundle to
// bundle.
type layoutScratch struct {
	gen  uint32
	grp  []groupSlot
	set  declSet
	op   opSyms
	key  []byte
	last []byte
}

var layoutPool = sync.Pool{New: func() any { return new(layoutScratch) }}

func getLayoutScratch(n int) *layoutScratch {
	sc := layoutPool.Get().(*layoutScratch)
	if len(sc.grp) < n {
		sc.grp = make([]groupSlot, n)
		sc.gen = 0
	}
	sc.gen++
	if sc.gen == 0 { // wrapped: stale stamps could match again
		clear(sc.grp)
		sc.gen = 1
	}
	return sc
}

// hold adds n printers of the layout that will call release.
func (lay *layout) hold(n int) { lay.refs.Add(int32(n)) }

// release drops one holder of the layout; the last hands the scratch back
// for the next bundle. Not calling it is safe, merely slower.
func (lay *layout) release() {
	if lay.refs.Add(-1) == 0 && lay.sc != nil {
		layoutPool.Put(lay.sc)
		lay.sc, lay.grp = nil, nil
	}
}

// opScratch is the per-op state of one printer of a bundle.
type opScratch struct {
	op   opSyms
	vals []value // operands of the op being printed
	ids  []int64 // its symbol ids
}

var opPool = sync.Pool{New: func() any { return new(opScratch) }}

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

// newLayout lays bundle bi out, with a mark every chunk ops (0: one chunk
// of every op). The caller holds it once.
func newLayout(p *planner.Result, bi, chunk int) *layout {
	g := p.Graph
	b := &g.Bundles[bi]
	sc := getLayoutScratch(len(g.Groups))
	if chunk <= 0 {
		chunk = max(len(b.Ops), 1)
	}
	lay := &layout{g: g, p: p, bi: bi, b: b, grp: sc.grp, sc: sc, chunk: chunk}
	lay.refs.Store(1)
	lay.marks = make([]mark, 0, (len(b.Ops)+chunk-1)/chunk)
	grp, gen := sc.grp, sc.gen
	sc.set.reset(len(b.Ops))
	var mapIdx map[string]int32
	// key is the step key of an access; last and lastMap remember the
	// previous one, which consecutive accesses often repeat.
	key, last := sc.key[:0], sc.last[:0]
	lastMap := int32(-1)
	classify := func(a *ir.Access) {
		gi := a.Group
		s := &grp[gi]
		if s.gen == gen {
			return
		}
		s.gen = gen
		switch {
		case g.Groups[gi].LX:
			s.ref = refOmitted
		case p.Pooled(gi, bi):
			s.ref = refPool
			lay.pooled = true
		default:
			s.ref = int32(len(lay.args))
			lay.args = append(lay.args, gi)
		}
	}
	addMap := func(a *ir.Access) {
		key = key[:0]
		for _, s := range a.Strides {
			if s != 0 {
				key = strconv.AppendInt(key, s, 10)
				key = append(key, ',')
			}
		}
		if lastMap >= 0 && string(key) == string(last) {
			lay.mapOf = append(lay.mapOf, lastMap)
			return
		}
		if mapIdx == nil {
			mapIdx = map[string]int32{}
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
		last, lastMap = append(last[:0], key...), m
	}
	st := &sc.op
	var cur mark
	for k := range b.Ops {
		if k%chunk == 0 {
			cur.nextMap = len(lay.mapOf)
			lay.marks = append(lay.marks, cur)
		}
		op := &b.Ops[k]
		forAccesses(op, classify)
		lay.resolve(op, st, true)
		cur.nextID += int64(len(st.syms))
		// What applies does: count the %addr_K of the op's tiled
		// accesses (one per symbol) and number their maps.
		nc := op.NumCores()
		u := 0
		for _, rw := range [2][]ir.Access{op.Reads, op.Writes} {
			for ai := range rw {
				a := &rw[ai]
				if grp[a.Group].ref == refOmitted {
					continue
				}
				cur.results += nc
				if !a.HasStride() {
					u += nc
					continue
				}
				addMap(a)
				for c := 0; c < nc; c++ {
					s := &st.syms[st.uses[u]]
					u++
					if s.addr < 0 {
						s.addr = cur.addrN
						cur.addrN++
					}
				}
			}
		}
	}
	if len(b.Ops) == 0 {
		lay.marks = append(lay.marks, cur)
	}
	lay.nResults = cur.results
	sc.key, sc.last = key, last
	sc.set.drop()
	return lay
}

// resolve fills st with op's symbols (bundle-ir.md §4 "Symbols" and
// "Which symbol a core uses"). The groups of op's accesses must be
// classified. With declare it also declares the value of every pool,
// slice and derived symbol the op registers (the layout pass): the values
// come in the order the symbols are registered, and the layout drops
// those declared before.
func (lay *layout) resolve(op *ir.Op, st *opSyms, declare bool) {
	st.reset()
	nc := op.NumCores()
	for k := range op.Reads {
		lay.resolveAccess(op, &op.Reads[k], st, nc, declare)
	}
	for k := range op.Writes {
		lay.resolveAccess(op, &op.Writes[k], st, nc, declare)
	}
}

// reg registers a key; with declare, a new pool, slice or derived
// symbol's value is declared. A derived key's name is not its key: two
// accesses of one op may reach one derived key by different names (a
// view's slice + O, or the root + O'), and the first names the symbol and
// is the value declared.
func (lay *layout) reg(st *opSyms, kind symKind, x, y int64, name value, declare bool) int32 {
	n := len(st.syms)
	k := st.register(kind, x, y, name)
	if declare && int(k) == n && kind != symKernel {
		lay.declare(name)
	}
	return k
}

func (lay *layout) resolveAccess(op *ir.Op, a *ir.Access, st *opSyms, nc int, declare bool) {
	gi := a.Group
	ref := lay.grp[gi].ref
	if ref == refOmitted {
		return
	}
	v := lay.g.Buffers[a.Buffer].ViewOffset
	if ref == refPool {
		base := lay.p.Groups[gi].Offset + v
		if a.Split == nil {
			// Every core uses the one address.
			k := lay.reg(st, symPool, base, 0, poolAddr(base), declare)
			for c := 0; c < nc; c++ {
				st.uses = append(st.uses, k)
			}
			return
		}
		for c := 0; c < nc; c++ {
			val := base + a.CoreOffset(op.Cores, c)
			st.uses = append(st.uses, lay.reg(st, symPool, val, 0, poolAddr(val), declare))
		}
		return
	}
	n := int64(ref)
	b := lay.reg(st, symKernel, n, 0, arg(n), declare)
	s := int64(-1)
	if v > 0 {
		b = lay.reg(st, symSlice, n, v, slice(n, v), declare)
		s = v
	}
	st.uses = append(st.uses, b)
	if nc == 1 {
		return
	}
	o0 := a.CoreOffset(op.Cores, 0)
	for c := 1; c < nc; c++ {
		oc := a.CoreOffset(op.Cores, c)
		if oc == o0 {
			st.uses = append(st.uses, b)
			continue
		}
		st.uses = append(st.uses, lay.reg(st, symDerived, n, v+oc, core(n, s, oc-o0), declare))
	}
}

// declare adds a declared value unless an earlier op declared it.
func (lay *layout) declare(v value) {
	if v.kind == vPoolAddr {
		if lay.sc.set.add(v.n) {
			lay.decls = append(lay.decls, v.n)
		}
		return
	}
	set := &lay.sc.set
	if set.others == nil {
		set.others = map[value]struct{}{}
	}
	if _, ok := set.others[v]; ok {
		return
	}
	set.others[v] = struct{}{}
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

// declSet is the set of the values a layout declared: pool addresses in
// an open-addressing table (linear probing, V+1 stored, 0 empty), the
// rare slice and core values in a map.
type declSet struct {
	tab    []uint64
	shift  uint // 64 - log2(len(tab))
	n      int  // pool addresses in tab
	others map[value]struct{}
}

// keepTab is the largest table kept for the next bundle (8 MiB).
const keepTab = 1 << 20

// reset empties the set, sized for a bundle of ops ops.
func (s *declSet) reset(ops int) {
	size := 64
	for size < 2*ops && size < keepTab {
		size <<= 1
	}
	if cap(s.tab) >= size {
		s.tab = s.tab[:size]
		clear(s.tab)
	} else {
		s.tab = make([]uint64, size)
	}
	s.shift = uint(64 - bits.TrailingZeros(uint(size)))
	s.n = 0
	if s.others != nil {
		clear(s.others)
	}
}

// drop lets a table too large to keep go.
func (s *declSet) drop() {
	if len(s.tab) > keepTab {
		s.tab = nil
	}
}

// slot is key's first slot (Fibonacci hashing: the top bits of the
// product).
func (s *declSet) slot(key uint64) uint64 { return (key * 0x9E3779B97F4A7C15) >> s.shift }

// add inserts pool address v and reports whether it was new.
func (s *declSet) add(v int64) bool {
	key := uint64(v) + 1
	mask := uint64(len(s.tab) - 1)
	for i := s.slot(key); ; i = (i + 1) & mask {
		switch s.tab[i] {
		case key:
			return false
		case 0:
			s.tab[i] = key
			s.n++
			if 4*s.n > 3*len(s.tab) {
				s.grow()
			}
			return true
		}
	}
}

func (s *declSet) grow() {
	old := s.tab
	s.tab = make([]uint64, 2*len(old))
	s.shift--
	mask := uint64(len(s.tab) - 1)
	for _, key := range old {
		if key == 0 {
			continue
		}
		i := s.slot(key)
		for s.tab[i] != 0 {
			i = (i + 1) & mask
		}
		s.tab[i] = key
	}
}
