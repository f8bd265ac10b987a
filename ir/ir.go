// Package ir is the checked model of one bundle-IR graph: the single data
// structure that the frontend produces and that the planner, the MLIR
// emitter and the reporting tools consume.
//
// Everything in a Graph has already been validated: names are resolved
// (renames applied), alias groups are closed, sizes are rounded to 128-byte
// sticks and step lists have one stride per enclosing loop. Later stages
// therefore never report input errors; they may rely on these invariants.
// Slices are in source order unless a field says otherwise, so walking them
// is deterministic.
//
// A graph of a million ops is held in memory whole, so its most numerous
// parts are compact: indices are int32, and no op, CPU node, group, loop
// or access holds a list of its own. Their lists live in graph-wide arrays that
// hold no pointers (Graph.Ints, Accesses, LoopLists, MemberLists and
// Items), located by a Span (offset and length) or, in Ints and
// LoopLists, by one int32 offset with the length stored just before the
// list, and read through Graph methods that return capacity-capped
// slices (Reads, Writes, OpAccesses, CPUReads, CPUWrites, CPUAccesses,
// OpLoops, Cores, Members, LoopBody, Strides, Split). The garbage
// collector never scans those arrays. The names of the buffers and ops
// are Names, 8-byte references into the graph's one NameStore (Names),
// read with Graph.Str: a Buffer, an Op, an Access and a Group hold no
// pointer at all, a CPUNode and a Loop only their name (a string that
// shares the store's bytes).
package ir

import (
	"cmp"
	"fmt"
	"slices"
)

// Pos is a compact source position in the graph's file: 1-based line and
// byte column. It is the one position type of the pipeline: the
// frontend's scanner, its AST (frontend.Pos is this type) and the graph
// carry the same value, unconverted. The file name is stored once, in
// Graph.File (while parsing, in the frontend's state), and In, through
// Graph.Position for a graph's positions, is the one way to the printable
// FILE:LINE:COL. (The frontend rejects inputs of 2 GiB or more, so both
// numbers fit in 32 bits.) Pos deliberately has no String method:
// printing one without its file is a `go vet` printf error rather than a
// silently incomplete position.
//
// Every op, buffer, loop and token carries one, so it is 8 bytes, the
// line and column packed side by side (an access carries only its
// column, 2 bytes: see Graph.AccessCols). go/token's other design, an
// offset resolved through a table of line starts, would make it 4 bytes
// but cost 4 per source line: on the synthetic 1M-op graph (2.8M lines,
// 1M ops) it would save 4 MB on the ops (a Buffer or Loop, 8-byte
// aligned, would not shrink) and spend 11 MB on the table, while the
// scanner would record every line start in its hot loop and every
// position printed would search the table. Line and column need no
// table, so a position of a graph that a test or a tool builds by hand
// is just its two numbers.
type Pos struct {
	Line, Col int32
}

// In returns p as a self-contained position in file.
func (p Pos) In(file string) Position {
	return Position{File: file, Line: int(p.Line), Col: int(p.Col)}
}

// Position is a self-contained source position, FILE:LINE:COL, as
// diagnostics and reports print it. Make one with Pos.In (or
// Graph.Position).
type Position struct {
	File string
	Line int
	Col  int
}

func (p Position) String() string {
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// StickBytes is the HBM allocation granule: every size is a multiple of it.
const StickBytes = 128

// Graph is one checked `graph` block.
type Graph struct {
	Name string
	// Names stores the names of the buffers and ops (Buffer.Name and
	// Op.Name locate them), and the bytes the frontend's other names
	// (bundles, loops, CPU nodes, kinds, the graph's) share. Read a Name
	// with Graph.Str; add one with Graph.AddName.
	Names NameStore
	// File is the source file name every Pos of the graph refers to.
	File string
	Pos  Pos
	// Buffers holds every declared buffer in declaration order, in
	// chunks (see Chunked).
	Buffers Chunked[Buffer]
	// Views are the alias lines' left sides, in the order of the lines
	// (Buffer.View indexes it).
	Views []View
	// Groups holds the storage (alias) groups, ordered by their sort key
	// (Graph.GroupKey: the smallest member name, byte order).
	Groups []Group
	// Bundles holds the top-level op, fused and loop nodes in text order.
	Bundles []Bundle
	// CPU holds the top-level cpu fallback nodes in text order.
	CPU []CPUNode
	// Renames holds the `rename FROM -> TO` declarations in source
	// order, each with the buffer its chain ends at. Accesses and claims
	// already name that buffer; these are the declarations as written,
	// for the reports.
	Renames []Rename
	// Claims holds every name listed on an `input`, `output` or `lx`
	// line, in source order. GroupClaims summarises them.
	Claims []Claim
	// GroupClaims has one entry per group, GroupClaims[i] for Groups[i]:
	// the kinds of the claims (Claims) on any of the group's members,
	// whether it holds a graph input, a graph output or an LX-claimed
	// name.
	GroupClaims []ClaimSet
	// Ints holds the step and split lists of every access and the cores
	// lists of the ops, each after its length, located by
	// Addressing.Strides, Addressing.Split and Op.Cores (see IntsRef).
	// Lists are read-only, so equal ones may be one: the frontend stores
	// each distinct list once and every reference to an equal list
	// locates that one.
	Ints []int64
	// Kinds holds the distinct `kind` names of the ops (v3), located by
	// Op.Kind. Kinds[0] is "" (no kind) whenever any op has a kind; a
	// graph without kinds may leave it nil.
	Kinds []string
	// Addressings holds the distinct pairs of step and split lists of
	// the accesses (located by Access.Addressing); Addressings[0] is the
	// zero pair whenever any other is present, and a graph without steps
	// and splits may leave it nil.
	Addressings []Addressing
	// Accesses holds the operands of every op of every bundle and of
	// every CPU node, each one's reads then writes (located by
	// Op.Accesses and Op.NReads, CPUNode.Accesses and CPUNode.NReads),
	// each op's and node's in one chunk (see Chunked).
	Accesses Chunked[Access]
	// AccessCols says where each operand's name is written, indexed as
	// Accesses (the two are pushed together: Graph.PushAccess): its
	// column + 1 when it is on the line of its node's name (Op.Pos,
	// CPUNode.Pos), as nearly every operand is, and the column is at
	// most MaxAccessCol; else 0, and its position is in AccessPositions.
	// It is empty in a graph built by hand without positions (NewOp,
	// NewCPUNode): every operand then reads as its node's position. Read
	// it with Graph.AccessPos.
	//
	// Why a parallel array of 2 bytes rather than a field of Access:
	// positions are read only for diagnostics and reports, never while
	// planning or printing MLIR, and the accesses are the most numerous
	// part of a graph (8.6 million in the largest 1M-op graphs). A
	// 4-byte field made an Access 12 bytes, 103 MB of such a graph's
	// peak live heap of 525 MB; an 8-byte Access and its 2-byte column
	// take 86 MB. The column of an operand on its node's line is all a
	// position needs (the line is the node's); the few others are kept
	// aside whole.
	AccessCols Chunked[uint16]
	// AccessPositions holds the positions of the operands whose
	// AccessCols entry is 0 (written on another line than their node's
	// name, or past column MaxAccessCol), sorted by AccessPosition.Access
	// (which is source order).
	AccessPositions []AccessPosition
	// LoopLists holds the enclosing-loop lists of the ops (located by
	// Op.Loops), each after its length: indices into the op's
	// Bundle.Loops.
	LoopLists []int32
	// MemberLists holds the member lists of the groups (located by
	// Group.Members): indices into Buffers.
	MemberLists []int32
	// Items holds the bodies of the loops of every bundle (located by
	// Loop.Body).
	Items []Item
}

// Rename is one `rename FROM -> TO` declaration, its chain resolved.
type Rename struct {
	From string
	// Pos is the position of FROM in the declaration.
	Pos Pos
	// To indexes Graph.Buffers: the declared buffer the chain ends at
	// (not the immediate target when renames chain).
	To int
}

// ClaimKind says which list line a claim is on.
type ClaimKind uint8

const (
	ClaimInput  ClaimKind = iota // `input`: a graph input
	ClaimOutput                  // `output`: a graph output
	ClaimLX                      // `lx`: claimed by LX scratchpad planning
)

func (k ClaimKind) String() string {
	switch k {
	case ClaimInput:
		return "input"
	case ClaimOutput:
		return "output"
	case ClaimLX:
		return "lx"
	}
	return fmt.Sprintf("ClaimKind(%d)", int(k))
}

// ClaimSet is a set of claim kinds, one byte: bit k holds ClaimKind k.
type ClaimSet uint8

// Has reports whether s holds k.
func (s ClaimSet) Has(k ClaimKind) bool { return s&(1<<k) != 0 }

// With returns s with k added.
func (s ClaimSet) With(k ClaimKind) ClaimSet { return s | 1<<k }

// String lists the kinds s holds, "input,lx" say ("none" when empty).
func (s ClaimSet) String() string {
	if s == 0 {
		return "none"
	}
	var b []byte
	for k := range ClaimKind(8) {
		if s.Has(k) {
			if len(b) > 0 {
				b = append(b, ',')
			}
			b = append(b, k.String()...)
		}
	}
	return string(b)
}

// Claim is one name on an `input`, `output` or `lx` line.
type Claim struct {
	Kind ClaimKind
	// Buffer indexes Graph.Buffers: the named buffer, after renames.
	Buffer int
	// Pos is the position of the name in the line.
	Pos Pos
}

// Position returns p, a position in the graph's file, as FILE:LINE:COL:
// p.In(g.File).
func (g *Graph) Position(p Pos) Position { return p.In(g.File) }

// Buffer is one declared buffer, 32 bytes with no pointer (a graph may
// have millions; the few that are views keep their alias in
// Graph.Views).
type Buffer struct {
	// Name locates the buffer's name in Graph.Names: read it with
	// Graph.Str.
	Name Name
	Pos  Pos
	// Size is the byte size rounded up to a whole number of sticks.
	Size int64
	// Group indexes Graph.Groups: the storage this buffer is a name of.
	Group int32
	// View indexes Graph.Views when this name is the left side of an
	// `alias` line, or is -1 (the name is its group's root). Read it
	// with Graph.ViewOf.
	View int32
}

// View is what the line `alias NAME = BASE + OFF` declares of NAME, and
// where that puts NAME in its group's storage.
type View struct {
	// Alias indexes Graph.Buffers: the line's BASE (-1 in the View of a
	// name that is no alias's left side).
	Alias int32
	// AliasOffset is the line's OFF (0 without `+`). Alias and
	// AliasOffset are the declaration as written; ViewOffset and
	// Group.Size are derived from them (and re-derived by the verifier).
	AliasOffset int64
	// ViewOffset is where the name starts inside its group's storage:
	// the sum of the `alias v = t + OFF` offsets on its chain to the
	// group's root (0 for the root itself).
	ViewOffset int64
}

// ViewOf returns b's View: the zero offsets and Alias -1 for a name that
// is no alias's left side.
func (g *Graph) ViewOf(b *Buffer) View {
	if b.View < 0 {
		return View{Alias: -1}
	}
	return g.Views[b.View]
}

// EditView returns b's View to be written, first adding one (Alias -1,
// zero offsets) to Views when b has none: how the frontend records an
// alias line, and how a tool or test places a name in its storage.
func (g *Graph) EditView(b *Buffer) *View {
	if b.View < 0 {
		b.View = int32(len(g.Views))
		g.Views = append(g.Views, View{Alias: -1})
	}
	return &g.Views[b.View]
}

// Group is one storage: a buffer and all its aliases (views). Every
// planning rule applies to a group as a whole. A group is 16 bytes with
// no pointer (a graph may have millions of them): its members are a Span
// of the graph-wide Graph.MemberLists, read with Graph.Members, the first
// of them its root (Graph.Root), whose name is what reports call the
// group; its sort key is derived from them by Graph.GroupKey. Which
// claims its members carry is Graph.GroupClaims[i], i its index in
// Graph.Groups.
type Group struct {
	// Size is the largest ViewOffset+Size over the members: the bytes
	// the one allocation of the group must hold.
	Size int64
	// Members locates in Graph.MemberLists the indices into
	// Graph.Buffers of the members (never empty): the root first, then
	// the others in declaration order.
	Members Span
}

// Members returns the group's members (indices into g.Buffers: the root
// first, then the others in declaration order), capacity capped.
func (g *Graph) Members(gr *Group) []int32 {
	if gr.Members.Len == 0 {
		return nil
	}
	end := gr.Members.Off + gr.Members.Len
	return g.MemberLists[gr.Members.Off:end:end]
}

// Root returns the group's root (an index into g.Buffers): its first
// member, the one that is not the left side of an `alias`. Reports call
// the group by the root's name.
func (g *Graph) Root(gr *Group) int32 { return g.MemberLists[gr.Members.Off] }

// GroupKey is the group's sort key: its smallest member name in byte
// order. It breaks ties wherever groups are sorted (planning's order);
// Graph.Groups is in its order. It is not what the group is called: the
// reports call a group by its root's name (Graph.Root), the one member
// that is not a view of another.
func (g *Graph) GroupKey(gr *Group) string {
	name := ""
	for k, m := range g.Members(gr) {
		if n := g.Str(g.Buffers.At(int(m)).Name); k == 0 || n < name {
			name = n
		}
	}
	return name
}

// AddMembers appends v to g.MemberLists and returns its span, as
// Group.Members holds it (the zero Span when v is empty).
func (g *Graph) AddMembers(v []int32) Span {
	if len(v) == 0 {
		return Span{}
	}
	off := len(g.MemberLists)
	g.MemberLists = append(g.MemberLists, v...)
	return Span{Off: int32(off), Len: int32(len(v))}
}

// NodeKind says which construct a bundle came from.
type NodeKind int

const (
	KindOp    NodeKind = iota // a standalone `op`
	KindFused                 // a `fused` block
	KindLoop                  // a bare `loop` block
)

func (k NodeKind) String() string {
	switch k {
	case KindOp:
		return "op"
	case KindFused:
		return "fused"
	case KindLoop:
		return "loop"
	}
	return fmt.Sprintf("NodeKind(%d)", int(k))
}

// Bundle is one kernel invocation.
type Bundle struct {
	Name string
	Pos  Pos
	Kind NodeKind
	// Ops are the leaf ops flattened depth-first in text order; an op's
	// index here is its step.
	Ops []Op
	// Loops are the counted loops of the bundle in depth-first preorder;
	// the index is the loop's number K (`%i_K`, `%loop_bound_K`).
	Loops []Loop
	// Body locates the top level of the bundle's tree, in text order,
	// in Graph.Items: read it with Graph.BundleBody.
	Body Span
}

// Item is one entry of a loop body or bundle body: exactly one of Op and
// Loop is >= 0.
type Item struct {
	Op   int32 // index into Bundle.Ops, or -1
	Loop int32 // index into Bundle.Loops, or -1
}

// Loop is one counted loop. It holds one pointer (its name): its body is
// a Span of the graph-wide Graph.Items, read with Graph.LoopBody.
type Loop struct {
	Name  string
	Pos   Pos
	Count int64
	// Parent is the enclosing loop's index, or -1.
	Parent int32
	// Depth is 1 for an outermost loop.
	Depth int32
	// First and Last are the inclusive span of steps inside the loop;
	// a loop with no leaf op has Last == First-1.
	First, Last int32
	// Body locates the loop's body, in text order, in Graph.Items.
	Body Span
}

// LoopBody returns the loop's body in text order, capacity capped (nil
// when it is empty).
func (g *Graph) LoopBody(l *Loop) []Item { return g.items(l.Body) }

// BundleBody returns the top level of the bundle's tree in text order,
// capacity capped (nil when it is empty).
func (g *Graph) BundleBody(b *Bundle) []Item { return g.items(b.Body) }

func (g *Graph) items(s Span) []Item {
	if s.Len == 0 {
		return nil
	}
	end := s.Off + s.Len
	return g.Items[s.Off:end:end]
}

// AddItems appends v to g.Items and returns its span, as Loop.Body and
// Bundle.Body hold it (the zero Span when v is empty). Items doubles
// past its capacity (see reserve).
func (g *Graph) AddItems(v []Item) Span {
	if len(v) == 0 {
		return Span{}
	}
	off := len(g.Items)
	g.Items = append(reserve(g.Items, len(v)), v...)
	return Span{Off: int32(off), Len: int32(len(v))}
}

// Op is one leaf op (one sdsc_execute). It holds no list of its own:
// its lists are in graph-wide arrays, read through Graph.Reads,
// Graph.Writes, Graph.OpAccesses, Graph.OpLoops and Graph.Cores, and its
// name is in Graph.Names, so that an op is 40 bytes with no pointer (a
// bundle's ops are an array the garbage collector never scans) and the
// arrays behind the lists hold no pointers at all.
//
// An op's step is its index in Bundle.Ops: it is not stored.
type Op struct {
	// Name locates the op's name in Graph.Names: read it with
	// Graph.Str.
	Name Name
	Pos  Pos
	// NReads is how many of the op's accesses are reads: Accesses
	// locates its reads, then its writes, in Graph.Accesses.
	NReads   int32
	Accesses Span
	// Loops locates, in Graph.LoopLists, the indices into Bundle.Loops of
	// the enclosing loops, outermost first: the list is
	// LoopLists[Loops : Loops+LoopLists[Loops-1]], and 0 stands for none
	// (an op at the top level). Read it with Graph.OpLoops.
	Loops int32
	// Cores locates, in Graph.Ints, the `cores` list, one entry per split
	// dimension, each >= 1; absent (Graph.Cores is nil) when the op has
	// no `cores` clause (one core).
	Cores IntsRef
	// Kind indexes Graph.Kinds: the op's `kind` (v3), 0 for an op
	// without one (an op of a kind of its own, which never shares its
	// SDSC file). Two ops of one graph have the same kind exactly when
	// their Kind values are equal and nonzero. Read it with Graph.OpKind.
	Kind int32
}

// OpKind returns the op's `kind`, "" when it has none.
func (g *Graph) OpKind(o *Op) string {
	if o.Kind <= 0 {
		return ""
	}
	return g.Kinds[o.Kind]
}

// InternKind returns the Op.Kind value of kind k, adding it to
// g.Kinds when it is new ("" is 0). It searches linearly: it is for
// code that builds graphs by hand; the frontend interns through its own
// name table.
func (g *Graph) InternKind(k string) int32 {
	if k == "" {
		return 0
	}
	if len(g.Kinds) == 0 {
		g.Kinds = []string{""}
	}
	for i, s := range g.Kinds {
		if i > 0 && s == k {
			return int32(i)
		}
	}
	g.Kinds = append(g.Kinds, k)
	return int32(len(g.Kinds) - 1)
}

// Reads returns the op's read operands, capacity capped (nil when it has
// none).
func (g *Graph) Reads(o *Op) []Access { return g.reads(o.Accesses, o.NReads) }

// Writes returns the op's write operands, capacity capped (nil when it
// has none).
func (g *Graph) Writes(o *Op) []Access { return g.writes(o.Accesses, o.NReads) }

// OpAccesses returns the op's reads then its writes, capacity capped
// (nil when it has none).
func (g *Graph) OpAccesses(o *Op) []Access { return g.accesses(o.Accesses) }

// reads, writes and accesses read the operands located by s, the first
// nreads of them reads, as an Op and a CPUNode hold them.
func (g *Graph) reads(s Span, nreads int32) []Access {
	return g.Accesses.Slice(s.Off, s.Off+nreads)
}

func (g *Graph) writes(s Span, nreads int32) []Access {
	return g.Accesses.Slice(s.Off+nreads, s.Off+s.Len)
}

func (g *Graph) accesses(s Span) []Access {
	return g.Accesses.Slice(s.Off, s.Off+s.Len)
}

// OpLoops returns the indices into its Bundle.Loops of the loops that
// enclose the op, outermost first, capacity capped (nil at the top level).
func (g *Graph) OpLoops(o *Op) []int32 {
	if o.Loops <= 0 {
		return nil
	}
	end := o.Loops + g.LoopLists[o.Loops-1]
	return g.LoopLists[o.Loops:end:end]
}

// Cores returns the op's `cores` list: nil when it has no `cores` clause.
func (g *Graph) Cores(o *Op) []int64 { return g.IntList(o.Cores) }

// NumCores is the number of cores the op runs on: the product of its
// cores entries (1 without a `cores` clause). The frontend bounds it by
// MaxCores.
func (g *Graph) NumCores(o *Op) int {
	n := 1
	for _, s := range g.Cores(o) {
		n *= int(s)
	}
	return n
}

// AddAccesses appends reads then writes to g.Accesses and returns their
// span and the number of reads, as Op.Accesses and Op.NReads (and a
// CPUNode's) hold them. They have no position (see Graph.AccessPos):
// their AccessCols entries are 0 when the graph has any, else there are
// none.
// The caller bounds the total length (the frontend rejects inputs of
// 2 GiB or more, and every access takes at least two bytes of text).
func (g *Graph) AddAccesses(reads, writes []Access) (Span, int32) {
	off := g.Accesses.Append(reads...)
	for _, a := range writes {
		*g.Accesses.Push(off) = a
	}
	if g.AccessCols.Len() > 0 {
		g.padCols(g.Accesses.Len())
	}
	return Span{Off: int32(off), Len: int32(len(reads) + len(writes))}, int32(len(reads))
}

// AddLoopList appends v, after its length, to g.LoopLists and returns
// where it starts, as Op.Loops holds it (0 when v is empty). LoopLists
// doubles past its capacity (see reserve).
func (g *Graph) AddLoopList(v []int32) int32 {
	if len(v) == 0 {
		return 0
	}
	g.LoopLists = append(reserve(g.LoopLists, len(v)+1), int32(len(v)))
	off := len(g.LoopLists)
	g.LoopLists = append(g.LoopLists, v...)
	return int32(off)
}

// NewOp makes an op of g from its name and lists, adding them to the
// graph's store and arrays (a convenience for code that builds graphs by
// hand; cores nil means no `cores` clause).
func (g *Graph) NewOp(name string, loops []int32, cores []int64, reads, writes []Access) Op {
	op := Op{Name: g.AddName(name), Loops: g.AddLoopList(loops), Cores: g.AddInts(cores)}
	op.Accesses, op.NReads = g.AddAccesses(reads, writes)
	return op
}

// MaxCores bounds the product of an op's `cores` entries. Spyre cards have
// 32 cores; the bound keeps the per-core symbols of one op finite on
// hostile input.
const MaxCores = 4096

// Access is one read or write operand, 8 bytes. It holds no pointers
// (the graph of a large input has millions of accesses, and the garbage
// collector would otherwise mark every one): its `step` and `split` lists
// are a pair of Graph.Addressings, read through Graph.Strides and
// Graph.Split, and its position is not in it but in Graph.AccessCols
// (see there why), read with Graph.AccessPos.
type Access struct {
	// Buffer indexes Graph.Buffers, after renames are resolved; its
	// group (Graph.GroupOf) is the storage accessed.
	Buffer int32
	// Addressing indexes Graph.Addressings: the operand's `step` and
	// `split` lists; 0 when it has neither. Read it with
	// Graph.AddressingOf (or Strides and Split).
	Addressing int32
}

// AccessPosition is the position of the operand at index Access of
// Graph.Accesses, when Graph.AccessCols cannot hold it.
type AccessPosition struct {
	Access int32
	Pos    Pos
}

// MaxAccessCol is the largest column Graph.AccessCols holds (as the
// column + 1, in 2 bytes).
const MaxAccessCol = 1<<16 - 2

// Addressing is how an operand's address moves: per iteration of its
// enclosing loops (its `step`) and per core of its op (its `split`).
// Graph.Addressings holds each distinct pair once: the accesses of a
// graph repeat a few pairs over and over (the synthetic families' 1M-op
// graphs have 2.8 to 8.6 million accesses but 53,000 to 309,000 distinct
// pairs), so an access keeps one 4-byte index instead of two references.
type Addressing struct {
	// Strides locates the bytes the address advances per iteration of
	// each enclosing loop, outermost first (len(Graph.OpLoops) entries);
	// it is absent (0) when the access has no `step`.
	Strides IntsRef
	// Split locates the `split` bytes, one per entry of the op's cores;
	// absent for a broadcast access (every core uses the same address).
	Split IntsRef
}

// AddressingOf returns the access's step and split lists (the zero
// Addressing when it has neither).
func (g *Graph) AddressingOf(a *Access) Addressing {
	if a.Addressing == 0 {
		return Addressing{}
	}
	return g.Addressings[a.Addressing]
}

// AddAddressing appends d to g.Addressings and returns its index, as
// Access.Addressing holds it: 0 for the zero Addressing, which needs no
// entry (Addressings[0] is made zero when the first other is added). It
// does not look for an equal pair; the frontend stores each distinct
// pair once.
func (g *Graph) AddAddressing(d Addressing) int32 {
	if d == (Addressing{}) {
		return 0
	}
	if len(g.Addressings) == 0 {
		g.Addressings = append(g.Addressings, Addressing{})
	}
	g.Addressings = append(g.Addressings, d)
	return int32(len(g.Addressings) - 1)
}

// GroupOf returns the group (an index into g.Groups) that the operand a
// accesses: its buffer's.
func (g *Graph) GroupOf(a *Access) int32 { return g.Buffers.At(int(a.Buffer)).Group }

// PushAccess appends an operand written at p, of a node whose name is
// at node, to g.Accesses, and where it is written to g.AccessCols (and,
// when that cannot hold it, to g.AccessPositions); it returns the
// operand to fill in. As with Chunked.Push, the elements from index
// start on stay in one chunk (the node's operands). The frontend adds
// every operand with it, so that the two arrays keep the same indices.
func (g *Graph) PushAccess(start int32, node, p Pos) *Access {
	a := g.Accesses.Push(start)
	i := g.Accesses.Len() - 1
	if g.AccessCols.Len() != i {
		g.padCols(i) // operands added by AddAccesses
	}
	col := g.AccessCols.Push(start)
	if p.Line == node.Line && p.Col >= 0 && p.Col <= MaxAccessCol {
		*col = uint16(p.Col + 1)
	} else {
		g.AccessPositions = append(g.AccessPositions, AccessPosition{Access: int32(i), Pos: p})
	}
	return a
}

// padCols gives the operands from g.AccessCols.Len() to n-1 the entry 0
// and no AccessPositions entry: no position (see AccessPos).
func (g *Graph) padCols(n int) {
	for g.AccessCols.Len() < n {
		g.AccessCols.Push(int32(g.AccessCols.Len()))
	}
}

// AccessPos returns where operand i of g.Accesses, of the node whose
// name is at node (Op.Pos, CPUNode.Pos), is written: its column on the
// node's line (AccessCols), or its position kept aside
// (AccessPositions, found by binary search). An operand with no
// position (a graph built by hand: AccessCols is empty, or its entry is
// 0 and AccessPositions does not list it) reads as node.
func (g *Graph) AccessPos(node Pos, i int32) Pos {
	if i < 0 || int(i) >= g.AccessCols.Len() {
		return node
	}
	if c := *g.AccessCols.At(int(i)); c != 0 {
		return Pos{Line: node.Line, Col: int32(c) - 1}
	}
	k, found := slices.BinarySearchFunc(g.AccessPositions, i, func(e AccessPosition, i int32) int { return cmp.Compare(e.Access, i) })
	if !found {
		return node
	}
	return g.AccessPositions[k].Pos
}

// Span locates a run of one of the graph-wide arrays Accesses,
// LoopLists, MemberLists and Items: Arr[Off : Off+Len]. An empty list
// needs no distinction from an absent one there and reads back as nil.
type Span struct {
	Off, Len int32
}

// IntsRef locates a list of Graph.Ints, or stands for an absent one (0),
// in 4 bytes: the list's length is stored in Ints just before it, so a
// list at r is Ints[r : r+Ints[r-1]]. A present list, even an empty one,
// has r > 0. Read it with Graph.IntList (or Strides, Split, Cores).
type IntsRef int32

// Present reports whether r locates a list (possibly empty) rather than
// standing for an absent one.
func (r IntsRef) Present() bool { return r > 0 }

// AddInts appends v, after its length, to g.Ints and returns its
// reference: 0 (absent) when v is nil, a present one otherwise, also when
// v is empty. The caller bounds the total length (the frontend rejects
// inputs of 2 GiB or more, and every list takes at least four bytes of
// text, every value two). Ints doubles past its capacity (see reserve).
func (g *Graph) AddInts(v []int64) IntsRef {
	if v == nil {
		return 0
	}
	g.Ints = append(reserve(g.Ints, len(v)+1), int64(len(v)))
	off := len(g.Ints)
	g.Ints = append(g.Ints, v...)
	return IntsRef(off)
}

// reserve returns s with room for n more elements: past its capacity
// the array doubles (from 64), a copy of at most its final size in all,
// where append's quarter steps for a large slice copy it some 35 times
// on the way to a million elements. The arrays the frontend appends to a
// list at a time (Ints, Items, LoopLists) grow this way; the frontend
// trims the spare of a built graph's arrays.
func reserve[T any](s []T, n int) []T {
	if len(s)+n > cap(s) {
		s = slices.Grow(s, max(n, cap(s), 64))
	}
	return s
}

// Trimmed returns s, copied to its length if more than an eighth of its
// array is spare: a complete graph is kept to the end of the run, and
// the arrays that double (see reserve) may have up to half theirs spare.
// Chunked.Trim applies it to its last chunk.
func Trimmed[T any](s []T) []T {
	if cap(s)-len(s) > len(s)/8 {
		return slices.Clip(slices.Clone(s))
	}
	return s
}

// IntList returns the list r locates, with its capacity capped so that
// appending to it cannot overwrite its neighbours; nil when r is absent.
func (g *Graph) IntList(r IntsRef) []int64 {
	if r <= 0 {
		return nil
	}
	end := int(r) + int(g.Ints[r-1])
	return g.Ints[r:end:end]
}

// NewAccess makes an operand of buffer with the given strides and split
// (nil: no `step`, a broadcast access), adding the lists to Ints and
// their pair to Addressings (one pair, shared with no other access): a
// convenience for code that builds a graph by hand, as NewOp.
func (g *Graph) NewAccess(buffer int32, strides, split []int64) Access {
	return Access{Buffer: buffer, Addressing: g.AddAddressing(Addressing{Strides: g.AddInts(strides), Split: g.AddInts(split)})}
}

// SetStrides gives the access a the strides v (nil: no `step`), keeping
// its split; SetSplit gives it the split v (nil: broadcast), keeping its
// strides. They are for code that builds or edits a graph by hand: each
// call adds v to Ints and a pair to Addressings, sharing none.
func (g *Graph) SetStrides(a *Access, v []int64) {
	d := g.AddressingOf(a)
	d.Strides = g.AddInts(v)
	a.Addressing = g.AddAddressing(d)
}

// SetSplit: see SetStrides.
func (g *Graph) SetSplit(a *Access, v []int64) {
	d := g.AddressingOf(a)
	d.Split = g.AddInts(v)
	a.Addressing = g.AddAddressing(d)
}

// Strides returns the access's strides (see Addressing.Strides): nil when
// it has no `step`.
func (g *Graph) Strides(a *Access) []int64 { return g.IntList(g.AddressingOf(a).Strides) }

// Split returns the access's `split` bytes (see Addressing.Split): nil
// for a broadcast access.
func (g *Graph) Split(a *Access) []int64 { return g.IntList(g.AddressingOf(a).Split) }

// CoreOffset is the byte offset of core c's part of access a on an op
// with the given cores list: sum over split dimensions d of i_d*Split[d],
// where i_d = (c / (cores[0]*...*cores[d-1])) mod cores[d] (the first
// dimension varies fastest). It is 0 for a broadcast access and for core
// 0. The frontend has checked that no core offset overflows.
func (g *Graph) CoreOffset(a *Access, cores []int64, c int) int64 {
	split := g.Split(a)
	if split == nil {
		return 0
	}
	var off int64
	rest := int64(c)
	for d, s := range cores {
		off += (rest % s) * split[d]
		rest /= s
	}
	return off
}

// HasStride reports whether any stride of access a is nonzero.
func (g *Graph) HasStride(a *Access) bool {
	for _, s := range g.Strides(a) {
		if s != 0 {
			return true
		}
	}
	return false
}

// CPUNode is a top-level CPU fallback node. It is never a bundle. Like
// an Op it holds no list of its own: its operands are in the graph-wide
// Graph.Accesses, read through Graph.CPUReads, Graph.CPUWrites and
// Graph.CPUAccesses.
type CPUNode struct {
	Name string
	Pos  Pos
	// NReads is how many of the node's accesses are reads: Accesses
	// locates its reads, then its writes, in Graph.Accesses.
	NReads   int32
	Accesses Span
}

// CPUReads returns the CPU node's read operands, capacity capped (nil
// when it has none).
func (g *Graph) CPUReads(c *CPUNode) []Access { return g.reads(c.Accesses, c.NReads) }

// CPUWrites returns the CPU node's write operands, capacity capped (nil
// when it has none).
func (g *Graph) CPUWrites(c *CPUNode) []Access { return g.writes(c.Accesses, c.NReads) }

// CPUAccesses returns the CPU node's reads then its writes, capacity
// capped (nil when it has none).
func (g *Graph) CPUAccesses(c *CPUNode) []Access { return g.accesses(c.Accesses) }

// NewCPUNode makes a CPU node of g, appending its operands to
// g.Accesses (a convenience for code that builds graphs by hand).
func (g *Graph) NewCPUNode(name string, reads, writes []Access) CPUNode {
	c := CPUNode{Name: name}
	c.Accesses, c.NReads = g.AddAccesses(reads, writes)
	return c
}
