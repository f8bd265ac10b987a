//===- sdsc-opt.cpp - mlir-opt with the sdscbundle dialect ----------------===//
//
// MlirOptMain with the dialects a bundle uses (func, arith, affine, scf,
// sdscbundle), MLIR's generic transformation passes (cse, canonicalize, ...)
// and --sdsc-check-pool.
//
//===----------------------------------------------------------------------===//

#include "SdscBundle/Passes.h"
#include "SdscBundle/SdscBundleDialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::func::FuncDialect, mlir::arith::ArithDialect,
                  mlir::AffineDialect, mlir::scf::SCFDialect,
                  mlir::sdscbundle::SdscBundleDialect>();
  mlir::registerTransformsPasses();
  mlir::sdscbundle::registerSdscBundlePasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "sdsc-opt: MLIR driver for sdscbundle bundles\n", registry));
}
