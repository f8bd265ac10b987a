//===- SdscBundleDialect.cpp - sdscbundle dialect, types and ops ----------===//
//
// A clean-room definition written from the public interface; see
// docs/dialect.md. One translation unit for the dialect, its type and its
// three ops keeps the build short on small machines.
//
//===----------------------------------------------------------------------===//

#include "SdscBundle/SdscBundleDialect.h"
#include "SdscBundle/SdscBundleOps.h"
#include "SdscBundle/SdscBundleTypes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::sdscbundle;

#include "SdscBundle/SdscBundleDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "SdscBundle/SdscBundleTypes.cpp.inc"

#define GET_OP_CLASSES
#include "SdscBundle/SdscBundleOps.cpp.inc"

void SdscBundleDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "SdscBundle/SdscBundleTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "SdscBundle/SdscBundleOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// !sdscbundle.input_arg<index[, granularity=G][, max_value=M]>
//===----------------------------------------------------------------------===//

Type InputArgType::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  Type valueType;
  int64_t granularity = 0, maxValue = 0;
  if (parser.parseLess() || parser.parseType(valueType))
    return {};
  while (succeeded(parser.parseOptionalComma())) {
    SMLoc keyLoc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key))
      return {};
    int64_t *slot = key == "granularity" ? &granularity
                    : key == "max_value" ? &maxValue
                                         : nullptr;
    if (!slot) {
      parser.emitError(keyLoc, "expected 'granularity' or 'max_value', got '")
          << key << "'";
      return {};
    }
    if (*slot != 0) {
      parser.emitError(keyLoc, "'") << key << "' given twice";
      return {};
    }
    SMLoc valueLoc;
    int64_t value = 0;
    if (parser.parseEqual())
      return {};
    valueLoc = parser.getCurrentLocation();
    if (parser.parseInteger(value))
      return {};
    // 0 is the storage for "absent", so it must not be accepted as a value.
    if (value <= 0) {
      parser.emitError(valueLoc, "'") << key << "' must be positive, got " << value;
      return {};
    }
    *slot = value;
  }
  if (parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    valueType, granularity, maxValue);
}

void InputArgType::print(AsmPrinter &printer) const {
  printer << '<' << getValueType();
  if (hasGranularity())
    printer << ", granularity=" << getGranularity();
  if (hasMaxValue())
    printer << ", max_value=" << getMaxValue();
  printer << '>';
}

LogicalResult
InputArgType::verify(function_ref<InFlightDiagnostic()> emitError,
                     Type valueType, int64_t granularity, int64_t maxValue) {
  if (!valueType.isa<IndexType>())
    return emitError() << "input_arg holds an index, got " << valueType;
  if (granularity < 0)
    return emitError() << "granularity must be positive, got " << granularity;
  if (maxValue < 0)
    return emitError() << "max_value must be positive, got " << maxValue;
  return success();
}

//===----------------------------------------------------------------------===//
// device_mem_allocate
//===----------------------------------------------------------------------===//

void DeviceMemAllocateOp::getAsmResultNames(
    function_ref<void(Value, StringRef)> setNameFn) {
  setNameFn(getResult(), "pool");
}

LogicalResult DeviceMemAllocateOp::verify() {
  // I64Attr's accessor is unsigned; the signed value is the attribute's.
  int64_t size = getSizeAttr().getInt();
  if (size <= 0)
    return emitOpError("size must be positive, got ") << size;
  if (size > kMaxPoolSizeBytes)
    return emitOpError("size ")
           << size << " exceeds the pool budget of " << kMaxPoolSizeBytes
           << " bytes (MAX_POOL_SIZE_BYTES)";
  if (auto loop = (*this)->getParentOfType<scf::ForOp>()) {
    InFlightDiagnostic diag = emitOpError(
        "must not be inside scf.for: the backend reserves one buffer for the "
        "whole kernel");
    diag.attachNote(loop.getLoc()) << "enclosing scf.for";
    return diag;
  }
  if (!isa_and_nonnull<func::FuncOp>((*this)->getParentOp()))
    return emitOpError("must be directly inside a func.func");
  Block *block = (*this)->getBlock();
  if (!block->isEntryBlock())
    return emitOpError("must be in the entry block of its function");
  for (Operation &other : *block) {
    if (&other == getOperation())
      break;
    if (isa<DeviceMemAllocateOp>(other)) {
      InFlightDiagnostic diag =
          emitOpError("a function holds at most one device_mem_allocate");
      diag.attachNote(other.getLoc()) << "the first one is here";
      return diag;
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// input_arg_extract FIELD from %x : TYPE -> index
//===----------------------------------------------------------------------===//

ParseResult InputArgExtractOp::parse(OpAsmParser &parser,
                                     OperationState &result) {
  StringRef field;
  OpAsmParser::UnresolvedOperand input;
  Type inputType, resultType;
  SMLoc fieldLoc = parser.getCurrentLocation();
  if (parser.parseKeyword(&field) || parser.parseKeyword("from") ||
      parser.parseOperand(input) ||
      parser.parseOptionalAttrDict(result.attributes) || parser.parseColon() ||
      parser.parseType(inputType) || parser.parseArrow() ||
      parser.parseType(resultType))
    return failure();
  StringAttr fieldName = getFieldAttrName(result.name);
  if (result.attributes.get(fieldName))
    return parser.emitError(fieldLoc,
                            "the field is given both as a keyword and in the "
                            "attribute dictionary");
  result.addAttribute(fieldName, parser.getBuilder().getStringAttr(field));
  result.addTypes(resultType);
  return parser.resolveOperand(input, inputType, result.operands);
}

void InputArgExtractOp::print(OpAsmPrinter &p) {
  p << ' ' << getField() << " from " << getInput();
  p.printOptionalAttrDict((*this)->getAttrs(), {getFieldAttrName()});
  p << " : " << getInput().getType() << " -> " << getResult().getType();
}

LogicalResult InputArgExtractOp::verify() {
  InputArgType type = getInput().getType();
  StringRef field = getField();
  if (field == "value")
    return success();
  if (field == "granularity") {
    if (!type.hasGranularity())
      return emitOpError("field 'granularity' needs an input_arg type that "
                         "carries granularity=N, got ")
             << type;
    return success();
  }
  if (field == "max_value") {
    if (!type.hasMaxValue())
      return emitOpError("field 'max_value' needs an input_arg type that "
                         "carries max_value=N, got ")
             << type;
    return success();
  }
  return emitOpError("field must be 'value', 'granularity' or 'max_value', "
                     "got '")
         << field << "'";
}

//===----------------------------------------------------------------------===//
// sdsc_execute (%a, ...) {sdsc_filename="F", "symbol_ids"=[-1, ...]}
//===----------------------------------------------------------------------===//

ParseResult SdscExecuteOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand> symbols;
  if (parser.parseOperandList(symbols, OpAsmParser::Delimiter::Paren) ||
      parser.parseOptionalAttrDict(result.attributes))
    return failure();
  return parser.resolveOperands(symbols, parser.getBuilder().getIndexType(),
                                result.operands);
}

void SdscExecuteOp::print(OpAsmPrinter &p) {
  // The space before '(' and the dictionary spelling are torch-spyre's:
  // no spaces around '=', the symbol_ids name quoted. MLIR's own attribute
  // dictionary printer cannot produce that, so it is written here; an op
  // that carries any other attribute (or malformed ones) falls back to the
  // standard dictionary, which the parser reads as well.
  p << " (";
  p.printOperands(getSymbols());
  p << ")";
  ArrayRef<NamedAttribute> attrs = (*this)->getAttrs();
  StringAttr fileName = getSdscFilenameAttrName();
  StringAttr idsName = getSymbolIdsAttrName();
  auto file = (*this)->getAttrOfType<StringAttr>(fileName);
  auto ids = (*this)->getAttrOfType<ArrayAttr>(idsName);
  bool canonical = file && llvm::all_of(attrs, [&](NamedAttribute a) {
                     return a.getName() == fileName ||
                            (a.getName() == idsName && ids);
                   });
  if (ids)
    for (Attribute a : ids)
      canonical = canonical && a.isa<IntegerAttr>();
  if (!canonical) {
    p.printOptionalAttrDict(attrs);
    return;
  }
  p << " {sdsc_filename=";
  p.printAttributeWithoutType(file);
  if (ids) {
    p << ", \"symbol_ids\"=[";
    llvm::interleaveComma(ids, p.getStream(), [&](Attribute a) {
      p.getStream() << a.cast<IntegerAttr>().getInt();
    });
    p << "]";
  }
  p << "}";
}

LogicalResult SdscExecuteOp::verify() {
  if (getSdscFilename().empty())
    return emitOpError("sdsc_filename must not be empty");
  SmallVector<int64_t> ids;
  if (ArrayAttr attr = getSymbolIdsAttr())
    for (Attribute a : attr)
      ids.push_back(a.cast<IntegerAttr>().getInt());
  size_t operands = getSymbols().size();
  if (ids.size() != operands)
    return emitOpError("has ")
           << operands << " operand(s) but " << ids.size()
           << " symbol id(s); each operand is the value of one symbol id";
  llvm::DenseMap<int64_t, size_t> seen;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] >= 0)
      return emitOpError("symbol id ")
             << ids[i] << " at position " << i << " must be negative";
    auto [it, fresh] = seen.try_emplace(ids[i], i);
    if (!fresh)
      return emitOpError("symbol id ")
             << ids[i] << " appears twice, at positions " << it->second
             << " and " << i;
  }
  return success();
}
