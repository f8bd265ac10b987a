package mlirgen

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
//
// The return line is printed chunk by chunk like the applies, each chunk
// resolving its ops again, so that no list of every result is held.
func emitAddresses(pr *printer, lay *layout, o out) {
	printMaps(pr, lay)
	nArgs := lay.nArgs
	param := func(k int) value {
		switch {
		case k == 0:
			return value{kind: vPool}
		case k <= nArgs:
			return arg(int64(k - 1))
		}
		return iv(int64(k - 1 - nArgs))
	}
	ops := lay.b.Ops
	body := func() {
		declarations(pr, lay, o)
		lay.chunks(pr, o, false, func(e *bundleEmitter, lo, hi int) {
			for k := lo; k < hi; k++ {
				e.applies(&ops[k], true)
			}
		})
		// return OPERAND, ... : index, ...
		pr.start()
		pr.s("return")
		if lay.nResults > 0 {
			pr.s(" ")
			lay.chunks(pr, o, false, func(e *bundleEmitter, lo, hi int) {
				n := e.results
				for k := lo; k < hi; k++ {
					st := e.applies(&ops[k], false)
					for _, u := range st.uses {
						if n > 0 {
							e.pr.s(", ")
						}
						n++
						e.pr.val(st.syms[u].operand())
					}
					e.pr.check()
				}
			})
			pr.s(" : ")
			pr.indexTypes(lay.nResults)
		}
		pr.end()
	}
	fn := funcOpN(AddressFunc, 1+nArgs+len(lay.b.Loops), param, lay.nResults, body)
	module := mop{kind: opModule, region: func() { pr.custom(&fn) }}
	pr.custom(&module)
}
