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
	"sort"
	"sync"

	"github.com/sdscgen/sdscgen/internal/decimal"
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
	// SDSCCache turns torch-spyre's sdsc_cache on (its default): an op
	// whose SDSC would equal an earlier op's of the same bundle prints
	// that op's sdsc_K.json and symbol ids (sdsccache.go). Without it,
	// op k's file is sdsc_k.json. The address function is the same
	// either way.
	SDSCCache bool
	// Workers is how many goroutines EmitAll may print on (the caller
	// passes the cores it may use): batches of small bundles, and the
	// chunks of declarations and ops a large bundle is cut into once one
	// more goroutine has laid it out (parallel.go); 0 or 1 prints every
	// bundle whole, one after another, on the calling goroutine. The
	// output is the same bytes either way.
	Workers int

	// tune, when set (by this package's tests), replaces the sizes
	// parallel emission cuts its work into, and can turn group tables
	// off; nil is defaultTuning.
	tune *tuning
}

// tuning is what parallel emission and layouts may be tuned by. The
// output is the same bytes for every tuning: the tests hold it so with
// tiny sizes.
type tuning struct {
	// A bundle of more than bigOps ops is cut into parts of chunkOps ops
	// and of declChunk declarations; smaller bundles are batched into
	// pieces of at least jobOps ops (parallel.go).
	jobOps, bigOps, chunkOps, declChunk int
	// noGroupTables makes every layout take a dense group table (see
	// groupTab).
	noGroupTables bool
	// inlineLimit, when positive, lowers maxInline, the bound of the
	// values a group's slot holds (see groupSlot), so that the tests run
	// the paths of the values too large for it on small graphs.
	inlineLimit int64
}

var defaultTuning = tuning{jobOps: 2048, bigOps: 2048, chunkOps: 1024, declChunk: 4096}

func (opt Options) tuning() *tuning {
	if opt.tune != nil {
		return opt.tune
	}
	return &defaultTuning
}

// Separator goes between modules on a stream, as mlir-opt
// --split-input-file expects.
const Separator = "// -----\n"

// EmitAll writes every bundle's module to w, separated by Separator.
func EmitAll(w io.Writer, p *planner.Result, opt Options) error {
	if opt.Workers > 1 {
		return emitParallel(w, p, opt)
	}
	pr := newPrinter(w)
	o := inline{new(scratchList)}
	emitRange(pr, p, 0, len(p.Graph.Bundles), opt, o)
	o.home.done()
	return pr.flush()
}

// out is where a bundle's text goes. Parts of it may be printed by other
// goroutines (parallel.go), but every part lands where it was asked for.
type out interface {
	// part prints fn's text at this point of pr's output: at once on pr,
	// or later on a printer of its own that starts at pr's indentation.
	part(pr *printer, fn func(pr *printer))
	// cut returns the sizes of the parts a bundle's text is cut into
	// (chunks of chunkOps ops and of declChunk declarations), nil when it
	// is printed whole.
	cut() *tuning
	// scratch is where layouts take their scratch from.
	scratch() *scratchList
}

// inline prints every part at once: the sequential printer.
type inline struct{ home *scratchList }

func (inline) part(pr *printer, fn func(pr *printer)) { fn(pr) }
func (inline) cut() *tuning                           { return nil }
func (o inline) scratch() *scratchList                { return o.home }

// emitRange prints bundles [lo, hi), each but the graph's first preceded
// by Separator.
func emitRange(pr *printer, p *planner.Result, lo, hi int, opt Options, o out) {
	for bi := lo; bi < hi; bi++ {
		if bi > 0 {
			pr.s(Separator)
		}
		emitAny(pr, p, bi, opt, o)
	}
}

// emitAny writes bundle bi's module in the form opt asks for.
func emitAny(pr *printer, p *planner.Result, bi int, opt Options, o out) {
	chunk := 0
	if t := o.cut(); t != nil {
		chunk = t.chunkOps
	}
	lay := newLayout(p, bi, chunk, o.scratch(), opt.SDSCCache && !opt.Addresses, opt.tuning())
	defer lay.release()
	if opt.Addresses {
		emitAddresses(pr, lay, o)
		return
	}
	emit(pr, lay, opt, o)
}

// Emit writes the module of bundle bi to w.
func Emit(w io.Writer, p *planner.Result, bi int, opt Options) error {
	pr := newPrinter(w)
	emitAny(pr, p, bi, opt, inline{})
	return pr.flush()
}

// bundleEmitter prints the ops of one chunk of a bundle: it carries the
// state the ops before the chunk left (from the layout's mark).
type bundleEmitter struct {
	pr      *printer
	lay     *layout
	b       *ir.Bundle
	generic bool
	sc      *opScratch
	mark
	// maps reads the map numbers of the chunk's tiled accesses.
	maps cursor[int32]
	// apply and exec are the chunk's affine.apply and sdsc_execute ops,
	// refilled for every line.
	apply, exec mop
}

// emitterPool holds the emitters done with, each with its opScratch.
// An emitter is 912 bytes on amd64 (its two ops' inline storage), made per
// chunk: without fusion a chunk per op, so a million ops allocated 950
// MB of them, and the collector ran every few tens of megabytes.
var emitterPool = sync.Pool{New: func() any { return &bundleEmitter{sc: new(opScratch)} }}

// emitter returns a printer of the ops of chunk c onto pr, whose map
// numbers are maps; done releases it (it is not used after).
func (lay *layout) emitter(pr *printer, c int, generic bool, maps [][]int32) *bundleEmitter {
	e := emitterPool.Get().(*bundleEmitter)
	*e = bundleEmitter{pr: pr, lay: lay, b: lay.b, generic: generic, sc: e.sc, mark: lay.marks[c], maps: cursor[int32]{maps}}
	e.apply = mop{kind: opApply, nAttrs: 1}
	e.apply.attrBuf[0] = attr{name: "map", kind: attrMap}
	e.exec = mop{kind: opExecute, nAttrs: 2}
	e.exec.attrBuf[0] = attr{name: "sdsc_filename", kind: attrFile}
	e.exec.attrBuf[1] = attr{name: "symbol_ids", kind: attrInts}
	return e
}

func (e *bundleEmitter) done() {
	sc := e.sc
	*e = bundleEmitter{sc: sc} // drops the references to the bundle
	emitterPool.Put(e)
}

// chunks prints every chunk of ops with f, each as one part of o's.
func (lay *layout) chunks(pr *printer, o out, generic bool, f func(e *bundleEmitter, lo, hi int)) {
	for c := range lay.marks {
		end := lay.mapOf.len()
		if c+1 < len(lay.marks) {
			end = lay.marks[c+1].nextMap
		}
		lay.hold(1)
		o.part(pr, lay.chunkFn(c, end, generic, f))
	}
}

// chunkFn returns the printing of chunk c of ops by f, whose tiled
// accesses' maps end at mapOf's end; the caller holds the layout for it.
func (lay *layout) chunkFn(c, end int, generic bool, f func(e *bundleEmitter, lo, hi int)) func(pr *printer) {
	lo := c * lay.chunk
	hi := min(lo+lay.chunk, len(lay.b.Ops))
	maps := lay.mapOf.view(lay.marks[c].nextMap, end)
	return func(pr *printer) {
		e := lay.emitter(pr, c, generic, maps)
		f(e, lo, hi)
		e.done()
		lay.release()
	}
}

// print prints one op in the bundle's form.
func (e *bundleEmitter) print(m *mop) { e.pr.print(m, e.generic) }

// funcOp is a func.func with the given entry block arguments, index
// results and body.
func funcOp(name string, params []value, nResults int, body func()) mop {
	return funcOpN(name, len(params), func(k int) value { return params[k] }, nResults, body)
}

// funcOpN is a func.func with n entry block arguments param(k).
func funcOpN(name string, n int, param func(k int) value, nResults int, body func()) mop {
	m := mop{kind: opFunc, param: param, nParams: n, nResults: nResults, region: body}
	m.attrBuf[0] = attr{name: "function_type", kind: attrFuncType}
	m.attrBuf[1] = attr{name: "sym_name", kind: attrStr, str: name}
	m.nAttrs = 2
	return m
}

// BundleFunc is the name of the function of a bundle's module.
const BundleFunc = "sdsc_bundle"

func emit(pr *printer, lay *layout, opt Options, o out) {
	printMaps(pr, lay)
	generic := opt.Generic
	fpa := opt.FrontendPoolAllocation && lay.pooled
	first := 0 // the first %arg_N_base_addr's parameter
	if fpa {
		first = 1
	}
	param := func(k int) value {
		if k < first {
			return value{kind: vPoolBaseAddr}
		}
		return numbered(vArgBaseAddr, int64(k-first))
	}
	body := func() {
		if lay.pooled {
			var m mop
			if fpa {
				m = extractOp(value{kind: vPool}, value{kind: vPoolBaseAddr})
			} else {
				m = allocateOp(value{kind: vPool}, lay.p.Bundles[lay.bi].PoolSize)
			}
			pr.print(&m, generic)
		}
		for n := range lay.nArgs {
			m := extractOp(arg(int64(n)), numbered(vArgBaseAddr, int64(n)))
			pr.print(&m, generic)
		}
		loopConstants(pr, lay)
		declarations(pr, lay, o)
		lay.chunks(pr, o, generic, (*bundleEmitter).walkChunk)
		ret := mop{kind: opReturn}
		pr.print(&ret, generic)
	}
	fn := funcOpN(BundleFunc, first+lay.nArgs, param, 0, body)
	module := mop{kind: opModule, region: func() { pr.print(&fn, generic) }}
	pr.print(&module, generic)
}

// loopConstants prints %c0, %c1 and every %loop_bound_K of a bundle with
// loops.
func loopConstants(pr *printer, lay *layout) {
	if len(lay.b.Loops) == 0 {
		return
	}
	c0, c1 := constantOp(value{kind: vC0}, 0), constantOp(value{kind: vC1}, 1)
	pr.custom(&c0)
	pr.custom(&c1)
	for k, l := range lay.b.Loops {
		m := constantOp(numbered(vLoopBound, int64(k)), l.Count)
		pr.custom(&m)
	}
}

// declarations prints the constant and arith.addi of every declared
// symbol value, in registration order (arith ops: the custom form).
func declarations(pr *printer, lay *layout, o out) {
	n := lay.decls.len()
	step := n
	if t := o.cut(); t != nil {
		step = t.declChunk
	}
	for lo := 0; lo < n; lo += step {
		hi := min(lo+step, n)
		lay.hold(1)
		o.part(pr, func(pr *printer) {
			// The two ops are built once and refilled for every
			// value.
			c := constantOp(value{}, 0)
			a := addiOp(value{}, value{}, value{})
			for k := lo; k < hi; k++ {
				declaration(pr, lay.decl(lay.decls.at(k)), &c, &a)
			}
			lay.release()
		})
	}
}

// declaration prints the two ops that declare v: c, a constant, and a, an
// addi, refilled. (A pool address, nearly every declaration, is printed
// directly: its number once, copied four times; TestPoolDeclaration holds
// it equal to the two ops.)
func declaration(pr *printer, v value, c, a *mop) {
	if v.kind == vPoolAddr {
		poolDeclaration(pr, v.n)
		return
	}
	var off value
	var base value
	var delta int64
	switch v.kind {
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
	c.result, c.attrBuf[0].i = off, delta
	pr.custom(c)
	a.result, a.opBuf[0], a.opBuf[1] = v, base, off
	pr.custom(a)
}

// poolDeclaration prints the constant and addi that declare
// %pool_addr_V: what opConstant's and opAddi's custom printers print
// (TestPoolDeclaration holds them equal), with V's digits made once.
func poolDeclaration(pr *printer, v int64) {
	var d [24]byte
	n := decimal.Append(d[:0], v)
	pr.start()
	pr.s("%pool_offset_")
	pr.buf = append(pr.buf, n...)
	pr.s(" = ")
	pr.s(opTable[opConstant].name)
	pr.s(" ")
	pr.buf = append(pr.buf, n...)
	pr.s(" : index\n")
	pr.start()
	pr.s("%pool_addr_")
	pr.buf = append(pr.buf, n...)
	pr.s(" = ")
	pr.s(opTable[opAddi].name)
	pr.s(" %pool, %pool_offset_")
	pr.buf = append(pr.buf, n...)
	pr.s(" : index")
	pr.end()
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
		pr.s(")>")
		pr.end()
	}
}

// walkChunk prints the ops [lo, hi) of the bundle's body.
func (e *bundleEmitter) walkChunk(lo, hi int) {
	e.walk(e.lay.g.BundleBody(e.b), lo, hi, hi == len(e.b.Ops))
}

// walk prints the part of items that belongs to the chunk of ops [lo,
// hi), the last chunk when last. A chunk owns its ops, and the opening
// and closing lines of loops that come after its first op's predecessor
// and before its last op's successor; so the first chunk owns what comes
// before op 0 and the last what follows the last op, and every line
// belongs to one chunk. Loop k opens before op First and closes after op
// Last, i.e. at positions First and Last+1 in op numbering. walk reports
// false once it has reached an op at or after hi.
func (e *bundleEmitter) walk(items []ir.Item, lo, hi int, last bool) bool {
	b := e.b
	owns := func(s int) bool { return s >= lo && (last || s < hi) }
	// Skip the items that end before the chunk: an op before lo, a loop
	// closing before lo. Their ends grow along items.
	first := sort.Search(len(items), func(k int) bool {
		if it := items[k]; it.Loop >= 0 {
			return int(b.Loops[it.Loop].Last)+1 >= lo
		} else {
			return int(it.Op) >= lo
		}
	})
	for _, it := range items[first:] {
		if it.Loop < 0 {
			if int(it.Op) >= hi {
				return false
			}
			e.op(it.Op, &b.Ops[it.Op])
			continue
		}
		l := &b.Loops[it.Loop]
		lFirst, lLast := int(l.First), int(l.Last)
		if !owns(lFirst) && lFirst >= lo {
			return false
		}
		k := int64(it.Loop)
		m := mop{kind: opFor, iv: iv(k), nOps: 3}
		m.opBuf = [3]value{{kind: vC0}, numbered(vLoopBound, k), {kind: vC1}}
		if owns(lFirst) {
			e.pr.open(&m, e.generic)
		} else {
			e.pr.indent++
		}
		ok := e.walk(e.lay.g.LoopBody(l), lo, hi, last)
		if owns(lLast + 1) {
			e.pr.close(&m, e.generic)
		} else {
			e.pr.indent--
		}
		if !ok {
			return false
		}
	}
	return true
}

// applies resolves op's symbols into the scratch, numbers their %addr_K
// (layout.addrs) and, with print, prints the affine.apply of every core
// numbered there. The bundle and its address function both use it.
func (e *bundleEmitter) applies(op *ir.Op, print bool) *opSyms {
	lay := e.lay
	st := &e.sc.op
	lay.resolve(op, st, false)
	var mapNum int64
	tiled := func(*ir.Access) { mapNum = int64(e.maps.next()) }
	var numbered func(a *ir.Access, s *sym)
	if print {
		numbered = e.printApply(op, &mapNum)
	}
	lay.addrs(op, st, &e.addrN, tiled, numbered)
	return st
}

// printApply returns the printer of the affine.apply of a symbol of op's
// that addrs numbered, with *mapNum the map of its access.
func (e *bundleEmitter) printApply(op *ir.Op, mapNum *int64) func(a *ir.Access, s *sym) {
	lay := e.lay
	return func(a *ir.Access, s *sym) {
		ops := e.sc.vals[:0]
		for k, step := range lay.g.Strides(a) {
			if step != 0 {
				ops = append(ops, iv(int64(lay.g.OpLoops(op)[k])))
			}
		}
		ops = append(ops, s.name)
		e.sc.vals = ops
		m := &e.apply
		m.result, m.operands, m.nDims = addr(s.addr), ops, len(ops)-1
		m.attrBuf[0].i = *mapNum
		e.print(m)
	}
}

// operand is the value symbol s is passed as in its op.
func (s *sym) operand() value {
	if s.addr >= 0 {
		return addr(s.addr)
	}
	return s.name
}

func (e *bundleEmitter) op(step int32, op *ir.Op) {
	st := e.applies(op, true)
	sc := e.sc
	vals, ids := sc.vals[:0], sc.ids[:0]
	file, base := e.lay.file(step, e.nextID)
	for _, u := range st.uses {
		s := &st.syms[u]
		if s.used {
			continue
		}
		s.used = true
		vals = append(vals, s.operand())
		ids = append(ids, -(base + int64(u) + 1))
	}
	e.nextID += int64(len(st.syms))
	sc.vals, sc.ids = vals, ids
	m := &e.exec
	m.operands = vals
	m.attrBuf[0].i = file
	m.attrBuf[1].ints = ids
	e.print(m)
}
