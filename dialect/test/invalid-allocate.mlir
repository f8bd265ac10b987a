// device_mem_allocate verifier: 0 < size <= 15032385536, directly in the
// entry block of a func.func (never in scf.for), at most one per function.
// RUN: sdsc-opt %s --split-input-file --verify-diagnostics

func.func @zero() {
  // expected-error@+1 {{'sdscbundle.device_mem_allocate' op size must be positive, got 0}}
  %pool = sdscbundle.device_mem_allocate 0 bytes : index
  return
}

// -----

// The signed value is read from the attribute (I64Attr's accessor is
// unsigned): -4096 is rejected as negative, not as huge.
func.func @negative() {
  // expected-error@+1 {{size must be positive, got -4096}}
  %pool = "sdscbundle.device_mem_allocate"() {size = -4096 : i64} : () -> index
  return
}

// -----

func.func @over_budget() {
  // expected-error@+1 {{size 15032385537 exceeds the pool budget of 15032385536 bytes}}
  %pool = sdscbundle.device_mem_allocate 15032385537 bytes : index
  return
}

// -----

func.func @in_loop() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-note@+1 {{enclosing scf.for}}
  scf.for %i = %c0 to %c4 step %c1 {
    // expected-error@+1 {{must not be inside scf.for}}
    %pool = sdscbundle.device_mem_allocate 256 bytes : index
  }
  return
}

// -----

func.func @not_entry_block() {
  return
^bb1:
  // expected-error@+1 {{must be in the entry block of its function}}
  %pool = sdscbundle.device_mem_allocate 256 bytes : index
  return
}

// -----

// expected-error@+1 {{must be directly inside a func.func}}
%pool = sdscbundle.device_mem_allocate 256 bytes : index

// -----

func.func @two() {
  // expected-note@+1 {{the first one is here}}
  %a = sdscbundle.device_mem_allocate 256 bytes : index
  // expected-error@+1 {{a function holds at most one device_mem_allocate}}
  %b = sdscbundle.device_mem_allocate 256 bytes : index
  return
}

// -----

// One per function: two functions may hold one each.
func.func @one() {
  %a = sdscbundle.device_mem_allocate 256 bytes : index
  return
}
func.func @another() {
  %a = sdscbundle.device_mem_allocate 256 bytes : index
  return
}

// -----

func.func @result_type() {
  // expected-error@+1 {{invalid kind of type specified}}
  %pool = sdscbundle.device_mem_allocate 256 bytes : i64
  return
}

// -----

func.func @result_type_generic() {
  // expected-error@+1 {{result #0 must be index, but got 'i64'}}
  %pool = "sdscbundle.device_mem_allocate"() {size = 256 : i64} : () -> i64
  return
}
