package mlirgen

import (
	"encoding/binary"
	"math"
	"math/bits"
	"sync"
	"sync/atomic"

	"github.com/sdscgen/sdscgen/internal/fresh"
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
	// tab indexes syms by key once the op has more than linearLimit of
	// them (the common op has a handful): open addressing, slot k+1 for
	// syms[k], 0 empty; nil-length until needed.
	tab   []int32
	shift uint // 64 - log2(len(tab))
}

const linearLimit = 16

func (st *opSyms) reset() {
	st.syms = st.syms[:0]
	st.uses = st.uses[:0]
	if len(st.tab) > 0 {
		clear(st.tab)
		st.tab = st.tab[:0]
	}
}

// register returns the symbol of a key, registering it (next id) when the
// op has none yet.
func (st *opSyms) register(kind symKind, a, b int64, name value) int32 {
	n := len(st.syms)
	if len(st.tab) == 0 {
		for k := range st.syms {
			if s := &st.syms[k]; s.a == a && s.b == b && s.kind == kind {
				return int32(k)
			}
		}
		if n >= linearLimit {
			st.index(256)
		}
	}
	if len(st.tab) > 0 {
		mask := uint64(len(st.tab) - 1)
		i := keySlot(kind, a, b, st.shift)
		for ; st.tab[i] != 0; i = (i + 1) & mask {
			if s := &st.syms[st.tab[i]-1]; s.a == a && s.b == b && s.kind == kind {
				return st.tab[i] - 1
			}
		}
		st.tab[i] = int32(n + 1)
	}
	// The new symbol's fields are stored in place: a composite literal
	// appended is built on the stack and copied in 16-byte moves that
	// read what narrower stores just wrote (a store-forwarding stall, a
	// sixth of the layout's time at 10k).
	if n < cap(st.syms) {
		st.syms = st.syms[:n+1]
	} else {
		st.syms = append(st.syms, sym{})
	}
	s := &st.syms[n]
	s.kind, s.a, s.b, s.name, s.addr, s.used = kind, a, b, name, -1, false
	if len(st.tab) > 0 && 2*(n+1) > len(st.tab) {
		st.index(2 * len(st.tab))
	}
	return int32(n)
}

func keySlot(kind symKind, a, b int64, shift uint) uint64 {
	h := uint64(a)*0x9E3779B97F4A7C15 ^ uint64(b)*0xC2B2AE3D27D4EB4F ^ uint64(kind)
	return (h * 0x9E3779B97F4A7C15) >> shift
}

// index (re)builds tab with size slots over syms.
func (st *opSyms) index(size int) {
	if cap(st.tab) >= size {
		st.tab = st.tab[:size]
		clear(st.tab)
	} else {
		st.tab = make([]int32, size)
	}
	st.shift = uint(64 - bits.TrailingZeros(uint(size)))
	mask := uint64(size - 1)
	for k := range st.syms {
		s := &st.syms[k]
		i := keySlot(s.kind, s.a, s.b, st.shift)
		for st.tab[i] != 0 {
			i = (i + 1) & mask
		}
		st.tab[i] = int32(k + 1)
	}
}

// layout is everything about a bundle that must be known before its first
// line is printed: kernel argument numbers, the affine maps, the declared
// symbol values, each in order of first use, and the emission state at
// the first op of every chunk of ops (marks), from which the chunks can
// be printed independently.
//
// The per-group classification lives in scratch reused from bundle to
// bundle: a slot per group of the graph, a graph of B bundles and G
// groups costing O(G) memory once, not O(B*G); or, for a bundle with
// fewer accesses than a quarter of the graph's groups, a table of the
// groups it touches (groupTab), so that a graph of many small bundles
// costs the largest bundle's accesses, not O(G) for every printer. A zero
// slot is a group not classified yet: the per-group array is all zero
// whenever it is not in use, and the layout that set slots zeroes them
// again when it hands the scratch back (see clearSlots), so a bundle
// costs O(its accesses), never O(G). A layout is read-only once built;
// the printers of its chunks share it, and the last to finish releases
// its scratch.
type layout struct {
	g      *ir.Graph
	p      *planner.Result
	bi     int
	b      *ir.Bundle
	grp    []groupSlot // per group, for the groups this bundle touches
	tab    *groupTab   // instead of grp, when not nil
	nArgs  int         // kernel arguments: %arg_0 to %arg_{nArgs-1}
	pooled bool        // the bundle pools at least one group
	maps   [][]int64   // nonzero step lists, numbered first-seen
	// mapOf holds, for each tiled non-LX access in operand order through
	// the bundle, its map.
	mapOf seq[int32]
	// decls are the distinct declared values (%pool_addr_V,
	// %arg_N_slice_S, %B_core_O) in registration order: a pool address V
	// that is a multiple of ir.StickBytes (nearly all: buffers are whole
	// sticks) as V/ir.StickBytes, any other value as -(k+1) for
	// others[k] (four bytes a declaration, as a bundle may pool a million
	// buffers).
	decls  seq[int32]
	others seq[value]
	// chunk is the number of ops of a chunk (every op: one chunk), and
	// marks[c] the state at op c*chunk.
	chunk int
	marks []mark
	// nResults counts the (non-LX access, core) pairs of the bundle: the
	// results of its address function.
	nResults int
	// accesses counts the bundle's accesses.
	accesses int
	// farArgs holds by group the N of the kernel arguments whose N is
	// too large for their slot (valInline unset); nil when there are none.
	farArgs map[int32]int64
	// fileOf holds, with the sdsc_cache on and a graph with kinds, each
	// op's sdsc file number (empty otherwise: every op's file is its
	// step), and fileBase, per file, the id base of the op that first
	// used it (sdsccache.go).
	fileOf   seq[int32]
	fileBase seq[int64]
	sc       *layoutScratch
	home     *scratchList // where sc goes back
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

// groupSlot is a group's classification in the bundle being laid out
// (four bytes, as a graph may have millions of groups): info holds its
// operandKind, flags and, above argShift when valInline is set, a value:
// for a kernel argument the N of %arg_N, for a pooled group its pool
// offset / ir.StickBytes. The zero slot is a group the bundle has not
// classified; every classified slot has the classified bit.
type groupSlot struct {
	info uint32
}

const (
	kindMask = 3 // the operandKind
	// hasViews: the group has members other than its root, so an
	// access's view offset must be looked up (the root's is 0).
	hasViews = 4
	// classified: set in every slot the layout classified, so that none
	// is zero (an omitted group without views would be).
	classified = 8
	// valInline: the slot holds the value above argShift, a kernel
	// argument's N or a pool offset that is a multiple of ir.StickBytes;
	// without it a kernel argument's N is in layout.farArgs and a pool
	// offset in the plan.
	valInline = 16
	// offDeclared: the layout declared the group's pool offset itself
	// (regPool).
	offDeclared = 32
	argShift    = 6
	// maxInline bounds the values a slot holds (they are below it):
	// kernel argument numbers below 2^26, pool offsets below 8 GiB.
	maxInline = 1 << (32 - argShift)
)

// The largest value held fits above argShift.
const _ = uint32((maxInline-1)<<argShift | (1<<argShift - 1))

func (s *groupSlot) kind() operandKind { return operandKind(s.info & kindMask) }

// poolOffset is pooled group gi's pool offset.
func (lay *layout) poolOffset(sl *groupSlot, gi int) int64 {
	if sl.info&valInline != 0 {
		return int64(sl.info>>argShift) * ir.StickBytes
	}
	return lay.p.Groups[gi].Offset
}

// argNum is the N of %arg_N of kernel-argument group gi.
func (lay *layout) argNum(sl *groupSlot, gi int32) int64 {
	if sl.info&valInline != 0 {
		return int64(sl.info >> argShift)
	}
	return lay.farArgs[gi]
}

// layoutScratch is the per-group state of layouts, reused from bundle to
// bundle. Whenever it is not in use its grp is all zero.
type layoutScratch struct {
	grp   []groupSlot
	tab   groupTab
	set   declSet
	op    opSyms
	key   []byte
	last  []byte
	cache sdscCache
}

var layoutPool = sync.Pool{New: func() any { return new(layoutScratch) }}

// scratchList holds the layout scratch of one EmitAll call, so that its
// bundles reuse the O(groups) arrays even when a collection empties
// layoutPool (a graph of a thousand bundles would allocate them again
// and again); the call hands them to layoutPool when it ends. A nil list
// uses layoutPool alone.
type scratchList struct {
	mu   sync.Mutex
	free []*layoutScratch
}

func (l *scratchList) get() *layoutScratch {
	if l != nil {
		l.mu.Lock()
		defer l.mu.Unlock()
		if n := len(l.free); n > 0 {
			sc := l.free[n-1]
			l.free = l.free[:n-1]
			return sc
		}
	}
	return layoutPool.Get().(*layoutScratch)
}

func (l *scratchList) put(sc *layoutScratch) {
	if l == nil {
		layoutPool.Put(sc)
		return
	}
	l.mu.Lock()
	l.free = append(l.free, sc)
	l.mu.Unlock()
}

// done hands the scratch to layoutPool.
func (l *scratchList) done() {
	for _, sc := range l.free {
		layoutPool.Put(sc)
	}
	l.free = nil
}

// getLayoutScratch returns scratch whose grp has a zero slot for each of
// n groups at least.
func getLayoutScratch(n int, l *scratchList) *layoutScratch {
	sc := l.get()
	if len(sc.grp) < n {
		sc.grp = fresh.Make[groupSlot](n)
	}
	return sc
}

// groupTab holds the slots of the groups a bundle touches, keyed by group
// number (open addressing, linear probing, Fibonacci hashing).
type groupTab struct {
	keys  []int32 // group + 1; 0 is empty
	slots []groupSlot
	shift uint // 64 - log2(len(keys))
}

// reset empties the table, sized for n groups at most.
func (t *groupTab) reset(n int) {
	size := 16
	for size < 2*n {
		size <<= 1
	}
	if cap(t.keys) >= size && cap(t.keys) <= 8*size {
		t.keys, t.slots = t.keys[:size], t.slots[:size]
		clear(t.keys)
	} else {
		t.keys, t.slots = fresh.Make[int32](size), make([]groupSlot, size)
	}
	t.shift = uint(64 - bits.TrailingZeros(uint(size)))
}

// slot returns group gi's slot, a zero one added when gi has none. Once
// the layout has classified every group of the bundle, it only finds:
// the printers of a layout may call it concurrently.
func (t *groupTab) slot(gi int32) *groupSlot {
	mask := uint64(len(t.keys) - 1)
	for i := (uint64(uint32(gi)) * 0x9E3779B97F4A7C15) >> t.shift; ; i = (i + 1) & mask {
		switch t.keys[i] {
		case gi + 1:
			return &t.slots[i]
		case 0:
			t.keys[i] = gi + 1
			t.slots[i] = groupSlot{}
			return &t.slots[i]
		}
	}
}

// slot is group gi's slot in the bundle.
func (lay *layout) slot(gi int32) *groupSlot {
	if lay.tab != nil {
		return lay.tab.slot(gi)
	}
	return &lay.grp[gi]
}

// hold adds n printers of the layout that will call release.
func (lay *layout) hold(n int) { lay.refs.Add(int32(n)) }

// release drops one holder of the layout; the last zeroes the slots the
// layout set and hands the scratch back for the next bundle. Not calling
// it is safe, merely slower (the scratch is not reused).
func (lay *layout) release() {
	if lay.refs.Add(-1) == 0 && lay.sc != nil {
		lay.clearSlots()
		lay.home.put(lay.sc)
		lay.sc, lay.grp, lay.tab = nil, nil, nil
	}
}

// clearSlots zeroes the per-group slots the layout set, at a cost of
// O(accesses), not O(groups): those of the groups the bundle touches
// (no other is set), walking its accesses again as newLayout did; or,
// for a bundle with at least a quarter as many accesses as the graph has
// groups (every bundle that takes the array when group tables are on),
// the graph's whole range of the array, at most 16 bytes an access
// cleared in sequence rather than a lookup of some fifty instructions
// each (on wide-1M, some 20 ms against 150). A groupTab needs nothing:
// its next reset empties it.
func (lay *layout) clearSlots() {
	if lay.tab != nil {
		return
	}
	g, grp := lay.g, lay.grp
	if 4*lay.accesses >= len(g.Groups) {
		clear(grp[:len(g.Groups)])
		return
	}
	for k := range lay.b.Ops {
		accs := g.OpAccesses(&lay.b.Ops[k])
		for ai := range accs {
			grp[g.GroupOf(&accs[ai])] = groupSlot{}
		}
	}
}

// opScratch is the per-op state of one printer of a bundle (kept with
// it in emitterPool).
type opScratch struct {
	op   opSyms
	vals []value // operands of the op being printed
	ids  []int64 // its symbol ids
}

// forAccesses calls f for every access of op in operand order: reads,
// then writes.
func forAccesses(g *ir.Graph, op *ir.Op, f func(a *ir.Access)) {
	accs := g.OpAccesses(op)
	for k := range accs {
		f(&accs[k])
	}
}

// newLayout lays bundle bi out, with a mark every chunk ops (0: one chunk
// of every op) and, with cache, each op's sdsc file under the
// sdsc_cache; unless t (nil: defaultTuning) turns group tables off, a
// bundle that touches few of the graph's groups keeps their slots in a
// groupTab. The caller holds it once.
func newLayout(p *planner.Result, bi, chunk int, home *scratchList, cache bool, t *tuning) *layout {
	if t == nil {
		t = &defaultTuning
	}
	tables := !t.noGroupTables
	limit := int64(maxInline)
	if t.inlineLimit > 0 {
		limit = min(t.inlineLimit, limit)
	}
	g := p.Graph
	b := &g.Bundles[bi]
	accesses := 0
	for k := range b.Ops {
		accesses += int(b.Ops[k].Accesses.Len)
	}
	sparse := tables && 4*accesses < len(g.Groups)
	dense := len(g.Groups)
	if sparse {
		dense = 0
	}
	sc := getLayoutScratch(dense, home)
	if chunk <= 0 {
		chunk = max(len(b.Ops), 1)
	}
	lay := &layout{g: g, p: p, bi: bi, b: b, grp: sc.grp, sc: sc, home: home, chunk: chunk, accesses: accesses}
	if sparse {
		sc.tab.reset(accesses)
		lay.grp, lay.tab = nil, &sc.tab
	}
	lay.refs.Store(1)
	lay.marks = make([]mark, max((len(b.Ops)+chunk-1)/chunk, 1))
	sc.set.reset(len(b.Ops))
	var mapIdx map[string]int32
	// key is the step key of an access (its nonzero steps, eight bytes
	// each); last and lastMap remember the previous one, which
	// consecutive accesses often repeat.
	key, last := sc.key[:0], sc.last[:0]
	lastMap := int32(-1)
	classify := func(a *ir.Access) {
		gi := lay.g.GroupOf(a)
		s := lay.slot(gi)
		if s.info != 0 {
			return
		}
		info := uint32(classified)
		switch {
		case g.GroupClaims[gi].Has(ir.ClaimLX):
			info |= uint32(omitted)
		case p.Pooled(int(gi), bi):
			info |= uint32(poolBase)
			if off := p.Groups[gi].Offset; off >= 0 && off%ir.StickBytes == 0 && off/ir.StickBytes < limit {
				info |= valInline | uint32(off/ir.StickBytes)<<argShift
			}
			lay.pooled = true
		default:
			info |= uint32(argBase)
			if n := int64(lay.nArgs); n < limit {
				info |= valInline | uint32(n)<<argShift
			} else {
				if lay.farArgs == nil {
					lay.farArgs = map[int32]int64{}
				}
				lay.farArgs[gi] = n
			}
			lay.nArgs++
		}
		if g.Groups[gi].Members.Len > 1 {
			info |= hasViews
		}
		s.info = info
	}
	addMap := func(a *ir.Access) {
		key = key[:0]
		for _, s := range g.Strides(a) {
			if s != 0 {
				key = binary.LittleEndian.AppendUint64(key, uint64(s))
			}
		}
		if lastMap >= 0 && string(key) == string(last) {
			lay.mapOf.add(lastMap)
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
			for _, s := range g.Strides(a) {
				if s != 0 {
					coeffs = append(coeffs, s)
				}
			}
			lay.maps = append(lay.maps, coeffs)
		}
		lay.mapOf.add(m)
		last, lastMap = append(last[:0], key...), m
	}
	st := &sc.op
	var cur mark
	cache = cacheApplies(g, cache)
	if cache {
		sc.cache.reset()
	}
	for k := range b.Ops {
		if k%chunk == 0 {
			cur.nextMap = lay.mapOf.len()
			lay.marks[k/chunk] = cur
		}
		op := &b.Ops[k]
		forAccesses(g, op, classify)
		lay.resolve(op, st, true)
		if cache {
			f, miss := sc.cache.assign(lay, op, st, int32(lay.fileBase.len()))
			if miss {
				lay.fileBase.add(cur.nextID)
			}
			lay.fileOf.add(f)
		}
		cur.nextID += int64(len(st.syms))
		cur.results += lay.addrs(op, st, &cur.addrN, addMap, nil)
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
	nc := lay.g.NumCores(op)
	accs := lay.g.OpAccesses(op) // reads, then writes
	for k := range accs {
		lay.resolveAccess(op, &accs[k], st, nc, declare)
	}
}

// addrs numbers op's addresses, the one home of the %addr_K rule
// (docs/bundle-ir.md §4.4): in operand order (reads, then writes),
// skipping accesses of omitted (LX) groups, each tiled access's cores in
// order; a core whose symbol has no %addr in this op yet gets K = *next,
// and *next moves on. st holds op's resolved symbols. For each tiled
// access it calls tiled(a) first (the access's map), then numbered(a, s)
// for every symbol it numbers (nil: none; the printer's affine.apply).
// It returns op's (non-omitted access, core) pairs: the results of its
// address function. The layout pass counts with it and the printer
// prints with it, so the two agree by construction.
func (lay *layout) addrs(op *ir.Op, st *opSyms, next *int64, tiled func(a *ir.Access), numbered func(a *ir.Access, s *sym)) int {
	nc := lay.g.NumCores(op)
	results, u := 0, 0
	accs := lay.g.OpAccesses(op)
	for ai := range accs {
		a := &accs[ai]
		if lay.slot(lay.g.GroupOf(a)).kind() == omitted {
			continue
		}
		results += nc
		if !lay.g.HasStride(a) {
			u += nc
			continue
		}
		tiled(a)
		for c := 0; c < nc; c++ {
			s := &st.syms[st.uses[u]]
			u++
			if s.addr >= 0 {
				continue
			}
			s.addr = *next
			*next++
			if numbered != nil {
				numbered(a, s)
			}
		}
	}
	return results
}

// reg registers a key; with declare, a new slice or derived symbol's
// value is declared. A derived key's name is not its key: two accesses of
// one op may reach one derived key by different names (a view's slice +
// O, or the root + O'), and the first names the symbol and is the value
// declared.
func (lay *layout) reg(st *opSyms, kind symKind, x, y int64, name value, declare bool) int32 {
	n := len(st.syms)
	k := st.register(kind, x, y, name)
	if declare && int(k) == n && kind != symKernel {
		lay.declare(name)
	}
	return k
}

// regPool registers pool address val of the group in slot sl; with
// declare, a new one is declared.
func (lay *layout) regPool(st *opSyms, sl *groupSlot, off, val int64, declare bool) int32 {
	n := len(st.syms)
	k := st.register(symPool, val, 0, poolAddr(val))
	if declare && int(k) == n {
		// Every op that touches a group registers its address again:
		// the common repeat is answered by the group's slot.
		if val == off {
			if sl.info&offDeclared != 0 {
				return k
			}
			sl.info |= offDeclared
		}
		if lay.sc.set.add(val) {
			if val >= 0 && val%ir.StickBytes == 0 && val/ir.StickBytes <= math.MaxInt32 {
				lay.decls.add(int32(val / ir.StickBytes))
			} else {
				lay.others.add(poolAddr(val))
				lay.decls.add(-int32(lay.others.len()))
			}
		}
	}
	return k
}

func (lay *layout) resolveAccess(op *ir.Op, a *ir.Access, st *opSyms, nc int, declare bool) {
	gi := lay.g.GroupOf(a)
	sl := lay.slot(gi)
	kind := sl.kind()
	if kind == omitted {
		return
	}
	var v int64
	if sl.info&hasViews != 0 {
		v = lay.g.ViewOf(lay.g.Buffers.At(int(a.Buffer))).ViewOffset
	}
	if kind == poolBase {
		off := lay.poolOffset(sl, int(gi))
		base := off + v
		if !lay.g.AddressingOf(a).Split.Present() {
			// Every core uses the one address.
			k := lay.regPool(st, sl, off, base, declare)
			for c := 0; c < nc; c++ {
				st.uses = append(st.uses, k)
			}
			return
		}
		for c := 0; c < nc; c++ {
			st.uses = append(st.uses, lay.regPool(st, sl, off, base+lay.g.CoreOffset(a, lay.g.Cores(op), c), declare))
		}
		return
	}
	n := lay.argNum(sl, gi)
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
	o0 := lay.g.CoreOffset(a, lay.g.Cores(op), 0)
	for c := 1; c < nc; c++ {
		oc := lay.g.CoreOffset(a, lay.g.Cores(op), c)
		if oc == o0 {
			st.uses = append(st.uses, b)
			continue
		}
		st.uses = append(st.uses, lay.reg(st, symDerived, n, v+oc, core(n, s, oc-o0), declare))
	}
}

// declare adds a declared slice or core value unless an earlier op
// declared it.
func (lay *layout) declare(v value) {
	if lay.sc.set.addOther(&lay.others, v) {
		lay.others.add(v)
		lay.decls.add(-int32(lay.others.len()))
	}
}

// decl returns a declaration's value.
func (lay *layout) decl(d int32) value {
	if d >= 0 {
		return poolAddr(int64(d) * ir.StickBytes)
	}
	return lay.others.at(int(-d - 1))
}

// declSet is the set of the values a layout declared, in open-addressing
// tables (linear probing, Fibonacci hashing): a pool address V that is a
// multiple of ir.StickBytes (nearly all: buffers are whole sticks) as
// V/ir.StickBytes+1 in a table of 32-bit slots, any other as V+1 in one of
// 64-bit slots, a slice or core value as k+1 for layout.others[k] (others
// also holds the pool addresses that are not multiples of ir.StickBytes:
// a probe never matches them).
type declSet struct {
	aligned hashSet[uint32]
	odd     hashSet[uint64]
	otab    []int32
	oshift  uint
}

// hashSet is a set of nonzero keys.
type hashSet[K uint32 | uint64] struct {
	tab   []K
	shift uint // 64 - log2(len(tab))
	n     int
}

// keepTab is the largest table kept for the next bundle.
const keepTab = 1 << 20

func (h *hashSet[K]) reset(size int) {
	if c := cap(h.tab); c >= size {
		// Keep a larger table a bundle grew (up to 8 times the size,
		// bounding what is cleared).
		for lim := 8 * size; 2*size <= c && 2*size <= lim && size < keepTab; {
			size *= 2
		}
		h.tab = h.tab[:size]
		clear(h.tab)
	} else {
		h.tab = fresh.Make[K](size)
	}
	h.shift = uint(64 - bits.TrailingZeros(uint(size)))
	h.n = 0
}

func (h *hashSet[K]) slot(key K) uint64 { return (uint64(key) * 0x9E3779B97F4A7C15) >> h.shift }

// add inserts key and reports whether it was new.
func (h *hashSet[K]) add(key K) bool {
	mask := uint64(len(h.tab) - 1)
	for i := h.slot(key); ; i = (i + 1) & mask {
		switch h.tab[i] {
		case key:
			return false
		case 0:
			h.tab[i] = key
			h.n++
			if 4*h.n > 3*len(h.tab) {
				h.grow()
			}
			return true
		}
	}
}

func (h *hashSet[K]) grow() {
	old := h.tab
	h.tab = fresh.Make[K](2 * len(old))
	h.shift--
	mask := uint64(len(h.tab) - 1)
	for _, key := range old {
		if key == 0 {
			continue
		}
		i := h.slot(key)
		for h.tab[i] != 0 {
			i = (i + 1) & mask
		}
		h.tab[i] = key
	}
}

// drop lets a table too large to keep go.
func (h *hashSet[K]) drop() {
	if len(h.tab) > keepTab {
		h.tab = nil
	}
}

// reset empties the set, sized for a bundle of ops ops.
func (s *declSet) reset(ops int) {
	// A bundle declares about one and a half pool addresses an op: a
	// table of three slots an op rarely grows (growing rehashes every
	// address, a cache miss each).
	size := 64
	for size < 3*ops {
		size <<= 1
	}
	s.aligned.reset(size)
	s.odd.reset(64)
	// Slice and core values: about one for three ops.
	osize := 64
	for osize < ops/2 {
		osize <<= 1
	}
	if cap(s.otab) >= osize && cap(s.otab) <= 8*osize {
		s.otab = s.otab[:osize]
		clear(s.otab)
	} else {
		s.otab = fresh.Make[int32](osize)
	}
	s.oshift = uint(64 - bits.TrailingZeros(uint(osize)))
}

// drop lets tables too large to keep go.
func (s *declSet) drop() {
	s.aligned.drop()
	s.odd.drop()
	if len(s.otab) > keepTab {
		s.otab = nil
	}
}

// add inserts pool address v and reports whether it was new.
func (s *declSet) add(v int64) bool {
	if v%ir.StickBytes == 0 && v/ir.StickBytes < 1<<32-1 {
		return s.aligned.add(uint32(v/ir.StickBytes + 1))
	}
	return s.odd.add(uint64(v) + 1)
}

func valueSlot(v value, shift uint) uint64 {
	h := uint64(v.n)*0x9E3779B97F4A7C15 ^ uint64(v.s)*0xC2B2AE3D27D4EB4F ^ uint64(v.o)*0x165667B19E3779F9 ^ uint64(v.kind)
	return (h * 0x9E3779B97F4A7C15) >> shift
}

// addOther reports whether slice or core value v is not among others
// yet; if so the caller adds it, as the next.
func (s *declSet) addOther(others *seq[value], v value) bool {
	mask := uint64(len(s.otab) - 1)
	i := valueSlot(v, s.oshift)
	for ; s.otab[i] != 0; i = (i + 1) & mask {
		if others.at(int(s.otab[i]-1)) == v {
			return false
		}
	}
	n := others.len() + 1
	s.otab[i] = int32(n)
	if 4*n > 3*len(s.otab) {
		// others may hold many more entries than the table (the odd pool
		// addresses, never indexed): grow until they all fit.
		size := 2 * len(s.otab)
		s.oshift--
		for 4*n > 3*size {
			size *= 2
			s.oshift--
		}
		s.otab = fresh.Make[int32](size)
		mask = uint64(size - 1)
		for k := range n - 1 {
			s.reindex(others.at(k), int32(k+1), mask)
		}
		s.reindex(v, int32(n), mask)
	}
	return true
}

func (s *declSet) reindex(v value, slot int32, mask uint64) {
	i := valueSlot(v, s.oshift)
	for s.otab[i] != 0 {
		i = (i + 1) & mask
	}
	s.otab[i] = slot
}
