// Package mlirgen owns the MLIR text of spec §3: one module per bundle,
// with the pool allocation, deduplicated pool addresses, kernel arguments
// and tiled addressing of every leaf op's operands.
//
// Emission is a pure function of a plan: every ordering comes from the
// bundle's op order, never from a map, so the same plan always gives the
// same bytes. Text streams through a buffered writer; nothing builds the
// whole module in memory.
package mlirgen

import (
	"cmp"
	"io"
	"slices"
	"strconv"
	"sync"

	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/planner"
	"github.com/sdscgen/sdscgen/templates"
)

// Options selects the output form.
type Options struct {
	// Generic prints the sdscbundle ops in MLIR's generic form, which
	// stock mlir-opt parses with --allow-unregistered-dialect.
	Generic bool
	// FrontendPoolAllocation takes the pool from the caller instead of
	// allocating it: a bundle with a pool gets one more, last, function
	// argument %pool_base_addr: !sdscbundle.input_arg<index>, and its
	// first body op, in place of device_mem_allocate, is
	// %pool = sdscbundle.input_arg_extract value from %pool_base_addr,
	// as torch-spyre's FRONTEND_POOL_ALLOCATION does.
	FrontendPoolAllocation bool
	// Addresses emits, instead of the bundle, its address function (see
	// addresses.go): builtin dialects only, computing every sdsc_execute
	// operand address with the same code as the bundle.
	Addresses bool
}

// Separator goes between modules on a stream, as mlir-opt
// --split-input-file expects.
const Separator = "// -----\n"

var moduleParts = templates.Split(templates.Module, templates.Args, templates.Body)

// EmitAll writes every bundle's module to w, separated by Separator.
func EmitAll(w io.Writer, p *planner.Result, opt Options) error {
	pr := newPrinter(w)
	for bi := range p.Graph.Bundles {
		if bi > 0 {
			pr.s(Separator)
		}
		emitAny(pr, p, bi, opt)
	}
	return pr.flush()
}

// emitAny writes bundle bi's module in the form opt asks for.
func emitAny(pr *printer, p *planner.Result, bi int, opt Options) {
	if opt.Addresses {
		emitAddresses(pr, p, bi)
		return
	}
	emit(pr, p, bi, opt)
}

// Emit writes the module of bundle bi to w.
func Emit(w io.Writer, p *planner.Result, bi int, opt Options) error {
	pr := newPrinter(w)
	emitAny(pr, p, bi, opt)
	return pr.flush()
}

// operandKind says where an operand's base address comes from.
type operandKind uint8

const (
	omitted operandKind = iota // LX: not an operand at all
	poolBase
	argBase
)

// layout is everything about a bundle's operands that must be known before
// the first line is printed: argument numbers, the distinct pool offsets
// and the affine maps, each in order of first use.
//
// kind and argNum are indexed by group but hold meaningful values only for
// the groups the bundle touches: they live in scratch reused from bundle to
// bundle (see groupScratch), so a graph of B bundles and G groups costs
// O(G) memory once, not O(B*G).
type layout struct {
	kind    []operandKind // per group, for this bundle
	argNum  []int         // per group: N of %arg_N, for argBase groups
	args    []int         // group of each %arg_N
	offsets []int64       // distinct pool offsets in order of first use
	maps    [][]int64     // nonzero stride lists, numbered first-seen
	// mapOf holds, for each strided operand in emission order, its map.
	mapOf []int
	sc    *groupScratch
}

// groupScratch is the per-group state of newLayout. seen[gi] == gen marks
// the groups visited by the current layout, so nothing is cleared between
// bundles.
type groupScratch struct {
	gen    uint32
	seen   []uint32
	kind   []operandKind
	argNum []int
}

var scratchPool = sync.Pool{New: func() any { return new(groupScratch) }}

func getScratch(n int) *groupScratch {
	sc := scratchPool.Get().(*groupScratch)
	if len(sc.seen) < n {
		sc.seen = make([]uint32, n)
		sc.kind = make([]operandKind, n)
		sc.argNum = make([]int, n)
		sc.gen = 0
	}
	sc.gen++
	if sc.gen == 0 { // wrapped: stale stamps could match again
		clear(sc.seen)
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

func newLayout(p *planner.Result, bi int) *layout {
	g := p.Graph
	b := &g.Bundles[bi]
	sc := getScratch(len(g.Groups))
	lay := &layout{kind: sc.kind, argNum: sc.argNum, sc: sc}
	seen, gen := sc.seen, sc.gen
	mapIdx := map[string]int{}
	var key []byte
	visit := func(a ir.Access) {
		gi := a.Group
		if seen[gi] != gen {
			seen[gi] = gen
			switch {
			case g.Groups[gi].LX:
				lay.kind[gi] = omitted
			case p.Pooled(gi, bi):
				lay.kind[gi] = poolBase
				// One entry per pooled group; distinctOffsets
				// dedupes them once all are known.
				lay.offsets = append(lay.offsets, p.Groups[gi].Offset)
			default:
				lay.kind[gi] = argBase
				lay.argNum[gi] = len(lay.args)
				lay.args = append(lay.args, gi)
			}
		}
		if lay.kind[gi] == omitted || !a.HasStride() {
			return
		}
		key = key[:0]
		for _, s := range a.Strides {
			if s != 0 {
				key = strconv.AppendInt(key, s, 10)
				key = append(key, ',')
			}
		}
		m, ok := mapIdx[string(key)]
		if !ok {
			m = len(lay.maps)
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
	}
	for _, op := range b.Ops {
		for _, a := range op.Reads {
			visit(a)
		}
		for _, a := range op.Writes {
			visit(a)
		}
	}
	lay.offsets = distinctOffsets(lay.offsets)
	return lay
}

// distinctOffsets keeps the first occurrence of every offset, in order. A
// sort of (offset, position) pairs instead of a map: a bundle may pool a
// million buffers, and the sort is several times faster than as many map
// probes.
func distinctOffsets(offs []int64) []int64 {
	if len(offs) < 2 {
		return offs
	}
	type entry struct {
		off int64
		pos int32
	}
	es := make([]entry, len(offs))
	for k, off := range offs {
		es[k] = entry{off, int32(k)}
	}
	slices.SortFunc(es, func(a, b entry) int {
		if c := cmp.Compare(a.off, b.off); c != 0 {
			return c
		}
		return cmp.Compare(a.pos, b.pos)
	})
	keep := make([]bool, len(offs))
	for k := range es {
		if k == 0 || es[k].off != es[k-1].off {
			keep[es[k].pos] = true
		}
	}
	out := offs[:0]
	for k, off := range offs {
		if keep[k] {
			out = append(out, off)
		}
	}
	return out
}

// bundleEmitter carries the per-bundle state of one emission.
type bundleEmitter struct {
	pr      *printer
	p       *planner.Result
	b       *ir.Bundle
	lay     *layout
	opt     Options
	nextMap int   // index into lay.mapOf
	addrN   int64 // next %addr_N
	symbol  int64 // next symbol id (negated)
}

func emit(pr *printer, p *planner.Result, bi int, opt Options) {
	g := p.Graph
	b := &g.Bundles[bi]
	lay := newLayout(p, bi)
	defer lay.release()
	e := &bundleEmitter{pr: pr, p: p, b: b, lay: lay, opt: opt}
	printMaps(pr, lay)
	pr.s(moduleParts[0])
	for n := range lay.args {
		if n > 0 {
			pr.s(", ")
		}
		pr.s("%arg_")
		pr.i(int64(n))
		pr.s("_base_addr: !sdscbundle.input_arg<index>")
	}
	if opt.FrontendPoolAllocation && len(lay.offsets) > 0 {
		if len(lay.args) > 0 {
			pr.s(", ")
		}
		pr.s("%pool_base_addr: !sdscbundle.input_arg<index>")
	}
	pr.s(moduleParts[1])

	pr.indent = 2
	if pb := p.Bundles[bi]; len(lay.offsets) > 0 {
		pr.start()
		switch {
		case opt.FrontendPoolAllocation && opt.Generic:
			pr.s(`%pool = "sdscbundle.input_arg_extract"(%pool_base_addr) {field = "value"} : (!sdscbundle.input_arg<index>) -> index`)
		case opt.FrontendPoolAllocation:
			pr.s("%pool = sdscbundle.input_arg_extract value from %pool_base_addr : !sdscbundle.input_arg<index> -> index")
		case opt.Generic:
			pr.s(`%pool = "sdscbundle.device_mem_allocate"() {size = `)
			pr.i(pb.PoolSize)
			pr.s(" : i64} : () -> index")
		default:
			pr.s("%pool = sdscbundle.device_mem_allocate ")
			pr.i(pb.PoolSize)
			pr.s(" bytes : index")
		}
		pr.end()
	}
	for n := range lay.args {
		pr.start()
		pr.s("%arg_")
		pr.i(int64(n))
		if opt.Generic {
			pr.s(` = "sdscbundle.input_arg_extract"(%arg_`)
			pr.i(int64(n))
			pr.s(`_base_addr) {field = "value"} : (!sdscbundle.input_arg<index>) -> index`)
		} else {
			pr.s(" = sdscbundle.input_arg_extract value from %arg_")
			pr.i(int64(n))
			pr.s("_base_addr : !sdscbundle.input_arg<index> -> index")
		}
		pr.end()
	}
	if len(b.Loops) > 0 {
		pr.start()
		pr.s("%c0 = arith.constant 0 : index\n")
		pr.start()
		pr.s("%c1 = arith.constant 1 : index\n")
		for k, l := range b.Loops {
			pr.start()
			pr.s("%loop_bound_")
			pr.i(int64(k))
			pr.s(" = arith.constant ")
			pr.i(l.Count)
			pr.s(" : index\n")
		}
	}
	e.poolAddrs()
	e.items(b.Body)
	pr.indent = 0
	pr.s(moduleParts[2])
}

// printMaps prints the #map_M definitions of a bundle's strided operands.
func printMaps(pr *printer, lay *layout) {
	for m, coeffs := range lay.maps {
		pr.s("#map_")
		pr.i(int64(m))
		pr.s(" = affine_map<(")
		for d := range coeffs {
			if d > 0 {
				pr.s(", ")
			}
			pr.s("d")
			pr.i(int64(d))
		}
		pr.s(")[s0] -> (s0")
		for d, c := range coeffs {
			pr.s(" + ")
			pr.i(c)
			pr.s("*d")
			pr.i(int64(d))
		}
		pr.s(")>\n")
	}
}

// poolAddrs prints one %pool_offset_V constant and one %pool_addr_V per
// distinct pool offset, in order of first use.
func (e *bundleEmitter) poolAddrs() {
	pr := e.pr
	for _, off := range e.lay.offsets {
		pr.start()
		pr.s("%pool_offset_")
		pr.i(off)
		pr.s(" = arith.constant ")
		pr.i(off)
		pr.s(" : index\n")
		pr.start()
		pr.s("%pool_addr_")
		pr.i(off)
		pr.s(" = arith.addi %pool, %pool_offset_")
		pr.i(off)
		pr.s(" : index\n")
	}
}

func (e *bundleEmitter) items(body []ir.Item) {
	for _, it := range body {
		if it.Loop >= 0 {
			k := int64(it.Loop)
			e.pr.start()
			e.pr.s("scf.for %i_")
			e.pr.i(k)
			e.pr.s(" = %c0 to %loop_bound_")
			e.pr.i(k)
			e.pr.s(" step %c1 {\n")
			e.pr.indent++
			e.items(e.b.Loops[it.Loop].Body)
			e.pr.indent--
			e.pr.start()
			e.pr.s("}\n")
			continue
		}
		e.op(&e.b.Ops[it.Op])
	}
}

// operand is one resolved sdsc_execute operand: an %addr_N when addr >= 0,
// otherwise the base named by kind and val.
type operand struct {
	kind operandKind
	val  int64
	addr int64
}

// operands resolves the sdsc_execute operands of op (reads then writes,
// LX left out), appending them to ops, and prints the affine.apply of each
// strided one. The bundle and its address function both use it.
func (e *bundleEmitter) operands(op *ir.Op, ops []operand) []operand {
	collect := func(accs []ir.Access) {
		for _, a := range accs {
			kind := e.lay.kind[a.Group]
			if kind == omitted {
				continue
			}
			o := operand{kind: kind, addr: -1}
			if kind == poolBase {
				o.val = e.p.Groups[a.Group].Offset
			} else {
				o.val = int64(e.lay.argNum[a.Group])
			}
			if a.HasStride() {
				o.addr = e.addrN
				e.addrN++
				e.apply(op, a, o)
			}
			ops = append(ops, o)
		}
	}
	collect(op.Reads)
	collect(op.Writes)
	return ops
}

func (e *bundleEmitter) op(op *ir.Op) {
	var buf [16]operand
	ops := e.operands(op, buf[:0])

	pr := e.pr
	pr.start()
	if e.opt.Generic {
		pr.s(`"sdscbundle.sdsc_execute"(`)
	} else {
		pr.s("sdscbundle.sdsc_execute (")
	}
	for k, o := range ops {
		if k > 0 {
			pr.s(", ")
		}
		e.base(o)
	}
	if e.opt.Generic {
		pr.s(`) {sdsc_filename = "sdsc_`)
	} else {
		pr.s(`) {sdsc_filename="sdsc_`)
	}
	pr.i(int64(op.Step))
	if e.opt.Generic {
		pr.s(`.json", symbol_ids = [`)
	} else {
		pr.s(`.json", "symbol_ids"=[`)
	}
	for k := range ops {
		if k > 0 {
			pr.s(", ")
		}
		e.symbol++
		pr.i(-e.symbol)
	}
	pr.s("]}")
	if e.opt.Generic {
		pr.s(" : (")
		pr.indexTypes(len(ops))
		pr.s(") -> ()")
	}
	pr.end()
}

// base prints the SSA value an operand is passed as.
func (e *bundleEmitter) base(o operand) {
	switch {
	case o.addr >= 0:
		e.pr.s("%addr_")
		e.pr.i(o.addr)
	case o.kind == poolBase:
		e.pr.s("%pool_addr_")
		e.pr.i(o.val)
	default:
		e.pr.s("%arg_")
		e.pr.i(o.val)
	}
}

// apply prints the affine.apply that computes a strided operand's address.
func (e *bundleEmitter) apply(op *ir.Op, a ir.Access, o operand) {
	pr := e.pr
	m := e.lay.mapOf[e.nextMap]
	e.nextMap++
	pr.start()
	pr.s("%addr_")
	pr.i(o.addr)
	pr.s(" = affine.apply #map_")
	pr.i(int64(m))
	pr.s("(")
	first := true
	for k, s := range a.Strides {
		if s == 0 {
			continue
		}
		if !first {
			pr.s(", ")
		}
		first = false
		pr.s("%i_")
		pr.i(int64(op.Loops[k]))
	}
	pr.s(")[")
	o.addr = -1
	e.base(o)
	pr.s("]\n")
}
