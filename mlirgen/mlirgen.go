// Package mlirgen owns the MLIR text of bundle-ir.md §4: one module per bundle,
// with the pool allocation, kernel arguments, the symbols every leaf op
// registers (pool, kernel, slice and per-core derived keys, symbols.go),
// their declarations and the tiled addressing of their operands. Every
// line is one op value printed by the op model (ops.go).
//
// Emission is a pure function of a plan: every ordering comes from the
// bundle's op order, never from a map, so the same plan always gives the
// same bytes. Text streams through a buffered writer; nothing builds the
// whole module in memory.
package mlirgen

import (
	"io"

	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/planner"
)

// Options selects the output form.
type Options struct {
	// Generic prints the sdscbundle ops in MLIR's generic form, which
	// stock mlir-opt parses with --allow-unregistered-dialect.
	Generic bool
	// FrontendPoolAllocation takes the pool from the caller instead of
	// allocating it: a bundle with a pool gets one more function parameter,
	// the first, %pool_base_addr: !sdscbundle.input_arg<index>, and its
	// first body op, in place of device_mem_allocate, is
	// %pool = sdscbundle.input_arg_extract value from %pool_base_addr,
	// as torch-spyre's FRONTEND_POOL_ALLOCATION does.
	FrontendPoolAllocation bool
	// Addresses emits, instead of the bundle, its address function (see
	// addresses.go): builtin dialects only, computing the address of every
	// access on every core with the same code as the bundle.
	Addresses bool
	// Workers is how many goroutines EmitAll may print bundles on (the
	// caller passes the cores it may use); 0 or 1 prints them one after
	// another on the calling goroutine. The output is the same bytes
	// either way.
	Workers int
}

// Separator goes between modules on a stream, as mlir-opt
// --split-input-file expects.
const Separator = "// -----\n"

// EmitAll writes every bundle's module to w, separated by Separator.
func EmitAll(w io.Writer, p *planner.Result, opt Options) error {
	if opt.Workers > 1 && len(p.Graph.Bundles) > 1 {
		return emitParallel(w, p, opt)
	}
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

// bundleEmitter carries the per-bundle state of one emission.
type bundleEmitter struct {
	pr      *printer
	p       *planner.Result
	b       *ir.Bundle
	lay     *layout
	generic bool
	nextMap int   // index into lay.mapOf
	addrN   int64 // next %addr_K
	nextID  int64 // next symbol id, negated
}

func newEmitter(pr *printer, p *planner.Result, bi int, generic bool) *bundleEmitter {
	return &bundleEmitter{pr: pr, p: p, b: &p.Graph.Bundles[bi], lay: newLayout(p, bi), generic: generic}
}

// print prints one op in the bundle's form.
func (e *bundleEmitter) print(m *mop) { e.pr.print(m, e.generic) }

// funcOp is a func.func with the given entry block arguments, index
// results and body.
func funcOp(name string, params []value, nResults int, body func()) mop {
	m := mop{kind: opFunc, operands: params, nResults: nResults, region: body}
	m.attrBuf[0] = attr{name: "function_type", kind: attrFuncType}
	m.attrBuf[1] = attr{name: "sym_name", kind: attrStr, str: name}
	m.nAttrs = 2
	return m
}

// BundleFunc is the name of the function of a bundle's module.
const BundleFunc = "sdsc_bundle"

func emit(pr *printer, p *planner.Result, bi int, opt Options) {
	e := newEmitter(pr, p, bi, opt.Generic)
	lay := e.lay
	defer lay.release()
	printMaps(pr, lay)

	fpa := opt.FrontendPoolAllocation && lay.pooled
	var params []value
	if fpa {
		params = append(params, value{kind: vPoolBaseAddr})
	}
	for n := range lay.args {
		params = append(params, numbered(vArgBaseAddr, int64(n)))
	}
	body := func() {
		if lay.pooled {
			var m mop
			if fpa {
				m = extractOp(value{kind: vPool}, value{kind: vPoolBaseAddr})
			} else {
				m = allocateOp(value{kind: vPool}, p.Bundles[bi].PoolSize)
			}
			e.print(&m)
		}
		for n := range lay.args {
			m := extractOp(arg(int64(n)), numbered(vArgBaseAddr, int64(n)))
			e.print(&m)
		}
		e.loopConstants()
		e.declarations()
		e.items(e.b.Body)
		ret := mop{kind: opReturn}
		e.print(&ret)
	}
	fn := funcOp(BundleFunc, params, 0, body)
	module := mop{kind: opModule, region: func() { e.print(&fn) }}
	e.print(&module)
}

// loopConstants prints %c0, %c1 and every %loop_bound_K of a bundle with
// loops.
func (e *bundleEmitter) loopConstants() {
	if len(e.b.Loops) == 0 {
		return
	}
	c0, c1 := constantOp(value{kind: vC0}, 0), constantOp(value{kind: vC1}, 1)
	e.print(&c0)
	e.print(&c1)
	for k, l := range e.b.Loops {
		m := constantOp(numbered(vLoopBound, int64(k)), l.Count)
		e.print(&m)
	}
}

// declarations prints the constant and arith.addi of every declared
// symbol value, in registration order.
func (e *bundleEmitter) declarations() {
	for _, d := range e.lay.decls {
		v := e.lay.decl(d)
		var off value
		var base value
		var delta int64
		switch v.kind {
		case vPoolAddr:
			off, base, delta = numbered(vPoolOffset, v.n), value{kind: vPool}, v.n
		case vSlice:
			off, base, delta = value{kind: vSliceOffset, n: v.n, s: v.s}, arg(v.n), v.s
		case vCore:
			off, delta = value{kind: vCoreOffset, n: v.n, s: v.s, o: v.o}, v.o
			if v.s >= 0 {
				base = slice(v.n, v.s)
			} else {
				base = arg(v.n)
			}
		}
		c := constantOp(off, delta)
		e.print(&c)
		a := addiOp(v, base, off)
		e.print(&a)
	}
}

// printMaps prints the #map_M definitions of a bundle.
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

func (e *bundleEmitter) items(body []ir.Item) {
	for _, it := range body {
		if it.Loop >= 0 {
			k := int64(it.Loop)
			m := mop{kind: opFor, iv: iv(k), nOps: 3, region: func() { e.items(e.b.Loops[k].Body) }}
			m.opBuf = [3]value{{kind: vC0}, numbered(vLoopBound, k), {kind: vC1}}
			e.print(&m)
			continue
		}
		e.op(&e.b.Ops[it.Op])
	}
}

// applies resolves op's symbols into the scratch and prints the
// affine.apply of every tiled access's core whose symbol has no %addr yet
// in this op. The bundle and its address function both use it.
func (e *bundleEmitter) applies(op *ir.Op) *opSyms {
	lay := e.lay
	st := &lay.sc.op
	lay.resolve(op, st, false)
	nc := op.NumCores()
	u := 0
	forAccesses(op, func(a *ir.Access) {
		if lay.kind[a.Group] == omitted {
			return
		}
		if !a.HasStride() {
			u += nc
			return
		}
		mapNum := int64(lay.mapOf[e.nextMap])
		e.nextMap++
		for c := 0; c < nc; c++ {
			s := &st.syms[st.uses[u]]
			u++
			if s.addr >= 0 {
				continue
			}
			s.addr = e.addrN
			e.addrN++
			ops := lay.sc.vals[:0]
			for k, step := range a.Strides {
				if step != 0 {
					ops = append(ops, iv(int64(op.Loops[k])))
				}
			}
			ops = append(ops, s.name)
			lay.sc.vals = ops
			m := mop{kind: opApply, result: addr(s.addr), operands: ops, nDims: len(ops) - 1}
			m.attrBuf[0] = attr{name: "map", kind: attrMap, i: mapNum}
			m.nAttrs = 1
			e.print(&m)
		}
	})
	return st
}

// operand is the value symbol s is passed as in its op.
func (s *sym) operand() value {
	if s.addr >= 0 {
		return addr(s.addr)
	}
	return s.name
}

func (e *bundleEmitter) op(op *ir.Op) {
	st := e.applies(op)
	sc := e.lay.sc
	vals, ids := sc.vals[:0], sc.ids[:0]
	for _, u := range st.uses {
		s := &st.syms[u]
		if s.used {
			continue
		}
		s.used = true
		vals = append(vals, s.operand())
		ids = append(ids, -(e.nextID + int64(u) + 1))
	}
	e.nextID += int64(len(st.syms))
	sc.vals, sc.ids = vals, ids
	m := mop{kind: opExecute, operands: vals}
	m.attrBuf[0] = attr{name: "sdsc_filename", kind: attrFile, i: int64(op.Step)}
	m.attrBuf[1] = attr{name: "symbol_ids", kind: attrInts, ints: ids}
	m.nAttrs = 2
	e.print(&m)
}
