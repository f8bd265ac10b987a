//===- SdscBundleDialect.td - the sdscbundle dialect -------*- tablegen -*-===//
//
// A clean-room definition of the sdscbundle dialect, written from its public
// interface (the SuperDSC-Bundle MLIR text that torch-spyre emits and the
// sdscgen contract, /work/shared/spec/bundle-ir.md section 3). It is not the
// closed backend's definition.
//
//===----------------------------------------------------------------------===//

#ifndef SDSCBUNDLE_DIALECT
#define SDSCBUNDLE_DIALECT

include "mlir/IR/OpBase.td"

def SdscBundle_Dialect : Dialect {
  let name = "sdscbundle";
  let summary = "SuperDSC-Bundle orchestration ops (clean-room, MLIR 16)";
  let description = [{
    One bundle is a func.func whose body allocates a device-memory pool,
    unwraps runtime arguments and runs a sequence of SDSC JSON programs
    (sdsc_execute), possibly inside scf.for loops, handing each program
    the index values of its symbols.
  }];
  let cppNamespace = "::mlir::sdscbundle";
  let useDefaultTypePrinterParser = 1;
  let useFoldAPI = kEmitFoldAdaptorFolder;
}

class SdscBundle_Op<string mnemonic, list<Trait> traits = []> :
    Op<SdscBundle_Dialect, mnemonic, traits>;

#endif // SDSCBUNDLE_DIALECT
