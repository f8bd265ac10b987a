// --sdsc-check-pool accepts pool addresses that stay inside the allocation
// and leaves the IR unchanged.
// RUN: sdsc-opt %s --split-input-file --sdsc-check-pool | FileCheck %s

// Offsets 0 and 512 of 768; the last is size-1 = 767. Commuted operands.
// CHECK-LABEL: func.func @offsets
// CHECK: sdscbundle.sdsc_execute ({{.*}}) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1, -2, -3]}
func.func @offsets() {
  %pool = sdscbundle.device_mem_allocate 768 bytes : index
  %pool_offset_0 = arith.constant 0 : index
  %pool_addr_0 = arith.addi %pool, %pool_offset_0 : index
  %pool_offset_512 = arith.constant 512 : index
  %pool_addr_512 = arith.addi %pool_offset_512, %pool : index
  %pool_offset_767 = arith.constant 767 : index
  %pool_addr_767 = arith.addi %pool, %pool_offset_767 : index
  sdscbundle.sdsc_execute (%pool_addr_0, %pool_addr_512, %pool_addr_767) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1, -2, -3]}
  return
}

// -----

// Nested loops, map s0 + 1024*d0 + 256*d1 over 2 x 4 iterations from
// offset 256: the last tile starts at 256 + 1024 + 768 = 2048 < 2304.
// CHECK-LABEL: func.func @nested
#map_0 = affine_map<(d0, d1)[s0] -> (s0 + 1024*d0 + 256*d1)>
func.func @nested() {
  %pool = sdscbundle.device_mem_allocate 2304 bytes : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %loop_bound_0 = arith.constant 2 : index
  %loop_bound_1 = arith.constant 4 : index
  %pool_offset_256 = arith.constant 256 : index
  %pool_addr_256 = arith.addi %pool, %pool_offset_256 : index
  scf.for %i_0 = %c0 to %loop_bound_0 step %c1 {
    scf.for %i_1 = %c0 to %loop_bound_1 step %c1 {
      %addr_0 = affine.apply #map_0(%i_0, %i_1)[%pool_addr_256]
      sdscbundle.sdsc_execute (%addr_0) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1]}
    }
  }
  return
}

// -----

// Bounds other than 0..n by 1: %i takes 2, 5, 8, so the last tile starts
// at 8*100 = 800 < 801.
// CHECK-LABEL: func.func @strided_loop
func.func @strided_loop() {
  %pool = sdscbundle.device_mem_allocate 801 bytes : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c9 = arith.constant 9 : index
  scf.for %i = %c2 to %c9 step %c3 {
    %addr = affine.apply affine_map<(d0)[s0] -> (s0 + 100*d0)>(%i)[%pool]
    sdscbundle.sdsc_execute (%addr) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1]}
  }
  return
}

// -----

// Not checkable, so not reported: a loop that never runs, a runtime loop
// bound, a non-constant offset, and a pool that comes from the caller
// (--frontend-pool-allocation: no device_mem_allocate).
// CHECK-LABEL: func.func @unchecked
func.func @unchecked(%n: index, %off: index) {
  %pool = sdscbundle.device_mem_allocate 256 bytes : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c1 to %c0 step %c1 {
    %a = affine.apply affine_map<(d0)[s0] -> (s0 + 4096*d0)>(%i)[%pool]
    sdscbundle.sdsc_execute (%a) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1]}
  }
  scf.for %i = %c0 to %n step %c1 {
    %a = affine.apply affine_map<(d0)[s0] -> (s0 + 4096*d0)>(%i)[%pool]
    sdscbundle.sdsc_execute (%a) {sdsc_filename="sdsc_1.json", "symbol_ids"=[-1]}
  }
  %b = arith.addi %pool, %off : index
  sdscbundle.sdsc_execute (%b) {sdsc_filename="sdsc_2.json", "symbol_ids"=[-1]}
  return
}
// CHECK-LABEL: func.func @frontend_pool
func.func @frontend_pool(%pool_base_addr: !sdscbundle.input_arg<index>) {
  %pool = sdscbundle.input_arg_extract value from %pool_base_addr : !sdscbundle.input_arg<index> -> index
  %c = arith.constant 1048576 : index
  %a = arith.addi %pool, %c : index
  sdscbundle.sdsc_execute (%a) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1]}
  return
}
