package mlirgen

import (
	"bytes"

	"github.com/sdscgen/sdscgen/planner"
)

// AddressFunc is the name of the function --emit=addresses writes.
const AddressFunc = "sdsc_bundle_addresses"

// emitAddresses writes bundle bi's address function: the bundle with the
// sdscbundle ops and the loops taken out, so that only builtin dialects
// (func, arith, affine) remain and stock MLIR can lower it to LLVM. Its
// exact shape is
//
//	#map_M = ...                       (the bundle's maps, unchanged)
//	module {
//	  func.func @sdsc_bundle_addresses(%pool: index, %arg_0: index, ..., %arg_{N-1}: index,
//	                                   %i_0: index, ..., %i_{K-1}: index) -> (index, ...) {
//	    %pool_offset_V = arith.constant V : index        (as in the bundle)
//	    %pool_addr_V = arith.addi %pool, %pool_offset_V : index
//	    %addr_J = affine.apply #map_M(%i_...)[base]      (as in the bundle, in op order)
//	    return OPERAND, ...
//	  }
//	}
//
// Parameters: %pool is the pool base address (always present, unused when
// the bundle pools nothing); %arg_N is the base address of kernel
// argument N, numbered exactly as the bundle's %arg_N_base_addr; %i_K is
// the induction value of loop K (one per loop of the bundle, depth-first,
// whether or not any stride uses it). Results: every sdsc_execute operand
// of the bundle in emission order, so result j is the operand with symbol
// id -(j+1). A bundle with no operands returns nothing.
//
// The pool addresses, operand resolution and affine.apply lines are
// printed by the very methods that print the bundle (poolAddrs, operands,
// apply, base), so the addresses it computes are the bundle's.
func emitAddresses(pr *printer, p *planner.Result, bi int) {
	b := &p.Graph.Bundles[bi]
	lay := newLayout(p, bi)
	defer lay.release()
	e := &bundleEmitter{pr: pr, p: p, b: b, lay: lay}
	printMaps(pr, lay)
	pr.s("module {\n  func.func @" + AddressFunc + "(%pool: index")
	for n := range lay.args {
		pr.s(", %arg_")
		pr.i(int64(n))
		pr.s(": index")
	}
	for k := range b.Loops {
		pr.s(", %i_")
		pr.i(int64(k))
		pr.s(": index")
	}
	pr.s(")")

	var ops []operand
	pr.indent = 2
	// The body is printed into a side buffer first: the result types in
	// the signature need the operand count.
	body := newBufferedPrinter()
	body.indent = 2
	e.pr = body.printer
	e.poolAddrs()
	for k := range b.Ops {
		ops = e.operands(&b.Ops[k], ops)
	}
	e.pr.start()
	e.pr.s("return")
	for k, o := range ops {
		if k == 0 {
			e.pr.s(" ")
		} else {
			e.pr.s(", ")
		}
		e.base(o)
	}
	if len(ops) > 0 {
		e.pr.s(" : ")
		e.pr.indexTypes(len(ops))
	}
	e.pr.end()
	if len(ops) > 0 {
		pr.s(" -> (")
		pr.indexTypes(len(ops))
		pr.s(")")
	}
	pr.s(" {\n")
	body.printer.flush()
	pr.s(body.buf.String())
	pr.indent = 0
	pr.s("  }\n}\n")
}

// bufferedPrinter is a printer into memory.
type bufferedPrinter struct {
	*printer
	buf *bytes.Buffer
}

func newBufferedPrinter() bufferedPrinter {
	var b bytes.Buffer
	return bufferedPrinter{newPrinter(&b), &b}
}
