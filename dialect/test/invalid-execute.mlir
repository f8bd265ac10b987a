// sdsc_execute verifier: one negative, distinct symbol id per index operand.
// RUN: sdsc-opt %s --split-input-file --verify-diagnostics

func.func @too_few_ids(%a: index, %b: index) {
  // expected-error@+1 {{has 2 operand(s) but 1 symbol id(s)}}
  sdscbundle.sdsc_execute (%a, %b) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1]}
  return
}

// -----

func.func @too_many_ids(%a: index) {
  // expected-error@+1 {{has 1 operand(s) but 3 symbol id(s)}}
  sdscbundle.sdsc_execute (%a) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1, -2, -3]}
  return
}

// -----

func.func @no_ids_attr(%a: index) {
  // expected-error@+1 {{has 1 operand(s) but 0 symbol id(s)}}
  sdscbundle.sdsc_execute (%a) {sdsc_filename="sdsc_0.json"}
  return
}

// -----

func.func @zero_id(%a: index) {
  // expected-error@+1 {{symbol id 0 at position 0 must be negative}}
  sdscbundle.sdsc_execute (%a) {sdsc_filename="sdsc_0.json", "symbol_ids"=[0]}
  return
}

// -----

func.func @positive_id(%a: index, %b: index) {
  // expected-error@+1 {{symbol id 2 at position 1 must be negative}}
  sdscbundle.sdsc_execute (%a, %b) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1, 2]}
  return
}

// -----

func.func @duplicate_id(%a: index, %b: index, %c: index) {
  // expected-error@+1 {{symbol id -2 appears twice, at positions 0 and 2}}
  sdscbundle.sdsc_execute (%a, %b, %c) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-2, -1, -2]}
  return
}

// -----

// Ids only need to be distinct within one op: two ops may reuse -1.
func.func @reuse_across_ops(%a: index) {
  sdscbundle.sdsc_execute (%a) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1]}
  sdscbundle.sdsc_execute (%a) {sdsc_filename="sdsc_1.json", "symbol_ids"=[-1]}
  return
}

// -----

func.func @i64_operand(%a: i64) {
  // expected-error@+1 {{operand #0 must be index, but got 'i64'}}
  "sdscbundle.sdsc_execute"(%a) {sdsc_filename = "sdsc_0.json", symbol_ids = [-1]} : (i64) -> ()
  return
}

// -----

// The custom form has no operand types: every operand is an index.
// expected-note@+1 {{prior use here}}
func.func @i64_operand_custom(%a: i64) {
  // expected-error@+1 {{expects different type than prior uses: 'index' vs 'i64'}}
  sdscbundle.sdsc_execute (%a) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1]}
  return
}

// -----

func.func @ids_not_i64(%a: index) {
  // expected-error@+1 {{attribute 'symbol_ids' failed to satisfy constraint: 64-bit integer array attribute}}
  sdscbundle.sdsc_execute (%a) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1 : i32]}
  return
}

// -----

func.func @no_filename() {
  // expected-error@+1 {{requires attribute 'sdsc_filename'}}
  sdscbundle.sdsc_execute () {"symbol_ids"=[]}
  return
}

// -----

func.func @empty_filename() {
  // expected-error@+1 {{sdsc_filename must not be empty}}
  sdscbundle.sdsc_execute () {sdsc_filename="", "symbol_ids"=[]}
  return
}
