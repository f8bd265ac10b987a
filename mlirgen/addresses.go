package mlirgen

import (
	"github.com/sdscgen/sdscgen/ir"
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
//		func.func @sdsc_bundle_addresses(%pool: index, %arg_0: index, ..., %arg_{N-1}: index,
//		                                 %i_0: index, ..., %i_{K-1}: index) -> (index, ...) {
//			%pool_offset_V = arith.constant V : index        (the bundle's declarations)
//			%pool_addr_V = arith.addi %pool, %pool_offset_V : index
//			%addr_J = affine.apply #map_M(%i_...)[base]      (the bundle's applies, in op order)
//			return OPERAND, ...
//		}
//	}
//
// Parameters: %pool is the pool base address (always present, unused when
// the bundle pools nothing); %arg_N is the base address of kernel
// argument N, numbered exactly as the bundle's %arg_N_base_addr; %i_K is
// the induction value of loop K (one per loop of the bundle, depth-first,
// whether or not any step uses it). Results: for every op in step order,
// every non-LX access in operand order (reads, then writes) and every core
// of the op in order, the sdsc_execute operand that core's symbol is
// passed as: one address per access and core. A bundle with no such
// access returns nothing.
//
// The declarations, symbol resolution and affine.apply lines are printed
// by the very methods that print the bundle (declarations, applies), so
// the addresses it computes are the bundle's.
func emitAddresses(pr *printer, p *planner.Result, bi int) {
	e := newEmitter(pr, p, bi, false)
	lay := e.lay
	defer lay.release()
	printMaps(pr, lay)
	params := []value{{kind: vPool}}
	for n := range lay.args {
		params = append(params, arg(int64(n)))
	}
	for k := range e.b.Loops {
		params = append(params, iv(int64(k)))
	}
	nResults := 0
	for k := range e.b.Ops {
		op := &e.b.Ops[k]
		forAccesses(op, func(a *ir.Access) {
			if lay.kind[a.Group] != omitted {
				nResults += op.NumCores()
			}
		})
	}
	body := func() {
		e.declarations()
		results := make([]value, 0, nResults)
		for k := range e.b.Ops {
			st := e.applies(&e.b.Ops[k])
			for _, u := range st.uses {
				results = append(results, st.syms[u].operand())
			}
		}
		ret := mop{kind: opReturn, operands: results}
		e.print(&ret)
	}
	fn := funcOp(AddressFunc, params, nResults, body)
	module := mop{kind: opModule, region: func() { e.print(&fn) }}
	e.print(&module)
}
