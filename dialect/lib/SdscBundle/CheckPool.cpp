//===- CheckPool.cpp - the sdsc-check-pool pass ---------------------------===//
//
// Checks that the pool addresses a bundle computes stay inside its
// device_mem_allocate:
//
//  * every pool address with a constant offset (%pool, and arith.addi of a
//    pool address and an arith.constant, in either operand order and
//    chained) has 0 <= offset < size;
//  * every affine.apply that takes exactly one such address with
//    coefficient 1 and whose other operands are constants or induction
//    variables of scf.for loops with constant bounds, and whose map is
//    linear (s0 + sum Si*di and the like), has all its tile starts inside:
//    the largest (for positive strides: every loop at its last iteration,
//    bound-1 when the loop runs from 0 by 1) and the smallest.
//
// Anything else (a non-constant offset, a loop with runtime bounds, mod or
// floordiv in a map, a function with no device_mem_allocate, e.g. the
// --frontend-pool-allocation form) is not checked. Diagnostics are errors
// on the offending op, with a note on the allocation.
//
//===----------------------------------------------------------------------===//

#include "SdscBundle/Passes.h"
#include "SdscBundle/SdscBundleOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>

using namespace mlir;
using namespace mlir::sdscbundle;

namespace {

std::optional<int64_t> constantOf(Value v) {
  APInt value;
  if (matchPattern(v, m_ConstantInt(&value)) && value.getBitWidth() <= 64)
    return value.getSExtValue();
  return std::nullopt;
}

/// The values an operand of an affine.apply takes: [lo, hi].
struct Range {
  int64_t lo, hi;
};

/// The iteration range of v when it is the induction variable of an
/// scf.for with constant bounds and step. An empty loop gives nullopt and
/// sets *empty.
std::optional<Range> inductionRange(Value v, bool *empty) {
  auto arg = v.dyn_cast<BlockArgument>();
  if (!arg)
    return std::nullopt;
  auto loop = dyn_cast_or_null<scf::ForOp>(arg.getOwner()->getParentOp());
  if (!loop || loop.getInductionVar() != v)
    return std::nullopt;
  std::optional<int64_t> lb = constantOf(loop.getLowerBound());
  std::optional<int64_t> ub = constantOf(loop.getUpperBound());
  std::optional<int64_t> step = constantOf(loop.getStep());
  if (!lb || !ub || !step || *step <= 0)
    return std::nullopt;
  if (*ub <= *lb) {
    *empty = true;
    return std::nullopt;
  }
  // last = lb + step * (trips - 1), trips = ceil((ub - lb) / step).
  int64_t span = *ub - *lb - 1; // ub > lb, so no overflow for index values
  int64_t last = *lb + (span / *step) * *step;
  return Range{*lb, last};
}

/// Adds scale * e to the coefficient vectors (dims, then symbols) and the
/// constant; false when e is not linear (mod, floordiv, ceildiv, a product
/// of two non-constants) or a coefficient overflows.
bool linearize(AffineExpr e, int64_t scale, SmallVectorImpl<int64_t> &coeffs,
               unsigned numDims, int64_t &constant) {
  auto addTo = [&](int64_t &slot, int64_t term) {
    return !__builtin_add_overflow(slot, term, &slot);
  };
  switch (e.getKind()) {
  case AffineExprKind::Constant: {
    int64_t term;
    if (__builtin_mul_overflow(scale, e.cast<AffineConstantExpr>().getValue(),
                               &term))
      return false;
    return addTo(constant, term);
  }
  case AffineExprKind::DimId:
    return addTo(coeffs[e.cast<AffineDimExpr>().getPosition()], scale);
  case AffineExprKind::SymbolId:
    return addTo(coeffs[numDims + e.cast<AffineSymbolExpr>().getPosition()],
                 scale);
  case AffineExprKind::Add: {
    auto bin = e.cast<AffineBinaryOpExpr>();
    return linearize(bin.getLHS(), scale, coeffs, numDims, constant) &&
           linearize(bin.getRHS(), scale, coeffs, numDims, constant);
  }
  case AffineExprKind::Mul: {
    auto bin = e.cast<AffineBinaryOpExpr>();
    AffineExpr lhs = bin.getLHS(), rhs = bin.getRHS();
    if (!rhs.isa<AffineConstantExpr>())
      std::swap(lhs, rhs);
    auto k = rhs.dyn_cast<AffineConstantExpr>();
    int64_t newScale;
    if (!k || __builtin_mul_overflow(scale, k.getValue(), &newScale))
      return false;
    return linearize(lhs, newScale, coeffs, numDims, constant);
  }
  default:
    return false;
  }
}

struct CheckPoolPass
    : public PassWrapper<CheckPoolPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CheckPoolPass)

  StringRef getArgument() const final { return "sdsc-check-pool"; }
  StringRef getDescription() const final {
    return "Check that constant pool offsets and the last tile of every "
           "strided pool address lie inside the device_mem_allocate";
  }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    DeviceMemAllocateOp alloc;
    func.walk([&](DeviceMemAllocateOp op) {
      if (!alloc)
        alloc = op;
    });
    if (!alloc)
      return;
    size = alloc.getSizeAttr().getInt();
    this->alloc = alloc;
    offsets.clear();
    offsets[alloc.getResult()] = 0;
    bool ok = true;
    // Post-order visits a definition before its uses (SSA dominance).
    func.walk([&](Operation *op) {
      if (auto add = dyn_cast<arith::AddIOp>(op))
        ok &= checkAdd(add);
      else if (auto apply = dyn_cast<AffineApplyOp>(op))
        ok &= checkApply(apply);
    });
    if (!ok)
      signalPassFailure();
  }

private:
  DeviceMemAllocateOp alloc;
  int64_t size = 0;
  /// Pool addresses with a known constant offset from the pool start.
  llvm::DenseMap<Value, int64_t> offsets;

  std::optional<int64_t> poolOffset(Value v) const {
    auto it = offsets.find(v);
    if (it == offsets.end())
      return std::nullopt;
    return it->second;
  }

  /// Reports "<what> lies outside the S-byte pool allocation"; what names
  /// the offending offset.
  bool outside(Operation *op, const Twine &what) {
    InFlightDiagnostic diag = op->emitError()
                              << what << " lies outside the " << size
                              << "-byte pool allocation (valid offsets 0.."
                              << size - 1 << ")";
    diag.attachNote(alloc.getLoc()) << "the allocation is here";
    return false;
  }

  bool checkAdd(arith::AddIOp add) {
    std::optional<int64_t> base = poolOffset(add.getLhs());
    std::optional<int64_t> k = constantOf(add.getRhs());
    if (!base || !k) {
      base = poolOffset(add.getRhs());
      k = constantOf(add.getLhs());
    }
    if (!base || !k)
      return true;
    int64_t offset;
    if (__builtin_add_overflow(*base, *k, &offset)) {
      add.emitError() << "pool offset " << *base << " + " << *k
                      << " overflows";
      return false;
    }
    offsets[add.getResult()] = offset;
    if (offset < 0 || offset >= size)
      return outside(add, "pool offset " + Twine(offset));
    return true;
  }

  bool checkApply(AffineApplyOp apply) {
    AffineMap map = apply.getAffineMap();
    if (map.getNumResults() != 1)
      return true;
    ValueRange operands = apply.getMapOperands();
    unsigned numDims = map.getNumDims();
    SmallVector<int64_t> coeffs(operands.size(), 0);
    int64_t constant = 0;
    if (!linearize(map.getResult(0), 1, coeffs, numDims, constant))
      return true;
    // Exactly one pool address, with coefficient 1: an address plus
    // strides. Everything else with a nonzero coefficient must be a
    // constant or a constant-bound induction variable.
    int pool = -1;
    SmallVector<Range> ranges(operands.size(), Range{0, 0});
    for (auto [i, v] : llvm::enumerate(operands)) {
      if (coeffs[i] == 0)
        continue;
      if (std::optional<int64_t> off = poolOffset(v)) {
        if (pool >= 0 || coeffs[i] != 1)
          return true;
        pool = i;
        ranges[i] = Range{*off, *off};
      } else if (std::optional<int64_t> k = constantOf(v)) {
        ranges[i] = Range{*k, *k};
      } else {
        bool empty = false;
        std::optional<Range> r = inductionRange(v, &empty);
        if (empty)
          return true; // the apply never runs
        if (!r)
          return true; // not checkable
        ranges[i] = *r;
      }
    }
    if (pool < 0)
      return true;
    int64_t lo = constant, hi = constant;
    for (size_t i = 0; i < operands.size(); ++i) {
      if (coeffs[i] == 0)
        continue;
      int64_t a, b;
      if (__builtin_mul_overflow(coeffs[i], ranges[i].lo, &a) ||
          __builtin_mul_overflow(coeffs[i], ranges[i].hi, &b) ||
          __builtin_add_overflow(lo, std::min(a, b), &lo) ||
          __builtin_add_overflow(hi, std::max(a, b), &hi)) {
        apply.emitError() << "the tile addresses of this pool address "
                             "overflow 64 bits";
        return false;
      }
    }
    int64_t base = ranges[pool].lo;
    if (hi >= size)
      return outside(apply, "last tile start: pool offset " + Twine(hi) +
                                " (base offset " + Twine(base) +
                                ", every loop at its last iteration)");
    if (lo < 0)
      return outside(apply, "first tile start: pool offset " + Twine(lo) +
                                " (base offset " + Twine(base) +
                                ", every loop at its first iteration)");
    return true;
  }
};

} // namespace

std::unique_ptr<Pass> mlir::sdscbundle::createCheckPoolPass() {
  return std::make_unique<CheckPoolPass>();
}

void mlir::sdscbundle::registerSdscBundlePasses() {
  PassRegistration<CheckPoolPass>();
}
