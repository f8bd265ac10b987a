// input_arg_extract verifier: the field exists on the operand's type; the
// operand is an input_arg and the result an index.
// RUN: sdsc-opt %s --split-input-file --verify-diagnostics

func.func @granularity_missing(%x: !sdscbundle.input_arg<index>) {
  // expected-error@+1 {{field 'granularity' needs an input_arg type that carries granularity=N, got '!sdscbundle.input_arg<index>'}}
  %g = sdscbundle.input_arg_extract granularity from %x : !sdscbundle.input_arg<index> -> index
  return
}

// -----

func.func @max_value_missing(%x: !sdscbundle.input_arg<index, granularity=64>) {
  // expected-error@+1 {{field 'max_value' needs an input_arg type that carries max_value=N, got '!sdscbundle.input_arg<index, granularity=64>'}}
  %m = sdscbundle.input_arg_extract max_value from %x : !sdscbundle.input_arg<index, granularity=64> -> index
  return
}

// -----

func.func @granularity_missing_max_present(%x: !sdscbundle.input_arg<index, max_value=1024>) {
  // expected-error@+1 {{field 'granularity' needs an input_arg type}}
  %g = sdscbundle.input_arg_extract granularity from %x : !sdscbundle.input_arg<index, max_value=1024> -> index
  return
}

// -----

func.func @unknown_field(%x: !sdscbundle.input_arg<index>) {
  // expected-error@+1 {{field must be 'value', 'granularity' or 'max_value', got 'size'}}
  %v = sdscbundle.input_arg_extract size from %x : !sdscbundle.input_arg<index> -> index
  return
}

// -----

func.func @unknown_field_generic(%x: !sdscbundle.input_arg<index>) {
  // expected-error@+1 {{field must be 'value', 'granularity' or 'max_value', got 'Value'}}
  %v = "sdscbundle.input_arg_extract"(%x) {field = "Value"} : (!sdscbundle.input_arg<index>) -> index
  return
}

// -----

func.func @index_operand(%x: index) {
  // expected-error@+1 {{operand #0 must be}}
  %v = "sdscbundle.input_arg_extract"(%x) {field = "value"} : (index) -> index
  return
}

// -----

func.func @i64_result(%x: !sdscbundle.input_arg<index>) {
  // expected-error@+1 {{result #0 must be index, but got 'i64'}}
  %v = sdscbundle.input_arg_extract value from %x : !sdscbundle.input_arg<index> -> i64
  return
}
