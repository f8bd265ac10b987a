// --sdsc-check-pool reports every pool address outside the allocation,
// naming the offset and the allocation size.
// RUN: sdsc-opt %s --split-input-file --sdsc-check-pool --verify-diagnostics

func.func @at_size() {
  // expected-note@+1 {{the allocation is here}}
  %pool = sdscbundle.device_mem_allocate 4096 bytes : index
  %pool_offset_4096 = arith.constant 4096 : index
  // expected-error@+1 {{pool offset 4096 lies outside the 4096-byte pool allocation (valid offsets 0..4095)}}
  %pool_addr_4096 = arith.addi %pool, %pool_offset_4096 : index
  sdscbundle.sdsc_execute (%pool_addr_4096) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1]}
  return
}

// -----

func.func @negative() {
  // expected-note@+1 {{the allocation is here}}
  %pool = sdscbundle.device_mem_allocate 1024 bytes : index
  %minus = arith.constant -128 : index
  // expected-error@+1 {{pool offset -128 lies outside the 1024-byte pool allocation}}
  %a = arith.addi %minus, %pool : index
  sdscbundle.sdsc_execute (%a) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1]}
  return
}

// -----

// Offsets add up along a chain: 512 + 512. Both functions are checked.
func.func @fine() {
  %pool = sdscbundle.device_mem_allocate 1024 bytes : index
  return
}
func.func @chained() {
  // expected-note@+1 {{the allocation is here}}
  %pool = sdscbundle.device_mem_allocate 1024 bytes : index
  %c512 = arith.constant 512 : index
  %b = arith.addi %pool, %c512 : index
  // expected-error@+1 {{pool offset 1024 lies outside the 1024-byte pool allocation}}
  %c = arith.addi %b, %c512 : index
  sdscbundle.sdsc_execute (%b, %c) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1, -2]}
  return
}

// -----

// Four tiles of 256 from offset 256 in a 1024-byte pool: the last one
// starts at 256 + 3*256 = 1024.
#map_0 = affine_map<(d0)[s0] -> (s0 + 256*d0)>
func.func @last_tile() {
  // expected-note@+1 {{the allocation is here}}
  %pool = sdscbundle.device_mem_allocate 1024 bytes : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %loop_bound_0 = arith.constant 4 : index
  %pool_offset_256 = arith.constant 256 : index
  %pool_addr_256 = arith.addi %pool, %pool_offset_256 : index
  scf.for %i_0 = %c0 to %loop_bound_0 step %c1 {
    // expected-error@+1 {{last tile start: pool offset 1024 (base offset 256, every loop at its last iteration) lies outside the 1024-byte pool allocation (valid offsets 0..1023)}}
    %addr_0 = affine.apply #map_0(%i_0)[%pool_addr_256]
    sdscbundle.sdsc_execute (%addr_0) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1]}
  }
  return
}

// -----

// Two loop levels: 0 + 1024*1 + 256*3 = 1792 in a 1792-byte pool; the
// inner loop alone (768) would fit.
#map_1 = affine_map<(d0, d1)[s0] -> (s0 + 1024*d0 + 256*d1)>
func.func @nested_last_tile() {
  // expected-note@+1 {{the allocation is here}}
  %pool = sdscbundle.device_mem_allocate 1792 bytes : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %loop_bound_0 = arith.constant 2 : index
  %loop_bound_1 = arith.constant 4 : index
  scf.for %i_0 = %c0 to %loop_bound_0 step %c1 {
    scf.for %i_1 = %c0 to %loop_bound_1 step %c1 {
      // expected-error@+1 {{last tile start: pool offset 1792 (base offset 0, every loop at its last iteration)}}
      %addr_0 = affine.apply #map_1(%i_0, %i_1)[%pool]
      sdscbundle.sdsc_execute (%addr_0) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1]}
    }
  }
  return
}

// -----

// A negative stride walks below the pool start.
func.func @first_tile() {
  // expected-note@+1 {{the allocation is here}}
  %pool = sdscbundle.device_mem_allocate 1024 bytes : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c512 = arith.constant 512 : index
  %base = arith.addi %pool, %c512 : index
  scf.for %i = %c0 to %c4 step %c1 {
    // expected-error@+1 {{first tile start: pool offset -256 (base offset 512, every loop at its first iteration)}}
    %a = affine.apply affine_map<(d0)[s0] -> (s0 - 256*d0)>(%i)[%base]
    sdscbundle.sdsc_execute (%a) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1]}
  }
  return
}
