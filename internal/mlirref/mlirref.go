// Package mlirref is an independent reference for the MLIR text of the
// docs/bundle-ir.md §4 ("The MLIR"), with the v3 SDSC cache of §4.5.1
// (Options.SDSCCache).
//
// It is written from the contract's words only, deliberately plain and
// slow, and shares no code with package mlirgen: the property test in this
// package compares the two byte for byte on random graphs. It reads the
// checked graph (package ir) and the plan (package planner) and nothing
// else; core offsets are computed here from the bundle-ir.md §2 formula, not with
// ir.Graph.CoreOffset.
//
// Readings of the contract where its words leave room (each is marked
// "Reading" at the code that implements it):
//
//  1. A derived symbol's SSA name comes from the access that registers it
//     in the op: %B_core_O with that access's core-0 value B. When a later
//     access of the same op maps to the same key derived(N, v+o_c) it uses
//     the registered symbol (and its name), whatever its own v and o_c.
//     Across ops the key is registered afresh, so the same key can be
//     declared under two SSA names in one bundle (one pair per distinct
//     SSA name).
//  2. A map is registered by every access that has a nonzero step and is
//     not to an LX group, in the op's operand order, even when none of its
//     cores needs an affine.apply (its symbols already have an %addr in
//     the op): "an access with a nonzero step registers map #map_M". Such a
//     map is printed but never applied. (torch-spyre's generate_bundle
//     also collects maps per tiled tensor argument, not per symbol.)
//  3. The kernel symbol has no declaration pair: its SSA name %arg_N is the
//     input_arg_extract result. Pool, slice and derived symbols are the
//     ones with a pair.
//  4. The pool exists when the bundle pools at least one buffer, i.e. some
//     group has a pool offset in this bundle; its SIZE is the plan's pool
//     size. With --frontend-pool-allocation the same condition decides
//     whether %pool_base_addr is a parameter.
//  5. --generic changes only the three sdscbundle ops; the func, arith,
//     scf and affine lines, the maps and the tab indentation are as in the
//     custom form.
//
// The sdsc_cache (contract v3, Options.SDSCCache; the contract's words:
// "an op whose SDSC would be identical to an earlier op's of the same
// bundle reuses that op's file", with the "Same SDSC" conditions (a)-(e))
// adds these readings:
//
//  6. "Same SDSC" is checked literally, condition by condition, between
//     the op and the first op of each earlier file, in file order; the
//     op takes the first file that matches. Every condition is an
//     equality of something computed from one op alone, so the relation
//     is an equivalence: at most one file can match, and matching the
//     first op of a file is the same as matching any op of it.
//  7. Kinds are compared as strings (Graph.OpKind); an op without a kind
//     ("" there) never reuses a file and no later op reuses its file, but
//     it still takes the next file number (it "reuses no earlier file").
//  8. cores: an op without a `cores` clause has the list [1]; lists are
//     then equal when they have the same length and the same entries in
//     order. So [1, 1] is neither [1] nor "no cores", and [2, 1] is not
//     [2] (the contract names only the second).
//  9. (d) "the same LX storage group" is the same storage group (the
//     group index), whichever of its names the access uses; "split on
//     both or on neither" is about the clause being written, whatever its
//     values (`split 0` is a split). A pooled access and a kernel access
//     never match; two pooled accesses match whatever their groups.
//  10. (e) A symbol's number is its rank among the symbols the op
//     registers, counted from 1 in registration order; a key met again in
//     the same op keeps its first number (Reading 1's rule). Symbols that
//     no core uses (a kernel symbol hidden behind a slice) still take a
//     number, so they shift the table. Both ops have the same accesses
//     and the same cores by (b)-(d), so the tables are compared cell by
//     cell; an LX access has an empty row in both.
//  11. A reusing op's execute keeps its own operands (its own symbols'
//     %addr_K or SSA names) and prints the first op's filename and id
//     list as that op printed them, in both forms; with --generic the
//     operand types follow its own operand count (equal to the first
//     op's by (e)).
//  12. With the cache off, or on with no reuse in the bundle, the file of
//     each op is sdsc_STEP.json: the miss counter and the step agree
//     while every op misses.
package mlirref

import (
	"fmt"
	"strings"

	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/planner"
)

// Options selects the output form.
type Options struct {
	// FrontendPoolAllocation: the pool is the first parameter
	// %pool_base_addr, extracted as the first body op.
	FrontendPoolAllocation bool
	// Generic prints the sdscbundle ops in MLIR's generic form.
	Generic bool
	// SDSCCache turns torch-spyre's sdsc_cache on (upstream's default):
	// an op with the same SDSC as an earlier op of the bundle prints
	// that op's file and ids. Off, every op prints sdsc_STEP.json.
	SDSCCache bool
}

// symbol is one registered symbol of one op.
type symbol struct {
	id  int    // -1, -2, ... through the bundle
	ssa string // its SSA name: %pool_addr_V, %arg_N, %arg_N_slice_S, %B_core_O
	// decl holds the declaration pair (empty for a kernel symbol).
	decl []string
	addr string // its %addr_K in this op, or ""
	// rank is its number in the op's registration order, from 1: the
	// cache's symbol table shape (Reading 10).
	rank int
}

// opInfo is everything printed for one leaf op.
type opInfo struct {
	applies  []string // the affine.apply lines, in order
	operands []string
	ids      []int
	// file and printIDs are what the execute prints: its own file and
	// ids, or those of the first op of the file it reuses.
	file     int
	printIDs []int
}

// sdscFacts is what the sdsc_cache compares of one op (contract v3, "Same
// SDSC" (a)-(e)).
type sdscFacts struct {
	kind           string  // (a); "" = none
	cores          []int64 // (b), [1] without a cores clause
	nreads, nwrite int     // (c)
	storage        []string
	split          []bool  // (d), per access in operand order
	table          [][]int // (e): [access][core] -> symbol rank; nil for LX
}

// sameSDSC reports whether a later op with facts y has the same SDSC as
// an earlier op with facts x, checking (a) to (e) in the contract's order.
func sameSDSC(x, y *sdscFacts) bool {
	// (a) both have a kind, and it is the same (Reading 7).
	if x.kind == "" || y.kind == "" || x.kind != y.kind {
		return false
	}
	// (b) the same cores list, entry by entry (Reading 8).
	if len(x.cores) != len(y.cores) {
		return false
	}
	for d := range x.cores {
		if x.cores[d] != y.cores[d] {
			return false
		}
	}
	// (c) the same number of reads and of writes.
	if x.nreads != y.nreads || x.nwrite != y.nwrite {
		return false
	}
	// (d) per access: the same storage, split on both or neither.
	for i := range x.storage {
		if x.storage[i] != y.storage[i] || x.split[i] != y.split[i] {
			return false
		}
	}
	// (e) the same symbol table shape (Reading 10).
	for i := range x.table {
		if len(x.table[i]) != len(y.table[i]) {
			return false
		}
		for c := range x.table[i] {
			if x.table[i][c] != y.table[i][c] {
				return false
			}
		}
	}
	return true
}

// coreOffset is core c's offset for an access with the given split on an
// op with the given cores list (bundle-ir.md §2): sum over d of i_d*b_d with
// i_d = (c / (s0*...*s(d-1))) mod s_d.
func coreOffset(cores []int64, split []int64, c int) int64 {
	if split == nil {
		return 0
	}
	var off int64
	for d := range cores {
		var below int64 = 1
		for e := 0; e < d; e++ {
			below *= cores[e]
		}
		id := (int64(c) / below) % cores[d]
		off += id * split[d]
	}
	return off
}

// numCores is the product of the cores list (1 without one).
func numCores(cores []int64) int {
	n := 1
	for _, s := range cores {
		n *= int(s)
	}
	return n
}

// Emit returns the module text of bundle bi.
func Emit(g *ir.Graph, p *planner.Result, bi int, opt Options) string {
	e := &emitter{g: g, p: p, bi: bi, b: &g.Bundles[bi], opt: opt,
		nextID: -1, mapOf: map[string]int{}, declared: map[string]bool{}}
	e.kernelArgs()
	e.infos = make([]opInfo, len(e.b.Ops))
	for oi := range e.b.Ops {
		e.op(oi)
	}
	return e.print()
}

// emitter is the state of one bundle's text as Emit builds it: the
// stages (kernel arguments, then each op's symbols, maps, applies,
// execute and file, then the printing) are its methods, in that order.
type emitter struct {
	g   *ir.Graph
	p   *planner.Result
	bi  int
	b   *ir.Bundle
	opt Options

	// argOf numbers the kernel arguments: group -> N.
	argOf   map[int]int
	nargs   int
	hasPool bool

	nextID   int            // the next symbol id: -1, -2, ...
	nextAddr int            // the next %addr_K
	mapOf    map[string]int // key (nonzero steps) -> M
	mapLines []string
	declared map[string]bool // SSA names declared
	decls    []string
	infos    []opInfo
	// The sdsc_cache: the facts of the first op of each file, in file
	// order, and that op's index.
	fileFacts []*sdscFacts
	fileOp    []int
}

// pooled reports whether group gi has a pool offset in this bundle.
func (e *emitter) pooled(gi int) bool {
	return e.p.Groups[gi].Offset >= 0 && int(e.p.Groups[gi].Bundle) == e.bi
}

// kernelArgs numbers the kernel arguments: groups neither pooled nor LX,
// by first access (ops in step order, reads before writes); and decides
// whether the bundle has a pool.
func (e *emitter) kernelArgs() {
	e.argOf = map[int]int{}
	for oi := range e.b.Ops {
		for _, a := range operands(e.g, &e.b.Ops[oi]) {
			gi := int(e.g.GroupOf(&a))
			if e.g.GroupClaims[gi].Has(ir.ClaimLX) {
				continue
			}
			if e.pooled(gi) {
				e.hasPool = true
				continue
			}
			if _, ok := e.argOf[gi]; !ok {
				e.argOf[gi] = e.nargs
				e.nargs++
			}
		}
	}
	// Reading 4: a pooled group of this bundle is always touched by it
	// (its single writer), but check every group anyway.
	for gi := range e.p.Groups {
		if e.pooled(gi) {
			e.hasPool = true
		}
	}
}

// opSyms is the symbols one op registers, by key.
type opSyms struct {
	e     *emitter
	byKey map[string]*symbol
}

// register returns the op's symbol for key, registering it (with the
// bundle's next id, and its declaration pair the first time its SSA name
// is met in the bundle) when the op has none yet.
func (o *opSyms) register(key, ssa string, decl []string) *symbol {
	if s, ok := o.byKey[key]; ok {
		return s
	}
	e := o.e
	s := &symbol{id: e.nextID, ssa: ssa, decl: decl, rank: len(o.byKey) + 1}
	e.nextID--
	o.byKey[key] = s
	// Declarations: one pair per distinct SSA name, in registration
	// order.
	if len(decl) > 0 && !e.declared[ssa] {
		e.declared[ssa] = true
		e.decls = append(e.decls, decl...)
	}
	return s
}

// op builds leaf op oi's symbols, maps, applies, execute operands and
// SDSC file into e.infos[oi].
func (e *emitter) op(oi int) {
	g, op := e.g, &e.b.Ops[oi]
	n := numCores(g.Cores(op))
	syms := &opSyms{e: e, byKey: map[string]*symbol{}}
	// uses[i][c] is the symbol core c of access i uses.
	accs := operands(g, op)
	uses := make([][]*symbol, len(accs))
	maps := make([]int, len(accs)) // map number, -1 when untiled
	for i, a := range accs {
		maps[i] = -1
		if g.GroupClaims[g.GroupOf(&a)].Has(ir.ClaimLX) {
			continue
		}
		uses[i] = e.accessSymbols(syms, op, a, n)
		// Reading 2: the map is registered by the access.
		maps[i] = e.registerMap(g.Strides(&a))
	}
	info := &e.infos[oi]
	e.applies(info, op, accs, uses, maps, n)
	// Execute: each symbol once, first occurrence.
	seen := map[int]bool{}
	for i := range accs {
		for _, s := range uses[i] {
			if seen[s.id] {
				continue
			}
			seen[s.id] = true
			info.ids = append(info.ids, s.id)
			if s.addr != "" {
				info.operands = append(info.operands, s.addr)
			} else {
				info.operands = append(info.operands, s.ssa)
			}
		}
	}
	e.file(oi, accs, uses, n)
}

// accessSymbols registers the symbols access a of op uses, one per core
// of its n.
func (e *emitter) accessSymbols(syms *opSyms, op *ir.Op, a ir.Access, n int) []*symbol {
	g := e.g
	gi := int(g.GroupOf(&a))
	v := g.ViewOf(g.Buffers.At(int(a.Buffer))).ViewOffset
	uses := make([]*symbol, n)
	if e.pooled(gi) {
		P := e.p.Groups[gi].Offset
		for c := 0; c < n; c++ {
			V := P + v + coreOffset(g.Cores(op), g.Split(&a), c)
			name := fmt.Sprintf("%%pool_addr_%d", V)
			uses[c] = syms.register(fmt.Sprintf("pool(%d)", V), name, []string{
				fmt.Sprintf("%%pool_offset_%d = arith.constant %d : index", V, V),
				fmt.Sprintf("%s = arith.addi %%pool, %%pool_offset_%d : index", name, V),
			})
		}
		return uses
	}
	N := e.argOf[gi]
	arg := fmt.Sprintf("%%arg_%d", N)
	kernel := syms.register(fmt.Sprintf("kernel(%d)", N), arg, nil)
	core0 := kernel
	base := arg // the access's core-0 value B
	if v > 0 {
		base = fmt.Sprintf("%%arg_%d_slice_%d", N, v)
		core0 = syms.register(fmt.Sprintf("slice(%d,%d)", N, v), base, []string{
			fmt.Sprintf("%%arg_%d_slice_offset_%d = arith.constant %d : index", N, v, v),
			fmt.Sprintf("%s = arith.addi %s, %%arg_%d_slice_offset_%d : index", base, arg, N, v),
		})
	}
	uses[0] = core0
	o0 := coreOffset(g.Cores(op), g.Split(&a), 0)
	for c := 1; c < n; c++ {
		oc := coreOffset(g.Cores(op), g.Split(&a), c)
		if oc == o0 {
			uses[c] = core0
			continue
		}
		O := oc - o0
		// Reading 1: the name comes from this access; an already
		// registered key keeps its own.
		name := fmt.Sprintf("%s_core_%d", base, O)
		uses[c] = syms.register(fmt.Sprintf("derived(%d,%d)", N, v+oc), name, []string{
			fmt.Sprintf("%s_core_offset_%d = arith.constant %d : index", base, O, O),
			fmt.Sprintf("%s = arith.addi %s, %s_core_offset_%d : index", name, base, base, O),
		})
	}
	return uses
}

// registerMap returns the number of the map of an access with these
// strides, registering it the first time its nonzero steps are met; -1
// when every step is zero (untiled).
func (e *emitter) registerMap(strides []int64) int {
	var nz []int64
	for _, s := range strides {
		if s != 0 {
			nz = append(nz, s)
		}
	}
	if len(nz) == 0 {
		return -1
	}
	key := fmt.Sprint(nz)
	if m, ok := e.mapOf[key]; ok {
		return m
	}
	m := len(e.mapLines)
	e.mapOf[key] = m
	var dims, terms []string
	for k, s := range nz {
		dims = append(dims, fmt.Sprintf("d%d", k))
		terms = append(terms, fmt.Sprintf(" + %d*d%d", s, k))
	}
	e.mapLines = append(e.mapLines, fmt.Sprintf("#map_%d = affine_map<(%s)[s0] -> (s0%s)>",
		m, strings.Join(dims, ", "), strings.Join(terms, "")))
	return m
}

// applies gives each symbol of a tiled access its %addr_K, in operand
// order and for each core, the first time the op meets it.
func (e *emitter) applies(info *opInfo, op *ir.Op, accs []ir.Access, uses [][]*symbol, maps []int, n int) {
	g := e.g
	for i, a := range accs {
		if maps[i] < 0 {
			continue
		}
		var ivs []string
		for k, s := range g.Strides(&a) {
			if s != 0 {
				ivs = append(ivs, fmt.Sprintf("%%i_%d", g.OpLoops(op)[k]))
			}
		}
		for c := 0; c < n; c++ {
			s := uses[i][c]
			if s.addr != "" {
				continue
			}
			s.addr = fmt.Sprintf("%%addr_%d", e.nextAddr)
			e.nextAddr++
			info.applies = append(info.applies, fmt.Sprintf("%s = affine.apply #map_%d(%s)[%s]",
				s.addr, maps[i], strings.Join(ivs, ", "), s.ssa))
		}
	}
}

// file decides op oi's SDSC file and the ids its execute prints.
func (e *emitter) file(oi int, accs []ir.Access, uses [][]*symbol, n int) {
	g, op, info := e.g, &e.b.Ops[oi], &e.infos[oi]
	// Without the cache: the step (Reading 12).
	if !e.opt.SDSCCache {
		info.file, info.printIDs = oi, info.ids
		return
	}
	facts := &sdscFacts{
		kind:   g.OpKind(op),
		cores:  g.Cores(op),
		nreads: len(g.Reads(op)),
		nwrite: len(g.Writes(op)),
	}
	if facts.cores == nil {
		facts.cores = []int64{1} // Reading 8
	}
	for i, a := range accs {
		gi := int(e.g.GroupOf(&a))
		var st string
		var row []int
		switch {
		case g.GroupClaims[gi].Has(ir.ClaimLX):
			st = fmt.Sprintf("lx(%d)", gi) // Reading 9
		case e.pooled(gi):
			st = "pooled" // any offset, any group
		default:
			st = fmt.Sprintf("kernel(%d)", e.argOf[gi])
		}
		if !g.GroupClaims[gi].Has(ir.ClaimLX) {
			for c := 0; c < n; c++ {
				row = append(row, uses[i][c].rank)
			}
		}
		facts.storage = append(facts.storage, st)
		facts.split = append(facts.split, g.AddressingOf(&a).Split.Present())
		facts.table = append(facts.table, row)
	}
	// Reading 6: against the first op of each earlier file, in file
	// order.
	for f := range e.fileFacts {
		if sameSDSC(e.fileFacts[f], facts) {
			// A reuse: its own operands, the first op's file and ids
			// (Reading 11).
			first := &e.infos[e.fileOp[f]]
			info.file, info.printIDs = first.file, first.printIDs
			return
		}
	}
	// A miss: the next number, its own ids.
	info.file, info.printIDs = len(e.fileFacts), info.ids
	e.fileFacts = append(e.fileFacts, facts)
	e.fileOp = append(e.fileOp, oi)
}

// print writes the module: maps, the function's parameters, the pool
// and the extracts, loop bounds, declarations, then the body.
func (e *emitter) print() string {
	var out strings.Builder
	line := func(depth int, s string) {
		out.WriteString(strings.Repeat("\t", depth))
		out.WriteString(s)
		out.WriteString("\n")
	}
	for _, m := range e.mapLines {
		line(0, m)
	}
	line(0, "module {")
	var params []string
	if e.opt.FrontendPoolAllocation && e.hasPool {
		params = append(params, "%pool_base_addr: !sdscbundle.input_arg<index>")
	}
	for N := 0; N < e.nargs; N++ {
		params = append(params, fmt.Sprintf("%%arg_%d_base_addr: !sdscbundle.input_arg<index>", N))
	}
	line(1, fmt.Sprintf("func.func @sdsc_bundle(%s) {", strings.Join(params, ", ")))
	if e.hasPool {
		switch {
		case e.opt.FrontendPoolAllocation:
			line(2, e.extract("pool"))
		case e.opt.Generic:
			line(2, fmt.Sprintf("%%pool = \"sdscbundle.device_mem_allocate\"() {size = %d : i64} : () -> index", e.p.Bundles[e.bi].PoolSize))
		default:
			line(2, fmt.Sprintf("%%pool = sdscbundle.device_mem_allocate %d bytes : index", e.p.Bundles[e.bi].PoolSize))
		}
	}
	for N := 0; N < e.nargs; N++ {
		line(2, e.extract(fmt.Sprintf("arg_%d", N)))
	}
	if len(e.b.Loops) > 0 {
		line(2, "%c0 = arith.constant 0 : index")
		line(2, "%c1 = arith.constant 1 : index")
		for K, l := range e.b.Loops {
			line(2, fmt.Sprintf("%%loop_bound_%d = arith.constant %d : index", K, l.Count))
		}
	}
	for _, d := range e.decls {
		line(2, d)
	}
	var items func(depth int, body []ir.Item)
	items = func(depth int, body []ir.Item) {
		for _, it := range body {
			if it.Loop >= 0 {
				K := it.Loop
				line(depth, fmt.Sprintf("scf.for %%i_%d = %%c0 to %%loop_bound_%d step %%c1 {", K, K))
				items(depth+1, e.g.LoopBody(&e.b.Loops[K]))
				line(depth, "}")
				continue
			}
			info := &e.infos[it.Op]
			for _, a := range info.applies {
				line(depth, a)
			}
			line(depth, e.execute(info))
		}
	}
	items(2, e.g.BundleBody(e.b))
	line(2, "return")
	line(1, "}")
	line(0, "}")
	return out.String()
}

// extract is the input_arg_extract line of %x from %x_base_addr.
func (e *emitter) extract(x string) string {
	if e.opt.Generic {
		return fmt.Sprintf("%%%s = \"sdscbundle.input_arg_extract\"(%%%s_base_addr) {field = \"value\"} : (!sdscbundle.input_arg<index>) -> index", x, x)
	}
	return fmt.Sprintf("%%%s = sdscbundle.input_arg_extract value from %%%s_base_addr : !sdscbundle.input_arg<index> -> index", x, x)
}

// execute is an op's sdsc_execute line.
func (e *emitter) execute(info *opInfo) string {
	var ids []string
	for _, id := range info.printIDs {
		ids = append(ids, fmt.Sprint(id))
	}
	file := fmt.Sprintf("sdsc_%d.json", info.file)
	if e.opt.Generic {
		types := make([]string, len(info.operands))
		for i := range types {
			types[i] = "index"
		}
		return fmt.Sprintf("\"sdscbundle.sdsc_execute\"(%s) {sdsc_filename = %q, symbol_ids = [%s]} : (%s) -> ()",
			strings.Join(info.operands, ", "), file, strings.Join(ids, ", "), strings.Join(types, ", "))
	}
	return fmt.Sprintf("sdscbundle.sdsc_execute (%s) {sdsc_filename=%q, \"symbol_ids\"=[%s]}",
		strings.Join(info.operands, ", "), file, strings.Join(ids, ", "))
}

// operands lists an op's accesses in operand order: reads, then writes.
func operands(g *ir.Graph, op *ir.Op) []ir.Access {
	var all []ir.Access
	all = append(all, g.Reads(op)...)
	all = append(all, g.Writes(op)...)
	return all
}
