// The custom forms of the contract (bundle-ir.md section 3) parse and print
// back in the same spelling; printing is a fixpoint (the output parses and
// prints the same again). Whitespace in the input does not matter (tabs,
// extra spaces, a dictionary split over lines).
// RUN: sdsc-opt %s | FileCheck %s
// RUN: sdsc-opt %s | sdsc-opt | FileCheck %s
// RUN: sdsc-opt %s --verify-each --sdsc-check-pool | FileCheck %s

// CHECK: #[[MAP:.*]] = affine_map<(d0)[s0] -> (d0 * 256 + s0)>
// CHECK-LABEL: func.func @spec_example
// CHECK-SAME: (%[[A0:.*]]: !sdscbundle.input_arg<index>) {
// CHECK-NEXT: %pool = sdscbundle.device_mem_allocate 4096 bytes : index{{$}}
// CHECK-NEXT: %[[X0:.*]] = sdscbundle.input_arg_extract value from %[[A0]] : !sdscbundle.input_arg<index> -> index{{$}}
// CHECK: %[[P0:.*]] = arith.addi %pool, %{{.*}} : index
// CHECK-NEXT: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: %[[ADDR:.*]] = affine.apply #[[MAP]](%[[I]])[%[[P0]]]
// CHECK-NEXT: sdscbundle.sdsc_execute (%[[ADDR]], %[[X0]]) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1, -2]}{{$}}
#map_0 = affine_map<(d0)[s0] -> (s0 + 256*d0)>
module {
	func.func @spec_example(%arg_0_base_addr: !sdscbundle.input_arg<index>) {
		%pool = sdscbundle.device_mem_allocate 4096 bytes : index
		%arg_0 = sdscbundle.input_arg_extract value from %arg_0_base_addr : !sdscbundle.input_arg<index> -> index
		%c0 = arith.constant 0 : index
		%c1 = arith.constant 1 : index
		%loop_bound_0 = arith.constant 4 : index
		%pool_offset_0 = arith.constant 0 : index
		%pool_addr_0 = arith.addi %pool, %pool_offset_0 : index
		scf.for %i_0 = %c0 to %loop_bound_0 step %c1 {
			%addr_0 = affine.apply #map_0(%i_0)[%pool_addr_0]
			sdscbundle.sdsc_execute (%addr_0, %arg_0) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1, -2]}
		}
		return
	}

// Empty operand and id lists print as () and [].
// CHECK-LABEL: func.func @empty()
// CHECK-NEXT: sdscbundle.sdsc_execute () {sdsc_filename="sdsc_0.json", "symbol_ids"=[]}{{$}}
  func.func @empty() {
    sdscbundle.sdsc_execute () {sdsc_filename="sdsc_0.json", "symbol_ids"=[]}
    return
  }

// Spacing is free; the unquoted and spaced dictionary spellings read the
// same; the output is the canonical spelling.
// CHECK-LABEL: func.func @spacing
// CHECK: sdscbundle.sdsc_execute (%{{.*}}, %{{.*}}) {sdsc_filename="a b\22c.json", "symbol_ids"=[-3, -1]}{{$}}
// CHECK-NEXT: sdscbundle.sdsc_execute (%{{.*}}) {sdsc_filename="sdsc_1.json", "symbol_ids"=[-2]}{{$}}
  func.func @spacing(%x: !sdscbundle.input_arg<index>) {
    %v   =   sdscbundle.input_arg_extract   value   from   %x   :   !sdscbundle.input_arg< index >   ->   index
    sdscbundle.sdsc_execute(%v,%v){sdsc_filename = "a b\"c.json",
        symbol_ids = [-3,
                      -1]}
    sdscbundle.sdsc_execute ( %v ) { "symbol_ids" = [ -2 ] , "sdsc_filename" = "sdsc_1.json" }
    return
  }

// The symbolic-dimension type, with both, one or none of its parameters,
// and the three fields.
// CHECK-LABEL: func.func @dims
// CHECK-SAME: (%[[D:.*]]: !sdscbundle.input_arg<index, granularity=56, max_value=616>, %[[G:.*]]: !sdscbundle.input_arg<index, granularity=64>, %[[M:.*]]: !sdscbundle.input_arg<index, max_value=1024>)
// CHECK-NEXT: sdscbundle.input_arg_extract value from %[[D]] : !sdscbundle.input_arg<index, granularity=56, max_value=616> -> index{{$}}
// CHECK-NEXT: sdscbundle.input_arg_extract granularity from %[[D]] : !sdscbundle.input_arg<index, granularity=56, max_value=616> -> index{{$}}
// CHECK-NEXT: sdscbundle.input_arg_extract max_value from %[[D]] : !sdscbundle.input_arg<index, granularity=56, max_value=616> -> index{{$}}
// CHECK-NEXT: sdscbundle.input_arg_extract granularity from %[[G]] : !sdscbundle.input_arg<index, granularity=64> -> index{{$}}
// CHECK-NEXT: sdscbundle.input_arg_extract max_value from %[[M]] : !sdscbundle.input_arg<index, max_value=1024> -> index{{$}}
  func.func @dims(%d: !sdscbundle.input_arg<index, granularity=56, max_value=616>,
                  %g: !sdscbundle.input_arg<index, granularity=64>,
                  %m: !sdscbundle.input_arg<index, max_value=1024>) {
    %v = sdscbundle.input_arg_extract value from %d : !sdscbundle.input_arg<index, granularity=56, max_value=616> -> index
    %gr = sdscbundle.input_arg_extract granularity from %d : !sdscbundle.input_arg<index, granularity=56, max_value=616> -> index
    %mx = sdscbundle.input_arg_extract max_value from %d : !sdscbundle.input_arg<index, granularity=56, max_value=616> -> index
    %g2 = sdscbundle.input_arg_extract granularity from %g : !sdscbundle.input_arg<index, granularity=64> -> index
    %m2 = sdscbundle.input_arg_extract max_value from %m : !sdscbundle.input_arg<index, max_value=1024> -> index
    sdscbundle.sdsc_execute (%v, %gr, %mx, %g2, %m2) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1, -2, -3, -4, -5]}
    return
  }

// Parameters given in the other order print in the canonical order.
// CHECK-LABEL: func.func @order
// CHECK-SAME: !sdscbundle.input_arg<index, granularity=8, max_value=64>
  func.func @order(%d: !sdscbundle.input_arg<index, max_value=64, granularity=8>) {
    return
  }

// The largest allowed pool (MAX_POOL_SIZE_BYTES) and an execute with no
// symbol_ids attribute at all (no symbols), which prints without it.
// CHECK-LABEL: func.func @budget()
// CHECK-NEXT: %pool = sdscbundle.device_mem_allocate 15032385536 bytes : index{{$}}
// CHECK-NEXT: sdscbundle.sdsc_execute () {sdsc_filename="sdsc_0.json"}{{$}}
  func.func @budget() {
    %pool = sdscbundle.device_mem_allocate 15032385536 bytes : index
    sdscbundle.sdsc_execute () {sdsc_filename="sdsc_0.json"}
    return
  }

// An execute carrying a further attribute prints MLIR's standard dictionary
// (which parses back to the same op).
// CHECK-LABEL: func.func @extra_attr()
// CHECK-NEXT: sdscbundle.sdsc_execute () {note = "x", sdsc_filename = "sdsc_0.json", symbol_ids = []}{{$}}
  func.func @extra_attr() {
    sdscbundle.sdsc_execute () {sdsc_filename="sdsc_0.json", "symbol_ids"=[], note = "x"}
    return
  }
}
