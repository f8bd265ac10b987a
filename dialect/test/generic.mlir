// The generic forms sdscgen --generic writes (bundle-ir.md section 3) are the
// same ops: they print in the custom spelling.
// RUN: sdsc-opt %s | FileCheck %s
// RUN: sdsc-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @generic
// CHECK-NEXT: %pool = sdscbundle.device_mem_allocate 4096 bytes : index{{$}}
// CHECK-NEXT: %[[X:.*]] = sdscbundle.input_arg_extract value from %arg0 : !sdscbundle.input_arg<index> -> index{{$}}
// CHECK-NEXT: sdscbundle.sdsc_execute (%pool, %[[X]]) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1, -2]}{{$}}
// CHECK-NEXT: sdscbundle.sdsc_execute () {sdsc_filename="sdsc_1.json", "symbol_ids"=[]}{{$}}
// GENERIC: "sdscbundle.device_mem_allocate"() {size = 4096 : i64} : () -> index
// GENERIC: "sdscbundle.input_arg_extract"(%arg0) {field = "value"} : (!sdscbundle.input_arg<index>) -> index
// GENERIC: "sdscbundle.sdsc_execute"(%0, %1) {sdsc_filename = "sdsc_0.json", symbol_ids = [-1, -2]} : (index, index) -> ()
// GENERIC: "sdscbundle.sdsc_execute"() {sdsc_filename = "sdsc_1.json", symbol_ids = []} : () -> ()
module {
  func.func @generic(%arg_0_base_addr: !sdscbundle.input_arg<index>) {
    %pool = "sdscbundle.device_mem_allocate"() {size = 4096 : i64} : () -> index
    %arg_0 = "sdscbundle.input_arg_extract"(%arg_0_base_addr) {field = "value"} : (!sdscbundle.input_arg<index>) -> index
    "sdscbundle.sdsc_execute"(%pool, %arg_0) {sdsc_filename = "sdsc_0.json", symbol_ids = [-1, -2]} : (index, index) -> ()
    "sdscbundle.sdsc_execute"() {sdsc_filename = "sdsc_1.json", symbol_ids = []} : () -> ()
    return
  }
}
