//===- SdscBundleOps.td - sdscbundle ops -------------------*- tablegen -*-===//

#ifndef SDSCBUNDLE_OPS
#define SDSCBUNDLE_OPS

include "SdscBundle/SdscBundleDialect.td"
include "SdscBundle/SdscBundleTypes.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def SdscBundle_DeviceMemAllocateOp
    : SdscBundle_Op<"device_mem_allocate", [MemoryEffects<[MemAlloc]>,
                                    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "reserve one contiguous device-memory buffer for the kernel";
  let description = [{
    ```mlir
    %pool = sdscbundle.device_mem_allocate 4096 bytes : index
    ```
    The result is the device byte address of the first byte. The backend
    reserves the bytes for the whole kernel; there is no deallocation.

    Verified: 0 < size <= 15032385536 (MAX_POOL_SIZE_BYTES, the 16 GiB
    segment minus 2 GiB); the op sits directly in the entry block of a
    func.func (so never inside scf.for); at most one per function.
  }];
  // I64Attr's generated accessor returns uint64_t; the verifier reads the
  // signed value from the attribute (getSizeAttr().getInt()).
  let arguments = (ins I64Attr:$size);
  let results = (outs Index:$result);
  let assemblyFormat = "$size `bytes` attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def SdscBundle_InputArgExtractOp
    : SdscBundle_Op<"input_arg_extract", [Pure]> {
  let summary = "read one field of an input_arg parameter as an index";
  let description = [{
    ```mlir
    %arg_0 = sdscbundle.input_arg_extract value from %arg_0_base_addr : !sdscbundle.input_arg<index> -> index
    ```
    `field` is `value` (the runtime value), `granularity` or `max_value`;
    the last two need an input_arg type that carries them.
  }];
  let arguments = (ins SdscBundle_InputArgType:$input, StrAttr:$field);
  let results = (outs Index:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def SdscBundle_SdscExecuteOp : SdscBundle_Op<"sdsc_execute"> {
  let summary = "run one SDSC JSON program with its symbol values";
  let description = [{
    ```mlir
    sdscbundle.sdsc_execute (%addr_0, %arg_0) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1, -2]}
    ```
    Operand i supplies the value of symbol `symbol_ids[i]`. Verified: one
    id per operand; every id negative and distinct within the op; operands
    of type index; a non-empty file name. An absent `symbol_ids` means no
    symbols (and then no operands).
  }];
  let arguments = (ins Variadic<Index>:$symbols,
                       StrAttr:$sdsc_filename,
                       OptionalAttr<I64ArrayAttr>:$symbol_ids);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

#endif // SDSCBUNDLE_OPS
