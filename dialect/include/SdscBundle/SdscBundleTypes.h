//===- SdscBundleTypes.h - sdscbundle types ---------------------*- C++ -*-===//

#ifndef SDSCBUNDLE_SDSCBUNDLETYPES_H
#define SDSCBUNDLE_SDSCBUNDLETYPES_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"

#define GET_TYPEDEF_CLASSES
#include "SdscBundle/SdscBundleTypes.h.inc"

#endif // SDSCBUNDLE_SDSCBUNDLETYPES_H
