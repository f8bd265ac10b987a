//===- Passes.h - sdscbundle passes -----------------------------*- C++ -*-===//

#ifndef SDSCBUNDLE_PASSES_H
#define SDSCBUNDLE_PASSES_H

#include <memory>

namespace mlir {
class Pass;
namespace sdscbundle {
/// --sdsc-check-pool: every constant pool offset, and the last tile of every
/// strided pool address in constant-bound loops, lies inside the function's
/// device_mem_allocate.
std::unique_ptr<Pass> createCheckPoolPass();
void registerSdscBundlePasses();
} // namespace sdscbundle
} // namespace mlir

#endif // SDSCBUNDLE_PASSES_H
