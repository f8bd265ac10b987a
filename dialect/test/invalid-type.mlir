// !sdscbundle.input_arg parameters: an index value type, granularity and
// max_value positive, each at most once.
// RUN: sdsc-opt %s --split-input-file --verify-diagnostics

// expected-error@+1 {{input_arg holds an index, got 'i64'}}
func.func @not_index(%x: !sdscbundle.input_arg<i64>) {
  return
}

// -----

// expected-error@+1 {{'granularity' must be positive, got 0}}
func.func @zero_granularity(%x: !sdscbundle.input_arg<index, granularity=0>) {
  return
}

// -----

// expected-error@+1 {{'max_value' must be positive, got -5}}
func.func @negative_max(%x: !sdscbundle.input_arg<index, max_value=-5>) {
  return
}

// -----

// expected-error@+1 {{expected 'granularity' or 'max_value', got 'stride'}}
func.func @unknown_key(%x: !sdscbundle.input_arg<index, stride=4>) {
  return
}

// -----

// expected-error@+1 {{'granularity' given twice}}
func.func @twice(%x: !sdscbundle.input_arg<index, granularity=4, granularity=8>) {
  return
}
