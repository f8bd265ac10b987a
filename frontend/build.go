package frontend

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/sdscgen/sdscgen/internal/fresh"
	"github.com/sdscgen/sdscgen/internal/slab"
	"github.com/sdscgen/sdscgen/ir"
)

// builder applies the meaning rules of the contract (section 1.2) one
// construct at a time, in source order, and builds the graph as it goes.
// It is the one home of those rules: ParseCheck feeds it straight from
// the parser, without an AST; Check feeds it the constructs of a parsed
// File.
//
// Declarations and nodes may come in any order and a name may be used
// before it is declared, so a reference is resolved when it is met only
// if its buffer is already declared; every other reference, and every
// check that needs the referenced buffer (an operand's bounds), waits
// for finish, which also builds the alias groups. Diagnostics are sorted
// by position and message in the end, so the order in which they are
// found does not show.
//
// While the graph is being built, an ir.Access holds in Buffer the
// buffer index when the name resolved on sight, else -(id+2) for the
// name's id in the name table; what finish must check of its bounds is
// in fars (see farRec).
type builder struct {
	file  string
	g     *ir.Graph
	errs  ErrorList
	names *nameTable

	renames []renameRec // the effective renames, in source order
	// renameTo holds, per effective rename, the buffer its chain ends at,
	// or -1 when the chain is broken (already reported).
	renameTo []int
	aliases  ir.Chunked[aliasRec]
	claims   ir.Chunked[claimRec]
	// nodeDecls holds every node name declaration in source order, in
	// chunks that never move.
	nodeDecls [][]nodeDecl
	refs      ir.Chunked[ir.Access] // operands of misplaced cpu nodes: resolved only to report errors
	refPos    []ir.Pos              // where each of refs is written
	lf        leafState             // the leaf node being built
	attrs     []attrValue           // its attributes (see keywords), for leafEnd
	// operands holds the names of the leaf's accesses, in order, until
	// leafEnd resolves them (see resolveOperands).
	operands []operand
	// small is set for a source under smallSource bytes (see newBuilder).
	small bool
	// dupAside is the fewest node names finish looks for duplicates
	// among on a goroutine of their own (0: never); see pipeConfig.
	dupAside int
	// memHook is pipeConfig.memHook (see measure).
	memHook func()
	// byPre maps a token's pre to its name's id + 1 (0: not yet
	// interned); see internPre.
	byPre []int32
	// kindIDs maps each kind met to its Op.Kind (an index of
	// Graph.Kinds); kindHot caches the Op.Kind of kinds met recently
	// by kindSlot (0: none), see internKind.
	kindIDs map[string]int32
	kindHot [64]int32

	// lists stores each distinct int list once in Graph.Ints, pairs
	// each distinct pair of an access's step and split lists once in
	// Graph.Addressings.
	lists intLists
	pairs addressings

	// Storage the bundles' ops and loops are cut from (the other lists
	// go to the graph-wide Graph.Accesses, LoopLists, Items and Ints).
	ops   slab.Slab[ir.Op]
	loops slab.Slab[ir.Loop]

	// fars holds, while the graph is built, the farthest start (see far)
	// of each access of Graph.Accesses with a step or a split where it
	// is not 0, in the order of the accesses; refFars those of refs. In
	// chunks: a slice appended to grows by a quarter at a time, each
	// step a copy into fresh pages (0.24 s of a 10.95 s run on the kargs
	// family).
	fars, refFars ir.Chunked[farRec]

	// The bundle under construction.
	opsStart, loopsStart int
	nops                 int // ops built so far, in all bundles
	// loopStack locates in Graph.LoopLists the enclosing loops of the
	// current body (0: none). It is replaced, never modified, so the ops
	// of one loop body share it as their Op.Loops.
	loopStack int32
	loopList  []int32     // scratch: a new loop's loopStack
	open      []openBlock // the open fused and loop blocks, innermost last
	itemStack []ir.Item   // the items of the open bodies
}

type renameRec struct {
	from, to       int32 // name ids
	fromPos, toPos Pos
}

type aliasRec struct {
	pos          Pos // of the `alias` keyword
	view, target int32
	viewPos      Pos
	targetPos    Pos
	offset       int64
	offPos       Pos
	hasOffset    bool
	v, t         int    // the resolved buffers (finish)
	viewName     string // the view as written (finish)
}

type claimRec struct {
	kind ir.ClaimKind
	name int32
	pos  Pos
}

type openBlock struct {
	loop  int   // the loop's index in the bundle, or -1 for a fused block
	items int   // where the loop's items start on itemStack
	outer int32 // loopStack outside the loop
}

// newBuilder returns a builder for file; size is about how many bytes of
// source it will see (0: unknown), which sizes its first arrays. A
// generated graph's source has a name per 40-50 bytes, an op per 100 and
// a loop per 500: the first arrays are sized so that the bundle under
// construction rarely has to move. Graph.Buffers and Graph.Accesses
// grow in chunks that are never copied (see ir.Chunked), and finish
// trims their last chunks.
//
// A small source (under smallSource bytes) has shorter names: its name
// table is sized for a name per 40 bytes (see below), its graph's items
// and loop lists for the whole source, and the first chunks of its
// buffers and accesses too. A large source keeps the sizes above, which
// bound its memory.
// Graph.Ints starts empty whatever the size: it holds each distinct list
// once (see intLists), a few thousand words even at a million ops.
func newBuilder(file string, size int) *builder {
	b := &builder{
		file:  file,
		g:     &ir.Graph{File: file},
		ops:   slab.Slab[ir.Op]{First: size / 80, Max: 1 << 14},
		loops: slab.Slab[ir.Loop]{First: size / 400, Max: 1 << 14},
	}
	// The names the graph keeps are tokens of the source, each stored
	// once: a source under a block's size needs one block of at most its
	// size (see ir.NameStore).
	b.g.Names.SizeFirst(size)
	if size > 0 && size < smallSource {
		b.small = true
		// A name per 80 bytes (at 10k ops) filled the table sized for
		// one per 96 to near its 3/4 limit, where linear probing makes
		// long runs: twice the slots keep it under half full.
		b.names = newNameTable(size/40, &b.g.Names)
		b.byPre = fresh.Make[int32](size / 40)
		// The lists that grew by appending, each growth a copy and
		// the clearing of the new array's tail (pages touched twice):
		// at 10k ops in one bundle an item of the item stack at its
		// deepest per 157 bytes; an item of the graph (the bundle's
		// body and the loops') per 78-163 bytes and a word of
		// LoopLists per 75-379, by family (TestSmallSourcePresized).
		// A sparser graph's spare is trimmed once, at finish.
		b.itemStack = make([]ir.Item, 0, size/128)
		b.g.Items = make([]ir.Item, 0, size/smallBytesPerItem)
		b.g.LoopLists = make([]int32, 0, size/smallBytesPerLoopWord)
		// A buffer per 80 bytes and an access per 34 at 10k ops: one
		// chunk each, whose elements are found without a search.
		b.g.Buffers.SizeFirst(size / 64)
		b.g.Accesses.SizeFirst(size / 33)
		b.g.AccessCols.SizeFirst(size / 33)
	} else {
		b.names = newNameTable(size/96, &b.g.Names)
	}
	b.lists.seed, b.pairs.seed = b.names.seed64, b.names.seed64
	return b
}

// A small source's Items and LoopLists are sized at an entry per so many
// bytes of source (see newBuilder).
const (
	smallBytesPerItem     = 64
	smallBytesPerLoopWord = 64
)

// smallSource is the size under which newBuilder sizes the graph's
// arrays for the whole source at once (at most some 40k ops).
const smallSource = 4 << 20

// stack returns the enclosing loops of the current body (see loopStack).
func (b *builder) stack() []int32 {
	o := ir.Op{Loops: b.loopStack}
	return b.g.OpLoops(&o)
}

func (b *builder) errorf(p Pos, format string, args ...any) {
	b.errs.add(p.In(b.file), format, args...)
}

// keyword reports a keyword in a declaration: a declared name, a name of
// an input, output or lx list, an alias's target, a rename's target. The
// parser lets it through there (see ast.go) so that it is reported with
// the rest. A keyword that a name of an access refers to is reported by
// finish only when no buffer has that name (its declaration is the error).
func (b *builder) keyword(t Name) {
	if isKeyword(t.Value) {
		b.errs = append(b.errs, &Error{Pos: t.Pos.In(b.file), Msg: keywordMsg(t.Value)})
	}
}

func (b *builder) graphName(t Name) {
	b.keyword(t)
	b.g.Name, b.g.Pos = b.g.Str(b.g.AddName(t.Value)), t.Pos
}

// buffer records a buffer declaration; pre is its name's token's (see
// internPre), hash what prefetch returned for it when the parser took
// the name.
func (b *builder) buffer(d *BufferDecl, pre int32, hash uint64) {
	b.keyword(d.Name)
	size := b.size(d)
	id := b.lookup(d.Name.Value, pre, hash)
	e := b.names.entry(id)
	if e.buf >= 0 {
		first := b.g.Buffers.At(int(e.buf)).Pos
		b.errorf(d.Name.Pos, "duplicate buffer %s (first declared at %d:%d)", quoteText(d.Name.Value), first.Line, first.Col)
		return
	}
	n := b.g.Buffers.Len()
	e.buf = int32(n)
	// Field by field: Push returns a zero element in place, and a
	// composite literal would be built aside and copied.
	nb := b.g.Buffers.Push(int32(n))
	nb.Name, nb.Pos, nb.Size, nb.View = e.ref, d.Name.Pos, size, -1
}

// size computes a buffer's byte size rounded up to whole sticks; it
// reports and returns 0 when there is none.
func (b *builder) size(d *BufferDecl) int64 {
	overflow := func(p Pos) int64 {
		b.errorf(p, "size of %s overflows int64", quoteText(d.Name.Value))
		return 0
	}
	if d.Shape == nil {
		n, ok := parseInt(d.Size.Value)
		if !ok || n > math.MaxInt64-(ir.StickBytes-1) {
			return overflow(d.Size.Pos)
		}
		return roundUp(n)
	}
	eb := elemBytes(d.Size.Value)
	if eb == 0 {
		b.errorf(d.Size.Pos, "unknown dtype %s (the dtypes are %s)", quoteText(d.Size.Value), dtypeList())
		return 0
	}
	var buf [8]int64 // real shapes are short: no allocation per buffer
	dims := buf[:0]
	zero := false
	for _, t := range d.Shape {
		n, ok := parseInt(t.Value)
		if !ok {
			return overflow(d.Size.Pos)
		}
		zero = zero || n == 0
		dims = append(dims, n)
	}
	// The size is a mathematical product: one zero dimension makes it 0
	// however large the others are, so only a non-zero product can overflow.
	if zero {
		return 0
	}
	last, ok := mul(dims[len(dims)-1], eb)
	if !ok || last > math.MaxInt64-(ir.StickBytes-1) {
		return overflow(d.Size.Pos)
	}
	size := roundUp(last)
	for _, n := range dims[:len(dims)-1] {
		if size, ok = mul(size, n); !ok {
			return overflow(d.Size.Pos)
		}
	}
	return size
}

// rename records `rename FROM -> TO`; finish follows the chains.
func (b *builder) rename(from, to Name) {
	b.keyword(from)
	b.keyword(to)
	id := b.names.intern(from.Value)
	e := b.names.entry(id)
	if e.ren >= 0 {
		b.errorf(from.Pos, "%s is already renamed at %s", quoteText(from.Value), at(b.renames[e.ren].fromPos))
		return
	}
	e.ren = int32(len(b.renames))
	b.renames = append(b.renames, renameRec{from: id, fromPos: from.Pos, to: b.names.intern(to.Value), toPos: to.Pos})
}

func (b *builder) alias(a *AliasDecl) {
	b.keyword(a.View)
	b.keyword(a.Target)
	r := aliasRec{pos: a.Pos, view: b.names.intern(a.View.Value), viewPos: a.View.Pos,
		target: b.names.intern(a.Target.Value), targetPos: a.Target.Pos}
	if a.Offset.Value != "" {
		r.hasOffset, r.offPos = true, a.Offset.Pos
		r.offset, _ = b.integerName(a.Offset)
	}
	b.aliases.Append(r)
}

// list records an `input`, `output` or `lx` line (kind).
func (b *builder) list(kind string, names []Name) {
	k := ir.ClaimInput
	switch kind {
	case "output":
		k = ir.ClaimOutput
	case "lx":
		k = ir.ClaimLX
	}
	for _, t := range names {
		b.keyword(t)
		b.claims.Append(claimRec{kind: k, name: b.names.intern(t.Value), pos: t.Pos})
	}
}

// node declares a node name in the node namespace and returns the
// graph's copy of it, in Graph.Names. Duplicates are found in finish
// (nodeDuplicates): node names are only ever declared, never looked up,
// so sorting them once is cheaper than a probe of the name table each.
func (b *builder) node(t Name) ir.Name {
	b.keyword(t)
	if len(t.Value) > maxNodeName {
		b.errorf(t.Pos, "node name is %d bytes long; at most %d are allowed", len(t.Value), maxNodeName)
	}
	ref := b.g.AddName(t.Value)
	if k := len(b.nodeDecls) - 1; k < 0 || len(b.nodeDecls[k]) == cap(b.nodeDecls[k]) {
		b.nodeDecls = append(b.nodeDecls, make([]nodeDecl, 0, chunkCap(64, len(b.nodeDecls), nodeChunk)))
	}
	last := &b.nodeDecls[len(b.nodeDecls)-1]
	*last = append(*last, nodeDecl{prefix: prefix8(t.Value), ref: ref, pos: t.Pos})
	return ref
}

const nodeChunk = 1 << 16

// chunkCap is the capacity of chunk k of a list kept in chunks that
// double from first up to limit. It doubles step by step rather than
// shifting first by k: first<<k overflows once k passes the word size
// (64<<57 is negative), which a file of 3,145,665 nodes reached.
func chunkCap(first, k, limit int) int {
	c := first
	for ; k > 0 && c < limit; k-- {
		c *= 2
	}
	return min(c, limit)
}

// nodeDecl is one node name declaration, for nodeDuplicates.
type nodeDecl struct {
	prefix uint64  // prefix8 of the name
	ref    ir.Name // the name, in Graph.Names
	pos    Pos
}

// nodeDuplicates reports to errs every node name in decls declared
// before, at the later declarations, naming the first; the names are in
// names, the graph's store. It touches nothing else of the builder, so
// that finish can run it beside its other steps (which read the store
// and add no name to it); measure is the builder's (builder.measure).
func nodeDuplicates(file string, decls [][]nodeDecl, names *ir.NameStore, errs *ErrorList, measure func()) {
	// starts[c] is the index of chunk c's first declaration.
	starts := make([]int, len(decls))
	n := 0
	for c, chunk := range decls {
		starts[c] = n
		n += len(chunk)
	}
	decl := func(i int32) *nodeDecl {
		c := sort.SearchInts(starts, int(i)+1) - 1
		return &decls[c][int(i)-starts[c]]
	}
	keys := make([]prefixKey, 0, n)
	for c, chunk := range decls {
		for j := range chunk {
			keys = append(keys, prefixKey{chunk[j].prefix, int32(starts[c] + j)})
		}
	}
	name := func(i int32) string { return names.Str(decl(i).ref) }
	// Sorted stably by name, the declarations of one name are adjacent,
	// in source order.
	keys = sortByPrefix(keys, func(a, b prefixKey) int {
		return strings.Compare(name(a.k), name(b.k))
	})
	measure()
	for i := 0; i < len(keys); {
		j := i + 1
		for j < len(keys) && keys[j].prefix == keys[i].prefix && name(keys[j].k) == name(keys[i].k) {
			first := decl(keys[i].k).pos
			errs.add(decl(keys[j].k).pos.In(file), "duplicate node %s (first declared at %s)", quoteText(name(keys[j].k)), at(first))
			j++
		}
		i = j
	}
}

// startBundle opens a top-level node's bundle.
func (b *builder) startBundle(name string, p Pos, kind ir.NodeKind) {
	b.g.Bundles = append(b.g.Bundles, ir.Bundle{Name: name, Pos: p, Kind: kind})
	b.opsStart, b.loopsStart = b.ops.Mark(), b.loops.Mark()
	b.itemStack = b.itemStack[:0]
	b.loopStack = 0
}

func (b *builder) endBundle() {
	bd := &b.g.Bundles[len(b.g.Bundles)-1]
	if bd.Ops = b.ops.Cut(b.opsStart); bd.Ops == nil {
		bd.Ops = []ir.Op{}
	}
	bd.Loops = b.loops.Cut(b.loopsStart)
	bd.Body = b.g.AddItems(b.itemStack)
	b.itemStack = b.itemStack[:0]
}

// ints is a `step`, `split` or `cores` clause as the builder takes it:
// its integers parsed (set is false when the clause is absent). Its
// elements hold no pointers, so that the parser's scratch for them
// costs the garbage collector nothing.
type ints struct {
	set  bool
	list bool // a bracketed list
	pos  Pos  // of the keyword
	ints []intLit
}

// intLit is an integer literal: its value, unless ok is false (it does
// not fit in int64, which is reported where the value is used).
type intLit struct {
	n   int64
	ok  bool
	pos Pos
}

// astInts is an AST clause (nil: absent) as the builder takes it (see
// Leaf.build).
func astInts(l *IntList) ints {
	if l == nil {
		return ints{}
	}
	c := ints{set: true, list: l.List, pos: l.Pos, ints: make([]intLit, len(l.Ints))}
	for k, t := range l.Ints {
		n, ok := parseInt(t.Value)
		c.ints[k] = intLit{n: n, ok: ok, pos: t.Pos}
	}
	return c
}

// leafState is the leaf node being built, from leafStart to leafEnd.
type leafState struct {
	cpu, top bool
	name     Name    // as written (messages only)
	node     ir.Name // the graph's copy of the name
	// dst is where its accesses go: Graph.Accesses for an op and a
	// top-level cpu node, refs for a misplaced one; they start at
	// off, its writes at off+nreads (nreads < 0 until writes).
	dst    *ir.Chunked[ir.Access]
	fars   *ir.Chunked[farRec] // b.fars or b.refFars, as dst
	off    int32
	nreads int
	depth  int // enclosing counted loops
	// hasCores is set when it has a cores clause of ncores entries;
	// cores locates its list in Graph.Ints (absent without one);
	// coresOK is false when it has an error, so that no bound is
	// computed from it.
	hasCores bool
	ncores   int
	cores    ir.IntsRef
	coresOK  bool
	kind     int32 // its Op.Kind (0: no kind clause)
}

// leafStart opens an op (cpu false) or cpu node at the current nesting;
// pos is its keyword's.
func (b *builder) leafStart(cpu bool, pos Pos, name Name) {
	b.lf = leafState{cpu: cpu, top: len(b.open) == 0, name: name, nreads: -1, coresOK: true}
	lf := &b.lf
	switch {
	case cpu && lf.top:
		lf.node = b.node(name)
		lf.dst = &b.g.Accesses
	case cpu:
		b.node(name)
		b.errorf(pos, "cpu node %s must be at the top level", quoteText(name.Value))
		lf.dst, lf.fars = &b.refs, &b.refFars
	case lf.top:
		lf.node = b.node(name)
		b.startBundle(b.g.Str(lf.node), name.Pos, ir.KindOp)
		lf.dst = &b.g.Accesses
	default:
		lf.node = b.node(name)
		lf.dst = &b.g.Accesses
		lf.depth = len(b.stack())
	}
	if lf.fars == nil {
		lf.fars = &b.fars
	}
	lf.off = int32(lf.dst.Len())
}

// leafKind records the open leaf's `kind` clause: the keyword at pos,
// the kind k. Only an op has a kind.
func (b *builder) leafKind(pos Pos, k Name) {
	lf := &b.lf
	if lf.cpu {
		b.errorf(pos, "kind on cpu node %s; only op nodes have a kind", quoteText(lf.name.Value))
		return
	}
	lf.kind = b.internKind(k.Value)
}

// internKind returns the Op.Kind of kind s, giving the kinds numbers 1,
// 2, ... in order of first appearance (Graph.Kinds[0] is "", no kind).
// A graph has few kinds, each on many ops: a kind met recently costs a
// load from kindHot and one comparison, no hash; only the others go to
// the map.
func (b *builder) internKind(s string) int32 {
	slot := &b.kindHot[kindSlot(s)]
	if k := *slot; k != 0 && b.g.Kinds[k] == s {
		return k
	}
	k, ok := b.kindIDs[s]
	if !ok {
		if b.kindIDs == nil {
			b.kindIDs = map[string]int32{}
			b.g.Kinds = []string{""}
		}
		// s may be in the parser's window: the graph keeps a copy.
		c := b.g.Str(b.g.AddName(s))
		k = int32(len(b.g.Kinds))
		b.g.Kinds = append(b.g.Kinds, c)
		b.kindIDs[c] = k
	}
	*slot = k
	return k
}

// kindSlot picks kind s's entry of kindHot from its length and its
// first and last eight bytes, where kinds differ (the operation's name
// after a common prefix, the shapes at the end).
func kindSlot(s string) int {
	var head, tail uint64
	if n := len(s); n >= 8 {
		head, tail = le64(s), le64(s[n-8:])
	} else {
		for i := 0; i < n; i++ {
			head = head<<8 | uint64(s[i])
		}
		tail = head
	}
	h := head*0x9e3779b97f4a7c15 ^ tail*0xc2b2ae3d27d4eb4f ^ uint64(len(s))
	h ^= h >> 29
	h *= 0xbf58476d1ce4e5b9
	return int(h >> 58)
}

// le64 is the first eight bytes of s as a little-endian number.
func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// leafAttr records the open leaf's attribute k (see keywords): the
// keyword at pos, its value v. Only an op takes one.
func (b *builder) leafAttr(k kw, pos Pos, v intLit) {
	if b.lf.cpu {
		b.errorf(pos, "%s on cpu node %s; only op nodes take it", kwText(k), quoteText(b.lf.name.Value))
		return
	}
	if n, ok := b.integer(&v); ok {
		b.attrs = append(b.attrs, attrValue{k, n})
	}
}

// attrValue is an attribute of the open leaf (see builder.attrs).
type attrValue struct {
	k kw
	n int64
}

// leafCores checks the open leaf's cores clause.
func (b *builder) leafCores(c ints) {
	lf := &b.lf
	lf.hasCores, lf.ncores = true, len(c.ints)
	if lf.cpu {
		b.errorf(c.pos, "cores on cpu node %s; only op nodes run on cores", quoteText(lf.name.Value))
		lf.coresOK = false
		return
	}
	cores := b.intList(len(c.ints))
	prod, fits := int64(1), true
	for k := range c.ints {
		n, ok := b.integer(&c.ints[k])
		if !ok {
			lf.coresOK = false
			continue
		}
		if n < 1 {
			b.errorf(c.ints[k].pos, "cores entry is 0; every entry must be at least 1")
			lf.coresOK = false
		}
		cores[k] = n
		if fits {
			prod, fits = mul(prod, n)
		}
	}
	lf.cores = b.lists.add(b.g, cores)
	if !lf.coresOK {
		return
	}
	switch {
	case !fits:
		b.errorf(c.pos, "op %s: the product of its cores entries overflows int64; at most %d cores are allowed", quoteText(lf.name.Value), ir.MaxCores)
		lf.coresOK = false
	case prod > ir.MaxCores:
		b.errorf(c.pos, "op %s runs on %d cores; at most %d are allowed", quoteText(lf.name.Value), prod, ir.MaxCores)
		lf.coresOK = false
	}
}

// writes marks the end of the open leaf's reads.
func (b *builder) writes() {
	b.lf.nreads = b.lf.dst.Len() - int(b.lf.off)
}

// access adds an operand to the open leaf (see builder for what its
// Buffer holds until finish, and farRec); pre is its name's token's (see
// internPre). Its Buffer is set by leafEnd (resolveOperands).
func (b *builder) access(name Name, pre int32, step, split ints) {
	lf := &b.lf
	var acc *ir.Access
	if lf.dst == &b.g.Accesses {
		acc = b.g.PushAccess(lf.off, lf.name.Pos, name.Pos)
	} else {
		acc = lf.dst.Push(lf.off)
		b.refPos = append(b.refPos, name.Pos)
	}
	b.operands = append(b.operands, operand{name: name.Value, pre: pre, hash: b.prefetch(name.Value, pre)})
	ok := true
	var d ir.Addressing
	if step.set {
		d.Strides, ok = b.strides(step, lf.depth)
	}
	if split.set {
		var splitOK bool
		d.Split, splitOK = b.split(split)
		ok = ok && splitOK
	}
	acc.Addressing = b.pairs.add(b.g, d)
	if (step.set || split.set) && ok && lf.coresOK {
		if far := b.far(acc); far != 0 {
			lf.fars.Append(farRec{acc: int32(lf.dst.Len() - 1), far: far})
		}
	}
}

// farRec is what finish must check of the bounds of the access at index
// acc of its array: far is -1 when its farthest start overflows int64
// (an error if the name resolves), else the farthest start itself (an
// error if it is not inside the resolved buffer).
type farRec struct {
	acc int32
	far int64
}

// operand is the name of an access of the open leaf, as access took it:
// a string of the parser's (valid until the leaf ends, see window) and
// its token's pre.
type operand struct {
	name string
	pre  int32
	hash uint64 // see prefetch
}

// prefetch starts loading the name table's slot of the name s, whose
// token's pre is pre, for a lookup soon after (lookup), and returns what
// that lookup needs: its hash (nameTable.prefetch). A name scanned ahead
// (pre > 0) needs neither (internPre).
func (b *builder) prefetch(s string, pre int32) uint64 {
	if pre != 0 {
		return 0
	}
	return b.names.prefetch(s)
}

// lookup is internPre(s, pre) for a name prefetch returned hash for.
func (b *builder) lookup(s string, pre int32, hash uint64) int32 {
	if pre != 0 {
		return b.internPre(s, pre)
	}
	return b.names.internHash(s, hash)
}

// resolveOperands sets the Buffer of each access of the open leaf (see
// ref), in order, so that the names get their ids in order of first
// appearance as if each were looked up where it is read. Looking them up
// when the leaf ends is what pays: the name table is larger than the
// CPU's caches, and the one cache miss a lookup costs is its first slot
// (the probes after it and the name's record are mostly cached), which
// access asked the CPU to load (nameTable.prefetch) while the rest of
// the op was parsed. On the wide family's graph (2.7 million names, a
// dozen operands an op, read through the command's window, where the
// names are not numbered ahead), the lookups, each waiting on its slot,
// were 29 % of parsing and checking it; the kargs and loops families
// parse some 10 % faster too. A source scanned ahead (pre > 0) needs no
// lookup but the first of each name (internPre).
func (b *builder) resolveOperands() {
	lf := &b.lf
	accs := lf.dst.Slice(lf.off, int32(lf.dst.Len()))
	for i, o := range b.operands {
		accs[i].Buffer = b.ref(b.lookup(o.name, o.pre, o.hash))
	}
	clear(b.operands) // the names may be the parser's window
	b.operands = b.operands[:0]
}

// leafEnd closes the open leaf.
func (b *builder) leafEnd() {
	lf := &b.lf
	b.resolveOperands()
	n := lf.dst.Len() - int(lf.off)
	if lf.nreads < 0 {
		lf.nreads = n
	}
	switch {
	case lf.cpu && lf.top:
		b.g.CPU = append(b.g.CPU, ir.CPUNode{
			Name:     b.g.Str(lf.node),
			Pos:      lf.name.Pos,
			NReads:   int32(lf.nreads),
			Accesses: ir.Span{Off: lf.off, Len: int32(n)},
		})
	case lf.cpu:
		// Misplaced (reported): its operands stay in refs, only to be
		// resolved for their errors.
	default:
		step := b.ops.Mark() - b.opsStart
		if b.nops++; b.memHook != nil && b.nops&0xffff == 0 {
			b.measure()
		}
		op := ir.Op{
			Name:     lf.node,
			Pos:      lf.name.Pos,
			NReads:   int32(lf.nreads),
			Accesses: ir.Span{Off: lf.off, Len: int32(n)},
			Loops:    b.loopStack,
			Cores:    lf.cores,
			Kind:     lf.kind,
		}
		b.ops.Push(&b.opsStart, op)
		if len(b.attrs) > 0 {
			// Set on the slab's copy: the address of op handed to a
			// function value would move every op to the heap.
			open := b.ops.Open(b.opsStart)
			last := &open[len(open)-1]
			for _, a := range b.attrs {
				keywords[a.k].set(last, a.n)
			}
		}
		b.itemStack = append(b.itemStack, ir.Item{Op: int32(step), Loop: -1})
		if lf.top {
			b.endBundle()
		}
	}
	b.lf = leafState{} // drop the names, which may be in the parser's window
	b.attrs = b.attrs[:0]
}

func (b *builder) openFused(name Name) {
	s := b.g.Str(b.node(name))
	if len(b.open) == 0 {
		b.startBundle(s, name.Pos, ir.KindFused)
	}
	// A fused block nested in a bundle only groups nodes; its contents
	// belong to the enclosing body.
	b.open = append(b.open, openBlock{loop: -1})
}

func (b *builder) openLoop(name, count Name) {
	s := b.g.Str(b.node(name))
	if len(b.open) == 0 {
		b.startBundle(s, name.Pos, ir.KindLoop)
	}
	n, ok := b.integerName(count)
	if ok && n == 0 {
		b.errorf(count.Pos, "loop %s has count 0", quoteText(name.Value))
	}
	parent := -1
	stack := b.stack()
	if len(stack) > 0 {
		parent = int(stack[len(stack)-1])
	}
	k := b.loops.Mark() - b.loopsStart
	b.loops.Push(&b.loopsStart, ir.Loop{
		Name:   s,
		Pos:    name.Pos,
		Count:  n,
		Parent: int32(parent),
		Depth:  int32(len(stack) + 1),
		First:  int32(b.ops.Mark() - b.opsStart),
	})
	b.itemStack = append(b.itemStack, ir.Item{Op: -1, Loop: int32(k)})
	b.open = append(b.open, openBlock{loop: k, items: len(b.itemStack), outer: b.loopStack})
	b.loopList = append(append(b.loopList[:0], stack...), int32(k))
	b.loopStack = b.g.AddLoopList(b.loopList)
}

// close ends the innermost open fused or loop block.
func (b *builder) close() {
	o := b.open[len(b.open)-1]
	b.open = b.open[:len(b.open)-1]
	if o.loop >= 0 {
		l := &b.loops.Open(b.loopsStart)[o.loop]
		l.Body = b.g.AddItems(b.itemStack[o.items:])
		l.Last = int32(b.ops.Mark() - b.opsStart - 1)
		b.itemStack = b.itemStack[:o.items]
		b.loopStack = o.outer
	}
	if len(b.open) == 0 {
		b.endBundle()
	}
}

// integerName parses a non-size integer literal.
func (b *builder) integerName(t Name) (int64, bool) {
	n, ok := parseInt(t.Value)
	return b.integer(&intLit{n: n, ok: ok, pos: t.Pos})
}

// integer is a parsed non-size integer literal's value, reporting one
// too large.
func (b *builder) integer(t *intLit) (int64, bool) {
	if !t.ok {
		b.errorf(t.pos, "integer literal too large (the largest is %d)", int64(math.MaxInt64))
		return 0, false
	}
	return t.n, true
}

// parseInt is strconv.ParseInt(s, 10, 64) without its error value, fast
// for the decimal literals the scanner makes.
func parseInt(s string) (int64, bool) {
	if len(s) == 0 || len(s) > 18 {
		n, err := strconv.ParseInt(s, 10, 64)
		return n, err == nil
	}
	var n int64
	for i := 0; i < len(s); i++ {
		c := s[i] - '0'
		if c > 9 {
			n, err := strconv.ParseInt(s, 10, 64)
			return n, err == nil
		}
		n = n*10 + int64(c) // 18 digits cannot overflow
	}
	return n, true
}

// ref is a reference to a buffer as an Access holds it while the graph is
// built: the index of the buffer named id, or -(id+2) when no buffer of
// that name is declared yet.
func (b *builder) ref(id int32) int32 {
	if e := b.names.entry(id); e.buf >= 0 {
		return e.buf
	}
	return -id - 2
}

// internPre is names.intern(s) for a name whose token's pre is set
// when the scanner ran ahead (pipe.go): pre-1 numbers the distinct
// names of the source, so that after the first, a name's id is one
// load from byPre, with no hash, probe or comparison on the parser's
// path. The ids are those intern gives, in the same order.
func (b *builder) internPre(s string, pre int32) int32 {
	if pre == 0 {
		return b.names.intern(s)
	}
	if int(pre) < len(b.byPre) {
		if id := b.byPre[pre]; id != 0 {
			return id - 1
		}
	} else {
		b.byPre = append(b.byPre, make([]int32, int(pre)+1-len(b.byPre)+len(b.byPre)/2)...)
	}
	id := b.names.intern(s)
	b.byPre[pre] = id + 1
	return id
}

// far is the farthest start of an access with a step or a split: its
// largest core offset plus the sum over its enclosing loops of stride *
// (count - 1); -1 when that overflows, 0 when there is nothing to check
// (a loop count is 0 or too large, which is reported).
func (b *builder) far(acc *ir.Access) int64 {
	far, fits := int64(0), true
	cores := b.g.IntList(b.lf.cores)
	for d, s := range b.g.Split(acc) {
		term, ok := mul(cores[d]-1, s)
		if fits = ok; fits {
			far, fits = add(far, term)
		}
		if !fits {
			break
		}
	}
	stack := b.stack()
	for k, st := range b.g.Strides(acc) {
		if !fits {
			break
		}
		count := b.loops.Open(b.loopsStart)[int(stack[k])].Count
		if count < 1 {
			return 0
		}
		term, ok := mul(st, count-1)
		if fits = ok; fits {
			far, fits = add(far, term)
		}
	}
	if !fits {
		return -1
	}
	return far
}

// intList returns a scratch list of n zeros to fill in and give to
// lists.add (see intLists), valid until the next intList.
func (b *builder) intList(n int) []int64 {
	t := &b.lists
	t.tmp = slices.Grow(t.tmp[:0], n)[:n]
	clear(t.tmp)
	return t.tmp
}

// split checks an access's split clause against the open leaf's cores.
func (b *builder) split(s ints) (ir.IntsRef, bool) {
	lf := &b.lf
	switch {
	case lf.cpu:
		b.errorf(s.pos, "split on an access of cpu node %s; only op nodes run on cores", quoteText(lf.name.Value))
		return 0, false
	case !lf.hasCores:
		b.errorf(s.pos, "split on an access of op %s, which has no cores", quoteText(lf.name.Value))
		return 0, false
	case len(s.ints) != lf.ncores:
		b.errorf(s.pos, "split has %s but the op's cores list has %s",
			plural(len(s.ints), "entry", "entries"), plural(lf.ncores, "entry", "entries"))
		return 0, false
	}
	split := b.intList(len(s.ints))
	ok := true
	for k := range s.ints {
		var good bool
		split[k], good = b.integer(&s.ints[k])
		ok = ok && good
	}
	return b.lists.add(b.g, split), ok
}

// strides checks a step clause inside depth loops; ok is false when it
// has an error.
func (b *builder) strides(s ints, depth int) (ir.IntsRef, bool) {
	if depth == 0 {
		b.errorf(s.pos, "step outside any loop")
		return 0, false
	}
	if s.list && len(s.ints) != depth {
		b.errorf(s.pos, "step list has %s but the op is inside %s", plural(len(s.ints), "entry", "entries"), plural(depth, "loop", "loops"))
		return 0, false
	}
	strides := b.intList(depth)
	ok := true
	if !s.list {
		strides[depth-1], ok = b.integer(&s.ints[0])
	} else {
		for k := range s.ints {
			var good bool
			strides[k], good = b.integer(&s.ints[k])
			ok = ok && good
		}
	}
	return b.lists.add(b.g, strides), ok
}

// measure calls the memory hook, when set (pipeConfig.memHook: by this
// package's benchmarks only), at the points where the builder's live
// heap may peak: every 65536 ops and between the steps of finish.
func (b *builder) measure() {
	if b.memHook != nil {
		b.memHook()
	}
}

// finish resolves what waited for the whole graph (renames, references,
// bounds, aliases and claims), builds the groups and returns the graph,
// or every diagnostic sorted when there is any.
func (b *builder) finish() (*ir.Graph, ErrorList) {
	g := b.g
	b.lists, b.pairs = intLists{}, addressings{}
	// Every bundle is cut: what the slabs hold now is scratch (see
	// slab.Slab.Cut).
	b.ops, b.loops = slab.Slab[ir.Op]{}, slab.Slab[ir.Loop]{}
	b.measure()
	// The node names' duplicates are found on a goroutine of their own,
	// beside the steps below, when the graph is small (a large one's
	// sort keys would add to its peak heap, see measure) but has
	// thousands of nodes (a few are sorted in less time than a goroutine
	// takes to start), and no memHook samples the heap; their
	// diagnostics join the rest before the sort, which orders them all.
	var dupErrs ErrorList
	var dupDone chan struct{}
	nodes := 0
	for _, c := range b.nodeDecls {
		nodes += len(c)
	}
	if b.small && b.dupAside > 0 && nodes >= b.dupAside && b.memHook == nil {
		dupDone = make(chan struct{})
		decls := b.nodeDecls
		b.nodeDecls = nil
		go func() {
			defer close(dupDone)
			nodeDuplicates(b.file, decls, &g.Names, &dupErrs, b.measure)
		}()
	}
	b.resolveRenames()
	// Renames shadow buffers of their name: an operand that resolved on
	// sight to such a buffer goes through the rename instead.
	var shadow []int32 // buffer -> effective rename + 1
	for i, r := range b.renames {
		if e := b.names.entry(r.from); e.buf >= 0 {
			if shadow == nil {
				shadow = make([]int32, g.Buffers.Len())
			}
			shadow[e.buf] = int32(i) + 1
		}
	}
	// The positions of the operands' diagnostics: an operand of
	// Graph.Accesses has its column on its node's line (ir.Graph.AccessPos),
	// whose node is found when first needed; refs keep theirs whole.
	var owners nodeSpans
	posOf := func(ref, i int) ir.Pos {
		if ref == 1 {
			return b.refPos[i]
		}
		if owners == nil {
			owners = b.nodeSpans()
		}
		return owners.pos(g, i)
	}
	// resolve resolves acc, operand i of Graph.Accesses (ref 0) or refs
	// (1), whose farthest start is far (0: nothing to check).
	resolve := func(ref, i int, acc *ir.Access, far int64) {
		written := ""
		if enc := acc.Buffer; enc >= 0 {
			written = g.Str(g.Buffers.At(int(enc)).Name)
			if shadow != nil && shadow[enc] != 0 {
				acc.Buffer = int32(b.renameTo[shadow[enc]-1])
			}
		} else {
			written = b.names.name(-enc - 2)
			buf, ok := b.resolved(-enc - 2)
			if !ok {
				// A diagnostic's position: found only then.
				buf = b.resolve(-enc-2, posOf(ref, i))
				if buf < 0 && isKeyword(written) {
					b.errs.add(posOf(ref, i).In(b.file), "%s", keywordMsg(written))
				}
			}
			acc.Buffer = int32(buf)
		}
		if acc.Buffer < 0 || far == 0 {
			return
		}
		buf := g.Buffers.At(int(acc.Buffer))
		switch {
		case far < 0:
			b.errs.add(posOf(ref, i).In(b.file), "the farthest start of the access to %s overflows int64", quoteText(written))
		case far >= buf.Size:
			b.errs.add(posOf(ref, i).In(b.file), "access to %s reaches byte offset %d but %s is %d bytes",
				quoteText(written), far, quoteText(g.Str(buf.Name)), buf.Size)
		}
	}
	for ref, arr := range [2]struct {
		accs *ir.Chunked[ir.Access]
		fars *ir.Chunked[farRec]
	}{{&g.Accesses, &b.fars}, {&b.refs, &b.refFars}} {
		// The far records are in the order of the accesses.
		next, nextAcc := 0, int32(-1)
		if arr.fars.Len() > 0 {
			nextAcc = arr.fars.At(0).acc
		}
		for i, acc := range arr.accs.All() {
			far := int64(0)
			if int32(i) == nextAcc {
				far = arr.fars.At(next).far
				if next++; next < arr.fars.Len() {
					nextAcc = arr.fars.At(next).acc
				}
			}
			resolve(ref, i, acc, far)
		}
	}
	b.refs, b.refPos = ir.Chunked[ir.Access]{}, nil
	b.fars, b.refFars = ir.Chunked[farRec]{}, ir.Chunked[farRec]{}
	for _, a := range b.aliases.All() {
		a.v = b.resolve(a.view, a.viewPos)
		a.t = b.resolve(a.target, a.targetPos)
		a.viewName = b.names.name(a.view)
	}
	claims := make([]int, b.claims.Len())
	for i, c := range b.claims.All() {
		claims[i] = b.resolve(c.name, c.pos)
	}
	// Every name is resolved: the table can go before the groups are
	// built.
	b.measure()
	b.suggestNames()
	b.names.slots, b.names.entries = nil, nil
	if dupDone == nil {
		nodeDuplicates(b.file, b.nodeDecls, &g.Names, &b.errs, b.measure)
		b.nodeDecls = nil
	}
	b.names = nil
	// As without the sizing of a small source:
	if len(g.Ints) == 0 {
		g.Ints = nil
	}
	if len(g.Items) == 0 {
		g.Items = nil
	}
	if len(g.LoopLists) == 0 {
		g.LoopLists = nil
	}
	if g.Bundles == nil {
		g.Bundles = []ir.Bundle{}
	}
	g.Accesses.Trim()
	g.AccessCols.Trim()
	g.Buffers.Trim()
	g.Ints, g.Items, g.Addressings = ir.Trimmed(g.Ints), ir.Trimmed(g.Items), ir.Trimmed(g.Addressings)
	g.LoopLists, g.Bundles = ir.Trimmed(g.LoopLists), ir.Trimmed(g.Bundles)
	b.buildGroups(claims)
	b.measure()
	if dupDone != nil {
		<-dupDone
		b.errs = append(b.errs, dupErrs...)
	}
	if len(b.errs) > 0 {
		b.errs.Sort()
		return nil, b.errs
	}
	return g, nil
}

// nodeSpans lists the nodes of Graph.Accesses in the order of their
// operands, for the positions of diagnostics (an operand's is relative
// to its node's: see ir.Graph.AccessPos).
type nodeSpans []nodeSpan

type nodeSpan struct {
	off int32 // the node's first operand
	pos ir.Pos
}

// nodeSpans returns the nodes of Graph.Accesses.
func (b *builder) nodeSpans() nodeSpans {
	var n nodeSpans
	add := func(pos ir.Pos, s ir.Span) {
		if s.Len > 0 {
			n = append(n, nodeSpan{s.Off, pos})
		}
	}
	for bi := range b.g.Bundles {
		for oi := range b.g.Bundles[bi].Ops {
			op := &b.g.Bundles[bi].Ops[oi]
			add(op.Pos, op.Accesses)
		}
	}
	for _, c := range b.g.CPU {
		add(c.Pos, c.Accesses)
	}
	slices.SortFunc(n, func(x, y nodeSpan) int { return cmp.Compare(x.off, y.off) })
	return n
}

// pos returns where operand i of Graph.Accesses is written.
func (n nodeSpans) pos(g *ir.Graph, i int) ir.Pos {
	k := sort.Search(len(n), func(k int) bool { return n[k].off > int32(i) }) - 1
	return g.AccessPos(n[k].pos, int32(i))
}

// resolve maps the name id, referenced at p, to its buffer through the
// renames; -1 when it cannot, after reporting why (unless a broken rename
// chain was already reported, or the name is a keyword, which is
// reported where it is written: see keyword).
func (b *builder) resolve(id int32, p ir.Pos) int {
	if buf, ok := b.resolved(id); ok {
		return buf
	}
	if isKeyword(b.names.name(id)) {
		return -1
	}
	b.errs.add(p.In(b.file), "undeclared buffer %s", quoteText(b.names.name(id)))
	b.errs[len(b.errs)-1].undeclared = id + 1
	return -1
}

// resolved is resolve for a name that resolves without a diagnostic
// (ok: renamed or declared): its buffer, or -1 when a broken rename
// chain was already reported.
func (b *builder) resolved(id int32) (buf int, ok bool) {
	e := b.names.entry(id)
	if e.ren >= 0 {
		return b.renameTo[e.ren], true
	}
	if e.buf >= 0 {
		return int(e.buf), true
	}
	return -1, false
}
