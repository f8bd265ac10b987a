//===- SdscBundleTypes.td - sdscbundle types ---------------*- tablegen -*-===//

#ifndef SDSCBUNDLE_TYPES
#define SDSCBUNDLE_TYPES

include "mlir/IR/AttrTypeBase.td"
include "SdscBundle/SdscBundleDialect.td"

def SdscBundle_InputArgType : TypeDef<SdscBundle_Dialect, "InputArg"> {
  let mnemonic = "input_arg";
  let summary = "a runtime-provided bundle parameter";
  let description = [{
    `!sdscbundle.input_arg<index>` is a value the caller supplies when the
    kernel is launched (a tensor's HBM base address, or a symbolic dimension
    size). `!sdscbundle.input_arg<index, granularity=G, max_value=M>` also
    carries the step constraint and the upper bound of a symbolic size; each
    of the two is optional. It is unwrapped with
    `sdscbundle.input_arg_extract`.

    Storage: granularity and max_value are 0 when absent; the parser and
    the verifier only accept positive values, so 0 never means a value.
  }];
  let parameters = (ins "::mlir::Type":$valueType,
                        "int64_t":$granularity,
                        "int64_t":$maxValue);
  let builders = [
    TypeBuilder<(ins), [{
      return $_get($_ctxt, ::mlir::IndexType::get($_ctxt), 0, 0);
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool hasGranularity() const { return getGranularity() != 0; }
    bool hasMaxValue() const { return getMaxValue() != 0; }
  }];
}

#endif // SDSCBUNDLE_TYPES
