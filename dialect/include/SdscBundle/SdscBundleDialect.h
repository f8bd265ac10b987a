//===- SdscBundleDialect.h - the sdscbundle dialect -------------*- C++ -*-===//

#ifndef SDSCBUNDLE_SDSCBUNDLEDIALECT_H
#define SDSCBUNDLE_SDSCBUNDLEDIALECT_H

#include "mlir/IR/Dialect.h"

#include "SdscBundle/SdscBundleDialect.h.inc"

#endif // SDSCBUNDLE_SDSCBUNDLEDIALECT_H
