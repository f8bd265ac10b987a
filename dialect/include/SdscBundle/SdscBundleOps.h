//===- SdscBundleOps.h - sdscbundle ops -------------------------*- C++ -*-===//

#ifndef SDSCBUNDLE_SDSCBUNDLEOPS_H
#define SDSCBUNDLE_SDSCBUNDLEOPS_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "SdscBundle/SdscBundleTypes.h"

#define GET_OP_CLASSES
#include "SdscBundle/SdscBundleOps.h.inc"

namespace mlir {
namespace sdscbundle {
/// MAX_POOL_SIZE_BYTES: the 16 GiB segment minus 2 GiB (contract 2.3), the
/// largest size device_mem_allocate accepts.
constexpr int64_t kMaxPoolSizeBytes = 17179869184LL - 2147483648LL;
} // namespace sdscbundle
} // namespace mlir

#endif // SDSCBUNDLE_SDSCBUNDLEOPS_H
