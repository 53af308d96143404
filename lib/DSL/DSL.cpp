//===- DSL.cpp - build tile-dialect kernels from C++ ----------------------===//

#include "tilec/DSL/DSL.h"

#include "tilec/Dialect/Tile/Tile.h"
#include "tilec/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Verifier.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <tuple>

using namespace mlir;
namespace tile = tilec::tile;

namespace tilec::dsl {

//===----------------------------------------------------------------------===//
// Builder state
//===----------------------------------------------------------------------===//

struct KernelBuilder::Impl {
  Impl(MLIRContext &context) : ctx(context), b(&context) {}

  MLIRContext &ctx;
  OwningOpRef<ModuleOp> module;
  func::FuncOp func;
  OpBuilder b;
  KernelSignature signature;
  int errors = 0;
  /// The errors reported so far (file, line, column, message): a template
  /// that runs the user's code more than once (attention's three key loops
  /// call the variant's mask twice) reports each mistake once.
  std::set<std::tuple<std::string, unsigned, unsigned, std::string>> reported;
  bool finished = false;
  /// Float +, -, * may be contracted into fmas (a ContractFloats lives).
  bool contractFloats = false;

  Location loc(const Where &where) {
    return FileLineColLoc::get(&ctx, where.file_name(), where.line(), where.column());
  }

  Type type(DType dtype) {
    switch (dtype) {
    case DType::I1: return b.getI1Type();
    case DType::I32: return b.getI32Type();
    case DType::I64: return b.getI64Type();
    case DType::F16: return b.getF16Type();
    case DType::BF16: return b.getBF16Type();
    case DType::F32: return b.getF32Type();
    }
    return {};
  }

  BlockArgument addArgument(Type type, const Where &where) {
    return func.getBody().front().addArgument(type, loc(where));
  }
};

namespace {

std::string typeString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

std::string shapeString(const Shape &shape) {
  if (shape.empty())
    return "scalar";
  std::string text;
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? "x" : "") + std::to_string(shape[i]);
  return text;
}

Shape shapeOf(Value value) {
  if (auto tensor = dyn_cast<RankedTensorType>(value.getType()))
    return Shape(tensor.getShape());
  return {};
}

Type elementOf(Value value) { return getElementTypeOrSelf(value.getType()); }

std::optional<DType> dtypeOf(Type type) {
  if (type.isInteger(1)) return DType::I1;
  if (type.isInteger(32)) return DType::I32;
  if (type.isInteger(64)) return DType::I64;
  if (type.isF16()) return DType::F16;
  if (type.isBF16()) return DType::BF16;
  if (type.isF32()) return DType::F32;
  return std::nullopt;
}

/// The builder behind the first operand that is a Tile.
KernelBuilder *builderOf(std::initializer_list<const Operand *> operands) {
  for (const Operand *operand : operands)
    if (operand && operand->tile.valid())
      return operand->tile.builder();
  return nullptr;
}

} // namespace

namespace {

/// Everything the operators share: turning operands into values of matching
/// element type and shape, reporting misuse at the user's location.
class Lowerer {
public:
  Lowerer(KernelBuilder &kb, const Where &where)
      : kb(kb), impl(kb.impl()), where(where), loc(impl.loc(where)) {}

  OpBuilder &b() { return impl.b; }
  Tile wrap(Value value) { return kb.wrap(value); }

  Tile fail(const std::string &message, Tile fallback) {
    kb.error(where, message);
    return fallback;
  }

  /// A scalar constant of `type` (integer, float or i1).
  Value constant(double number, Type type) {
    if (auto floatType = dyn_cast<FloatType>(type))
      return arith::ConstantOp::create(b(), loc, b().getFloatAttr(floatType, number));
    return arith::ConstantOp::create(b(), loc,
                                     b().getIntegerAttr(type, static_cast<int64_t>(number)));
  }

  /// The operand as a value; numbers take the element type `like` (or f32 /
  /// i32 when there is nothing to take it from).
  Value value(const Operand &operand, Type like) {
    if (operand.tile.valid())
      return operand.tile.value();
    if (!like)
      like = operand.isInteger ? Type(b().getI32Type()) : Type(b().getF32Type());
    like = getElementTypeOrSelf(like);
    if (isa<tile::PointerType>(like))
      like = b().getI32Type();
    if (isa<IntegerType>(like) && !operand.isInteger &&
        operand.number != std::floor(operand.number)) {
      kb.error(where, fmt::format("the constant {} is not an integer but the other operand is {}",
                                  operand.number, typeString(like)));
    }
    return constant(operand.number, like);
  }

  /// `value` broadcast to `shape` (scalars are splatted, size-1 dimensions repeated).
  Value broadcast(Value value, const Shape &shape) {
    Shape from = shapeOf(value);
    if (from == shape)
      return value;
    if (from.empty())
      return tile::SplatOp::create(b(), loc, value, shape);
    auto result = RankedTensorType::get(shape, elementOf(value));
    return tile::BroadcastOp::create(b(), loc, result, value);
  }

  /// The shape both operands broadcast to, or nullopt after reporting why not.
  std::optional<Shape> commonShape(const std::vector<Value> &values, std::string_view what) {
    Shape result;
    for (Value value : values) {
      Shape shape = shapeOf(value);
      if (shape.empty())
        continue;
      if (result.empty()) {
        result = shape;
        continue;
      }
      if (shape.size() != result.size()) {
        kb.error(where, fmt::format("cannot broadcast shapes {} and {} in '{}' (ranks differ; "
                                    "use .col(), .row() or .reshape())",
                                    shapeString(result), shapeString(shape), what));
        return std::nullopt;
      }
      for (size_t d = 0; d < shape.size(); ++d) {
        if (shape[d] == result[d] || shape[d] == 1)
          continue;
        if (result[d] == 1) {
          result[d] = shape[d];
          continue;
        }
        kb.error(where, fmt::format("cannot broadcast shapes {} and {} in '{}'",
                                    shapeString(result), shapeString(shape), what));
        return std::nullopt;
      }
    }
    return result;
  }

  /// Both operands as values of one element type and one shape.
  std::optional<std::pair<Value, Value>> unify(const Operand &a, const Operand &c,
                                               std::string_view what) {
    Type like = a.tile.valid() ? elementOf(a.tile.value())
                       : (c.tile.valid() ? elementOf(c.tile.value()) : Type());
    Value lhs = value(a, c.tile.valid() ? elementOf(c.tile.value()) : like);
    Value rhs = value(c, like);
    if (elementOf(lhs) != elementOf(rhs)) {
      kb.error(where, fmt::format("element types differ in '{}': {} and {} (convert one with .to())",
                                  what, typeString(elementOf(lhs)), typeString(elementOf(rhs))));
      return std::nullopt;
    }
    std::optional<Shape> shape = commonShape({lhs, rhs}, what);
    if (!shape)
      return std::nullopt;
    return std::make_pair(broadcast(lhs, *shape), broadcast(rhs, *shape));
  }

  KernelBuilder &kb;
  KernelBuilder::Impl &impl;
  Where where;
  Location loc;
};

} // namespace

//===----------------------------------------------------------------------===//
// Tile
//===----------------------------------------------------------------------===//

bool Tile::isScalar() const { return !isa<RankedTensorType>(val.getType()); }

bool Tile::isPointer() const { return isa<tile::PointerType>(elementOf(val)); }

DType Tile::dtype() const {
  Type element = elementOf(val);
  if (auto ptr = dyn_cast<tile::PointerType>(element))
    element = ptr.getPointeeType();
  return dtypeOf(element).value_or(DType::F32);
}

Shape Tile::shape() const { return shapeOf(val); }

Tile Tile::to(DType type, Where where) const {
  Lowerer l(*kb, where);
  if (isPointer())
    return l.fail("cannot convert pointers with .to()", *this);
  Type target = kb->impl().type(type);
  if (elementOf(val) == target)
    return *this;
  return l.wrap(tile::CastOp::create(l.b(), l.loc, val, target));
}

Tile Tile::t(Where where) const {
  Lowerer l(*kb, where);
  if (rank() != 2)
    return l.fail(fmt::format(".t() transposes 2-D tiles; this one is {}", shapeString(shape())),
                  *this);
  return l.wrap(tile::TransOp::create(l.b(), l.loc, val, ArrayRef<int64_t>{1, 0}));
}

Tile Tile::col(Where where) const {
  Lowerer l(*kb, where);
  if (rank() != 1)
    return l.fail(fmt::format(".col() applies to 1-D tiles; this one is {}", shapeString(shape())),
                  *this);
  return l.wrap(tile::ExpandDimsOp::create(l.b(), l.loc, val, 1));
}

Tile Tile::row(Where where) const {
  Lowerer l(*kb, where);
  if (rank() != 1)
    return l.fail(fmt::format(".row() applies to 1-D tiles; this one is {}", shapeString(shape())),
                  *this);
  return l.wrap(tile::ExpandDimsOp::create(l.b(), l.loc, val, 0));
}

Tile Tile::reshape(Shape newShape, Where where) const {
  Lowerer l(*kb, where);
  int64_t from = 1, to = 1;
  for (int64_t d : shape()) from *= d;
  for (int64_t d : newShape) to *= d;
  if (isScalar() || from != to || newShape.empty())
    return l.fail(fmt::format("cannot reshape {} to {}", shapeString(shape()),
                              shapeString(newShape)),
                  *this);
  if (newShape == shape())
    return *this;
  return l.wrap(tile::ReshapeOp::create(l.b(), l.loc, val, newShape));
}

Tile Tile::broadcastTo(Shape newShape, Where where) const {
  Lowerer l(*kb, where);
  std::optional<Shape> common = l.commonShape({val}, "broadcastTo");
  Shape current = shape();
  bool ok = current.empty() || current.size() == newShape.size();
  for (size_t d = 0; ok && !current.empty() && d < current.size(); ++d)
    ok = current[d] == newShape[d] || current[d] == 1;
  if (!common || !ok)
    return l.fail(fmt::format("cannot broadcast {} to {}", shapeString(current),
                              shapeString(newShape)),
                  *this);
  return l.wrap(l.broadcast(val, newShape));
}

//===----------------------------------------------------------------------===//
// Operators and math
//===----------------------------------------------------------------------===//

namespace {

enum class BinaryKind { Add, Sub, Mul, Div, Rem, Max, Min, And, Or };

Tile pointerOffset(Lowerer &l, const Operand &ptr, const Operand &offset) {
  Value offsetValue = l.value(offset, l.b().getI32Type());
  if (!isa<IntegerType>(elementOf(offsetValue)))
    return l.fail("pointer offsets must be integers, got " + typeString(elementOf(offsetValue)),
                  ptr.tile);
  std::optional<Shape> shape = l.commonShape({ptr.tile.value(), offsetValue}, "+");
  if (!shape)
    return ptr.tile;
  Value base = l.broadcast(ptr.tile.value(), *shape);
  offsetValue = l.broadcast(offsetValue, *shape);
  return l.wrap(tile::AddPtrOp::create(l.b(), l.loc, base.getType(), base, offsetValue));
}

const char *spelling(BinaryKind kind) {
  switch (kind) {
  case BinaryKind::Add: return "+";
  case BinaryKind::Sub: return "-";
  case BinaryKind::Mul: return "*";
  case BinaryKind::Div: return "/";
  case BinaryKind::Rem: return "%";
  case BinaryKind::Max: return "max";
  case BinaryKind::Min: return "min";
  case BinaryKind::And: return "&&";
  case BinaryKind::Or: return "||";
  }
  return "?";
}

Tile binary(BinaryKind kind, const Operand &a, const Operand &c) {
  KernelBuilder *kb = builderOf({&a, &c});
  Lowerer l(*kb, a.tile.valid() ? a.where : c.where);
  Tile fallback = a.tile.valid() ? a.tile : c.tile;
  if (kind == BinaryKind::Add && a.tile.valid() && a.tile.isPointer())
    return pointerOffset(l, a, c);
  if (kind == BinaryKind::Add && c.tile.valid() && c.tile.isPointer())
    return pointerOffset(l, c, a);
  if ((a.tile.valid() && a.tile.isPointer()) || (c.tile.valid() && c.tile.isPointer()))
    return l.fail(fmt::format("'{}' does not apply to pointers (only pointer + integer)",
                              spelling(kind)),
                  fallback);
  // A float tile divided by a number is multiplied by its reciprocal (within
  // an ulp of the quotient): a division is a dozen instructions and a branch
  // per element (div.rn.f32 with its slow path), soft-capping's s / cap.
  if (kind == BinaryKind::Div && a.tile.valid() && !c.tile.valid() && c.number != 0 &&
      std::isfinite(1.0 / c.number) && isa<FloatType>(elementOf(a.tile.value())))
    return binary(BinaryKind::Mul, a, Operand(1.0 / c.number, c.where));
  auto values = l.unify(a, c, spelling(kind));
  if (!values)
    return fallback;
  auto [lhs, rhs] = *values;
  OpBuilder &b = l.b();
  Location loc = l.loc;
  bool isFloatOp = isa<FloatType>(elementOf(lhs));
  bool isBool = elementOf(lhs).isInteger(1);
  if ((kind == BinaryKind::And || kind == BinaryKind::Or) != isBool)
    return l.fail(isBool ? fmt::format("'{}' does not apply to i1 (use && and ||)", spelling(kind))
                         : fmt::format("'{}' needs i1 operands (comparisons), got {}",
                                       spelling(kind), typeString(elementOf(lhs))),
                  fallback);
  // The float op or the signed-integer op of the same arithmetic.
  auto pick = [&](auto floatOp, auto intOp) -> Value {
    using FloatOp = decltype(floatOp);
    using IntOp = decltype(intOp);
    return isFloatOp ? Value(FloatOp::create(b, loc, lhs, rhs))
                     : Value(IntOp::create(b, loc, lhs, rhs));
  };
  // +, -, * of floats, contracted into fmas where a ContractFloats lives.
  auto pickContractible = [&](auto floatOp, auto intOp) -> Value {
    using FloatOp = decltype(floatOp);
    if (!isFloatOp || !kb->contractsFloats())
      return pick(floatOp, intOp);
    return FloatOp::create(
        b, loc, lhs, rhs,
        arith::FastMathFlagsAttr::get(b.getContext(), arith::FastMathFlags::contract));
  };
  Value result;
  switch (kind) {
  case BinaryKind::Add:
    result = pickContractible(arith::AddFOp(), arith::AddIOp());
    break;
  case BinaryKind::Sub:
    result = pickContractible(arith::SubFOp(), arith::SubIOp());
    break;
  case BinaryKind::Mul:
    result = pickContractible(arith::MulFOp(), arith::MulIOp());
    break;
  case BinaryKind::Div: result = pick(arith::DivFOp(), arith::DivSIOp()); break;
  case BinaryKind::Rem: result = pick(arith::RemFOp(), arith::RemSIOp()); break;
  case BinaryKind::Max: result = pick(arith::MaximumFOp(), arith::MaxSIOp()); break;
  case BinaryKind::Min: result = pick(arith::MinimumFOp(), arith::MinSIOp()); break;
  case BinaryKind::And: result = arith::AndIOp::create(b, loc, lhs, rhs); break;
  case BinaryKind::Or: result = arith::OrIOp::create(b, loc, lhs, rhs); break;
  }
  return l.wrap(result);
}

Tile compare(arith::CmpFPredicate fpred, arith::CmpIPredicate ipred, const char *what,
             const Operand &a, const Operand &c) {
  KernelBuilder *kb = builderOf({&a, &c});
  Lowerer l(*kb, a.tile.valid() ? a.where : c.where);
  Tile fallback = a.tile.valid() ? a.tile : c.tile;
  auto values = l.unify(a, c, what);
  if (!values)
    return fallback;
  auto [lhs, rhs] = *values;
  if (isa<FloatType>(elementOf(lhs)))
    return l.wrap(arith::CmpFOp::create(l.b(), l.loc, fpred, lhs, rhs));
  if (isa<IntegerType>(elementOf(lhs)))
    return l.wrap(arith::CmpIOp::create(l.b(), l.loc, ipred, lhs, rhs));
  return l.fail(fmt::format("'{}' compares numbers, not {}", what, typeString(elementOf(lhs))),
                fallback);
}

template <typename MathOp>
Tile unaryFloat(const Operand &x, const char *name) {
  if (!x.tile.valid())
    return Tile();
  Lowerer l(*x.tile.builder(), x.where);
  if (!isa<FloatType>(elementOf(x.tile.value())) || x.tile.isPointer())
    return l.fail(fmt::format("{}() needs a float operand, got {}", name,
                              typeString(elementOf(x.tile.value()))),
                  x.tile);
  return l.wrap(MathOp::create(l.b(), l.loc, x.tile.value()));
}

} // namespace

Tile operator+(Operand a, Operand b) { return binary(BinaryKind::Add, a, b); }
Tile operator-(Operand a, Operand b) { return binary(BinaryKind::Sub, a, b); }
Tile operator*(Operand a, Operand b) { return binary(BinaryKind::Mul, a, b); }
Tile operator/(Operand a, Operand b) { return binary(BinaryKind::Div, a, b); }
Tile operator%(Operand a, Operand b) { return binary(BinaryKind::Rem, a, b); }
Tile operator&&(Operand a, Operand b) { return binary(BinaryKind::And, a, b); }
Tile operator||(Operand a, Operand b) { return binary(BinaryKind::Or, a, b); }
Tile max(Operand a, Operand b) { return binary(BinaryKind::Max, a, b); }
Tile min(Operand a, Operand b) { return binary(BinaryKind::Min, a, b); }

Tile operator-(Operand a) {
  if (!a.tile.valid())
    return Tile();
  Lowerer l(*a.tile.builder(), a.where);
  if (isa<FloatType>(elementOf(a.tile.value())))
    return l.wrap(arith::NegFOp::create(l.b(), l.loc, a.tile.value()));
  return binary(BinaryKind::Sub, Operand(0, a.where), a);
}

Tile operator!(Operand a) {
  if (!a.tile.valid())
    return Tile();
  Lowerer l(*a.tile.builder(), a.where);
  if (!elementOf(a.tile.value()).isInteger(1))
    return l.fail("'!' needs an i1 operand (a comparison)", a.tile);
  Value ones = l.broadcast(l.constant(1, l.b().getI1Type()), a.tile.shape());
  return l.wrap(arith::XOrIOp::create(l.b(), l.loc, a.tile.value(), ones));
}

Tile operator<(Operand a, Operand b) {
  return compare(arith::CmpFPredicate::OLT, arith::CmpIPredicate::slt, "<", a, b);
}
Tile operator<=(Operand a, Operand b) {
  return compare(arith::CmpFPredicate::OLE, arith::CmpIPredicate::sle, "<=", a, b);
}
Tile operator>(Operand a, Operand b) {
  return compare(arith::CmpFPredicate::OGT, arith::CmpIPredicate::sgt, ">", a, b);
}
Tile operator>=(Operand a, Operand b) {
  return compare(arith::CmpFPredicate::OGE, arith::CmpIPredicate::sge, ">=", a, b);
}
Tile operator==(Operand a, Operand b) {
  return compare(arith::CmpFPredicate::OEQ, arith::CmpIPredicate::eq, "==", a, b);
}
Tile operator!=(Operand a, Operand b) {
  return compare(arith::CmpFPredicate::UNE, arith::CmpIPredicate::ne, "!=", a, b);
}
Tile inRange(Operand i, Operand n) {
  KernelBuilder *kb = builderOf({&i, &n});
  if (!kb)
    return Tile();
  Tile fallback = i.tile.valid() ? i.tile : n.tile;
  auto isInteger = [](const Operand &x) {
    return x.tile.valid() ? isa<IntegerType>(elementOf(x.tile.value())) : x.isInteger;
  };
  if (!isInteger(i) || !isInteger(n)) {
    Lowerer l(*kb, i.tile.valid() ? i.where : n.where);
    return l.fail("inRange() compares integers", fallback);
  }
  return compare(arith::CmpFPredicate::OLT, arith::CmpIPredicate::ult, "inRange", i, n);
}

Tile where(Operand cond, Operand a, Operand b) {
  KernelBuilder *kb = builderOf({&cond, &a, &b});
  Lowerer l(*kb, cond.where);
  if (!cond.tile.valid() || !elementOf(cond.tile.value()).isInteger(1))
    return l.fail("where() needs an i1 condition (a comparison)", a.tile.valid() ? a.tile : b.tile);
  auto values = l.unify(a, b, "where");
  if (!values)
    return a.tile.valid() ? a.tile : b.tile;
  auto [lhs, rhs] = *values;
  std::optional<Shape> shape = l.commonShape({cond.tile.value(), lhs}, "where");
  if (!shape)
    return l.wrap(lhs);
  return l.wrap(arith::SelectOp::create(l.b(), l.loc, l.broadcast(cond.tile.value(), *shape),
                                        l.broadcast(lhs, *shape), l.broadcast(rhs, *shape)));
}

Tile exp2(Operand x) { return unaryFloat<math::Exp2Op>(x, "exp2"); }
Tile exp(Operand x) { return unaryFloat<math::ExpOp>(x, "exp"); }
Tile log2(Operand x) { return unaryFloat<math::Log2Op>(x, "log2"); }
Tile tanh(Operand x) { return unaryFloat<math::TanhOp>(x, "tanh"); }
Tile sqrt(Operand x) { return unaryFloat<math::SqrtOp>(x, "sqrt"); }
Tile abs(Operand x) { return unaryFloat<math::AbsFOp>(x, "abs"); }

//===----------------------------------------------------------------------===//
// derivative
//===----------------------------------------------------------------------===//

namespace {

/// Forward-mode differentiation of the elementwise IR from `x` to `y`: each
/// op on the way gets the tangent of its result from its operands' tangents
/// (a missing tangent is zero).
class Differentiator {
public:
  Differentiator(Lowerer &l) : l(l), b(l.b()), loc(l.loc) {}

  /// The tangent of `y` with respect to `x`, or null after reporting an op
  /// that is not elementwise.
  Value run(Value y, Value x) {
    tangents[x] = l.broadcast(l.constant(1, elementOf(x)), shapeOf(x));
    for (Operation *op : pathOps(y, x))
      if (failed(visit(op)))
        return {};
    if (Value t = tangents.lookup(y))
      return t;
    return zeros(y.getType());
  }

private:
  /// The ops `y` depends on that come after `x`, in program order.
  std::vector<Operation *> pathOps(Value y, Value x) {
    std::vector<Operation *> ops;
    llvm::DenseSet<Operation *> seen;
    std::vector<Value> work{y};
    Operation *xDef = x.getDefiningOp();
    Block *block = y.getDefiningOp() ? y.getDefiningOp()->getBlock() : nullptr;
    while (!work.empty()) {
      Value v = work.back();
      work.pop_back();
      Operation *op = v.getDefiningOp();
      if (v == x || !op || op->getBlock() != block || !seen.insert(op).second)
        continue;
      // Values made before x cannot depend on it.
      if (xDef && xDef->getBlock() == block && op->isBeforeInBlock(xDef))
        continue;
      ops.push_back(op);
      for (Value operand : op->getOperands())
        work.push_back(operand);
    }
    std::sort(ops.begin(), ops.end(),
              [](Operation *a, Operation *c) { return a->isBeforeInBlock(c); });
    return ops;
  }

  Value zeros(Type type) {
    auto shaped = dyn_cast<RankedTensorType>(type);
    return l.broadcast(l.constant(0, getElementTypeOrSelf(type)),
                       shaped ? Shape(shaped.getShape()) : Shape());
  }
  Value orZero(Value tangent, Value like) { return tangent ? tangent : zeros(like.getType()); }
  Value constantLike(double number, Value like) {
    return l.broadcast(l.constant(number, elementOf(like)), shapeOf(like));
  }
  Value add(Value a, Value c) { return arith::AddFOp::create(b, loc, a, c); }
  Value sub(Value a, Value c) { return arith::SubFOp::create(b, loc, a, c); }
  Value mul(Value a, Value c) { return arith::MulFOp::create(b, loc, a, c); }
  Value div(Value a, Value c) { return arith::DivFOp::create(b, loc, a, c); }
  Value neg(Value a) { return arith::NegFOp::create(b, loc, a); }
  Value select(Value cond, Value a, Value c) { return arith::SelectOp::create(b, loc, cond, a, c); }
  Value cmp(arith::CmpFPredicate pred, Value a, Value c) {
    return arith::CmpFOp::create(b, loc, pred, a, c);
  }

  LogicalResult visit(Operation *op) {
    auto tangentOf = [&](unsigned i) { return tangents.lookup(op->getOperand(i)); };
    bool any = llvm::any_of(op->getOperands(), [&](Value v) { return tangents.count(v); });
    if (!any)
      return success();
    Value result = op->getNumResults() == 1 ? op->getResult(0) : Value();
    if (result && !isa<FloatType>(elementOf(result)))
      return success(); // comparisons and integer casts: zero almost everywhere
    Value t;
    Value a = op->getNumOperands() > 0 ? op->getOperand(0) : Value();
    Value c = op->getNumOperands() > 1 ? op->getOperand(1) : Value();
    Value ta = a ? tangentOf(0) : Value(), tc = c ? tangentOf(1) : Value();
    if (isa<arith::AddFOp>(op)) {
      t = ta && tc ? add(ta, tc) : (ta ? ta : tc);
    } else if (isa<arith::SubFOp>(op)) {
      t = ta && tc ? sub(ta, tc) : (ta ? ta : neg(tc));
    } else if (isa<arith::MulFOp>(op)) {
      Value left = ta ? mul(ta, c) : Value(), right = tc ? mul(a, tc) : Value();
      t = left && right ? add(left, right) : (left ? left : right);
    } else if (isa<arith::DivFOp>(op)) { // (ta - y·tc) / c
      Value top = tc ? sub(orZero(ta, a), mul(result, tc)) : ta;
      t = div(top, c);
    } else if (isa<arith::NegFOp>(op)) {
      t = neg(ta);
    } else if (isa<arith::MaximumFOp, arith::MinimumFOp>(op)) {
      auto pred = isa<arith::MaximumFOp>(op) ? arith::CmpFPredicate::OGE : arith::CmpFPredicate::OLE;
      t = select(cmp(pred, a, c), orZero(ta, a), orZero(tc, c));
    } else if (isa<arith::SelectOp>(op)) {
      Value tt = tangents.lookup(op->getOperand(1)), tf = tangents.lookup(op->getOperand(2));
      t = select(a, orZero(tt, result), orZero(tf, result));
    } else if (isa<math::ExpOp>(op)) {
      t = mul(result, ta);
    } else if (isa<math::Exp2Op>(op)) {
      t = mul(mul(result, constantLike(M_LN2, result)), ta);
    } else if (isa<math::LogOp>(op)) {
      t = div(ta, a);
    } else if (isa<math::Log2Op>(op)) {
      t = div(ta, mul(a, constantLike(M_LN2, a)));
    } else if (isa<math::TanhOp>(op)) {
      t = mul(sub(constantLike(1, result), mul(result, result)), ta);
    } else if (isa<math::SqrtOp>(op)) {
      t = div(ta, mul(constantLike(2, result), result));
    } else if (isa<math::AbsFOp>(op)) {
      t = select(cmp(arith::CmpFPredicate::OLT, a, zeros(a.getType())), neg(ta), ta);
    } else if (isa<tile::CastOp, tile::BroadcastOp, tile::SplatOp, tile::ExpandDimsOp,
                   tile::ReshapeOp, tile::TransOp>(op)) {
      // Shape ops and float casts act on the tangent as on the value.
      IRMapping map;
      map.map(a, ta);
      t = b.clone(*op, map)->getResult(0);
    } else {
      // At the user's op (in a score modifier, say), noting who asked.
      ++l.impl.errors;
      InFlightDiagnostic diag = emitError(op->getLoc());
      diag << fmt::format("cannot differentiate '{}': derivative() covers elementwise ops only",
                          op->getName().getStringRef().str());
      diag.attachNote(l.loc) << "derivative() taken here";
      return failure();
    }
    tangents[result] = t;
    return success();
  }

  Lowerer &l;
  OpBuilder &b;
  Location loc;
  llvm::DenseMap<Value, Value> tangents;
};

} // namespace

Tile derivative(const Tile &y, const Tile &x, Where where) {
  if (!y.valid() || !x.valid())
    return Tile();
  Lowerer l(*y.builder(), where);
  if (!isa<FloatType>(elementOf(y.value())) || !isa<FloatType>(elementOf(x.value())) ||
      y.isPointer() || x.isPointer())
    return l.fail("derivative() needs float tiles, got " + typeString(elementOf(y.value())) +
                      " and " + typeString(elementOf(x.value())),
                  y);
  Differentiator diff(l);
  Value t = diff.run(y.value(), x.value());
  return t ? l.wrap(t) : y;
}

//===----------------------------------------------------------------------===//
// dot, reductions, online softmax
//===----------------------------------------------------------------------===//

Tile dot(Operand a, Operand b, Operand acc) {
  KernelBuilder *kb = builderOf({&a, &b, &acc});
  Lowerer l(*kb, a.where);
  if (!a.tile.valid() || !b.tile.valid() || a.tile.rank() != 2 || b.tile.rank() != 2)
    return l.fail(fmt::format("dot() multiplies 2-D tiles, got {} and {}",
                              a.tile.valid() ? shapeString(a.tile.shape()) : "a number",
                              b.tile.valid() ? shapeString(b.tile.shape()) : "a number"),
                  acc.tile.valid() ? acc.tile : (a.tile.valid() ? a.tile : b.tile));
  Shape resultShape{a.tile.shape()[0], b.tile.shape()[1]};
  Value accValue = acc.tile.valid() ? acc.tile.value()
                            : l.broadcast(l.constant(acc.number, l.b().getF32Type()),
                                          resultShape);
  if (shapeOf(accValue).size() != 2)
    return l.fail("dot() accumulates into a 2-D tile, got " + shapeString(shapeOf(accValue)),
                  a.tile);
  // Shapes and element types are the verifier's to check: a mistake is
  // reported at this line when the kernel is finished.
  return l.wrap(tile::DotOp::create(l.b(), l.loc, accValue.getType(), a.tile.value(),
                                    b.tile.value(), accValue));
}

Tile reduce(Reduction kind, Operand x, int axis, Where where) {
  if (!x.tile.valid())
    return Tile();
  Lowerer l(*x.tile.builder(), where);
  if (x.tile.isScalar() || axis < 0 || axis >= x.tile.rank())
    return l.fail(fmt::format("cannot reduce {} along axis {}", shapeString(x.tile.shape()), axis),
                  x.tile);
  if (x.tile.isPointer())
    return l.fail("cannot reduce pointers", x.tile);
  tile::ReduceKind mlirKind = kind == Reduction::Sum   ? tile::ReduceKind::sum
                              : kind == Reduction::Max ? tile::ReduceKind::max
                                                       : tile::ReduceKind::min;
  return l.wrap(tile::ReduceOp::create(l.b(), l.loc, mlirKind, x.tile.value(), axis));
}

static Tile rowReduce(Reduction kind, const Operand &x) {
  int axis = x.tile.valid() && x.tile.rank() == 1 ? 0 : 1;
  return reduce(kind, x, axis, x.where);
}

Tile rowMax(Operand x) { return rowReduce(Reduction::Max, x); }
Tile rowSum(Operand x) { return rowReduce(Reduction::Sum, x); }
Tile rowMin(Operand x) { return rowReduce(Reduction::Min, x); }

namespace {

/// One step of the streaming softmax over `scores` (one tile, or the parts
/// of one block side by side), errors reported at `where`.
SoftmaxParts softmaxStep(const std::vector<Tile> &scores, const Tile &runningMax, double scale,
                         double rescaleThreshold, const Where &where) {
  SoftmaxParts fallback{runningMax, scores, runningMax};
  KernelBuilder *kb = runningMax.valid() ? runningMax.builder() : nullptr;
  for (const Tile &s : scores)
    kb = kb ? kb : (s.valid() ? s.builder() : nullptr);
  if (!kb)
    return fallback;
  Lowerer l(*kb, where);
  if (scores.empty()) {
    l.fail("onlineSoftmax() takes at least one score tile", Tile());
    return fallback;
  }
  SmallVector<Value> values;
  for (const Tile &s : scores) {
    if (!s.valid() || s.rank() != 2 || !runningMax.valid() || runningMax.rank() != 1 ||
        s.shape()[0] != runningMax.shape()[0]) {
      l.fail("onlineSoftmax() takes 2-D score tiles and a 1-D running max, one per score row",
             Tile());
      return fallback;
    }
    if (s.dtype() != DType::F32 || runningMax.dtype() != DType::F32) {
      l.fail("onlineSoftmax() works on f32 scores and max; convert with .to(DType::F32)", Tile());
      return fallback;
    }
    values.push_back(s.value());
  }
  if (!(scale > 0) || !std::isfinite(scale)) {
    l.fail(fmt::format("onlineSoftmax() needs a positive finite scale, got {}", scale), Tile());
    return fallback;
  }
  if (!(rescaleThreshold >= 0) || !std::isfinite(rescaleThreshold)) {
    l.fail(fmt::format("onlineSoftmax() needs a finite rescale threshold of at least 0, got {}",
                       rescaleThreshold),
           Tile());
    return fallback;
  }
  auto op = tile::OnlineSoftmaxOp::create(l.b(), l.loc, values, runningMax.value(),
                                          static_cast<float>(scale));
  if (rescaleThreshold > 0)
    op.setRescaleThresholdAttr(l.b().getF32FloatAttr(static_cast<float>(rescaleThreshold)));
  SoftmaxParts step{l.wrap(op.getMNew()), {}, l.wrap(op.getAlpha())};
  for (Value p : op.getP())
    step.p.push_back(l.wrap(p));
  return step;
}

} // namespace

SoftmaxParts onlineSoftmax(const std::vector<Tile> &scores, Operand runningMax, double scale,
                           double rescaleThreshold) {
  return softmaxStep(scores, runningMax.tile, scale, rescaleThreshold, runningMax.where);
}

SoftmaxStep onlineSoftmax(Operand scores, Operand runningMax, double scale) {
  SoftmaxParts step = softmaxStep({scores.tile}, runningMax.tile, scale, 0, scores.where);
  return {step.mNew, step.p.front(), step.alpha};
}

Tile scaleRows(Operand x, Operand factor) {
  if (!x.tile.valid() || !factor.tile.valid())
    return Tile();
  Lowerer l(*x.tile.builder(), x.where);
  if (x.tile.rank() != 2 || factor.tile.rank() != 1 || x.tile.shape()[0] != factor.tile.shape()[0])
    return l.fail("scaleRows() takes a 2-D tile and one factor per row (a 1-D tile of its rows), "
                  "got " + typeString(x.tile.value().getType()) + " and " +
                      typeString(factor.tile.value().getType()),
                  Tile());
  if (x.tile.dtype() != DType::F32 || factor.tile.dtype() != DType::F32)
    return l.fail("scaleRows() works on f32 tiles; convert with .to(DType::F32)", Tile());
  return l.wrap(tile::ScaleRowsOp::create(l.b(), l.loc, x.tile.value().getType(), x.tile.value(),
                                          factor.tile.value()));
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

Tile load(Operand pointers, std::optional<Operand> mask, std::optional<Operand> other) {
  if (!pointers.tile.valid())
    return Tile();
  Lowerer l(*pointers.tile.builder(), pointers.where);
  if (!pointers.tile.isPointer())
    return l.fail("load() reads through a pointer or a tile of pointers (ptr + iota offsets), "
                  "got " + typeString(pointers.tile.value().getType()),
                  pointers.tile);
  if (pointers.tile.isScalar()) {
    // One value for the whole program.
    Value maskValue, otherValue;
    Type pointee = tile::getPointeeScalarType(pointers.tile.value().getType());
    if (mask) {
      if (!mask->tile.valid() || !mask->tile.isScalar() ||
          !elementOf(mask->tile.value()).isInteger(1))
        return l.fail("load() of one value takes a scalar i1 mask", pointers.tile);
      maskValue = mask->tile.value();
    }
    if (other) {
      if (!mask)
        return l.fail("load() takes a fill value only together with a mask", pointers.tile);
      otherValue = l.value(*other, pointee);
      if (otherValue.getType() != pointee)
        return l.fail("load() fill value must be a scalar " + typeString(pointee), pointers.tile);
    }
    return l.wrap(tile::LoadScalarOp::create(l.b(), l.loc, pointee, pointers.tile.value(),
                                             maskValue, otherValue));
  }
  Shape shape = pointers.tile.shape();
  Value maskValue, otherValue;
  if (mask) {
    if (!mask->tile.valid() || !elementOf(mask->tile.value()).isInteger(1))
      return l.fail("load() needs an i1 mask", pointers.tile);
    if (!l.commonShape({pointers.tile.value(), mask->tile.value()}, "load mask"))
      return pointers.tile;
    maskValue = l.broadcast(mask->tile.value(), shape);
  }
  if (other) {
    if (!mask)
      return l.fail("load() takes a fill value only together with a mask", pointers.tile);
    Type pointee = tile::getPointeeScalarType(pointers.tile.value().getType());
    otherValue = l.value(*other, pointee);
    if (otherValue.getType() != pointee)
      return l.fail("load() fill value must be a scalar " + typeString(pointee), pointers.tile);
  }
  return l.wrap(tile::LoadOp::create(l.b(), l.loc,
                                     tile::getPointeeTensorType(pointers.tile.value().getType()),
                                     pointers.tile.value(), maskValue, otherValue));
}

void store(Operand pointers, Operand value, std::optional<Operand> mask) {
  if (!pointers.tile.valid())
    return;
  Lowerer l(*pointers.tile.builder(), pointers.where);
  if (!pointers.tile.isPointer() || pointers.tile.isScalar()) {
    l.fail("store() writes through a tile of pointers (ptr + iota offsets)", Tile());
    return;
  }
  Shape shape = pointers.tile.shape();
  Type pointee = tile::getPointeeScalarType(pointers.tile.value().getType());
  Value data = l.value(value, pointee);
  if (elementOf(data) != pointee) {
    l.fail(fmt::format("store() of {} through pointers to {} (convert with .to())",
                       typeString(elementOf(data)), typeString(pointee)),
           Tile());
    return;
  }
  if (!l.commonShape({pointers.tile.value(), data}, "store"))
    return;
  data = l.broadcast(data, shape);
  Value maskValue;
  if (mask) {
    if (!mask->tile.valid() || !elementOf(mask->tile.value()).isInteger(1)) {
      l.fail("store() needs an i1 mask", Tile());
      return;
    }
    if (!l.commonShape({pointers.tile.value(), mask->tile.value()}, "store mask"))
      return;
    maskValue = l.broadcast(mask->tile.value(), shape);
  }
  tile::StoreOp::create(l.b(), l.loc, pointers.tile.value(), data, maskValue);
}

/// The block shape without its leading unit dimensions: what a block load
/// returns, so a [1, 128, 64] block of a [heads, seq, dim] tensor is 128x64.
static Shape squeezeLeading(const Shape &block) {
  size_t first = 0;
  while (first + 1 < block.size() && block[first] == 1)
    ++first;
  return Shape(block.begin() + first, block.end());
}

static std::optional<SmallVector<Value>> blockOffsets(Lowerer &l, const Shape &block,
                                                      const std::vector<Operand> &offsets) {
  if (offsets.size() != block.size()) {
    l.kb.error(l.where, fmt::format("expected {} block offsets (one per dimension), got {}",
                                    block.size(), offsets.size()));
    return std::nullopt;
  }
  SmallVector<Value> values;
  for (const Operand &offset : offsets) {
    Value v = l.value(offset, l.b().getI32Type());
    if (v.getType() != l.b().getI32Type()) {
      l.kb.error(l.where, "block offsets must be i32 scalars, got " + typeString(v.getType()));
      return std::nullopt;
    }
    values.push_back(v);
  }
  return values;
}

Tile TensorDesc::load(std::vector<Operand> offsets, Padding padding, Where where) const {
  Lowerer l(*kb, where);
  auto offsetValues = blockOffsets(l, block, offsets);
  auto blockType = cast<tile::TensorDescType>(desc.getType()).getBlockType();
  if (!offsetValues)
    return l.wrap(l.broadcast(l.constant(0, blockType.getElementType()), squeezeLeading(block)));
  auto op = tile::LoadBlockOp::create(l.b(), l.loc, desc, *offsetValues);
  if (padding == Padding::NaN)
    op.setPadding(tile::PaddingOption::nan);
  Tile loaded = l.wrap(op);
  Shape squeezed = squeezeLeading(block);
  return squeezed == block ? loaded : loaded.reshape(squeezed, where);
}

std::optional<std::pair<std::vector<Value>, Tile>>
TensorDesc::blockToWrite(const char *what, std::vector<Operand> &offsets, Operand &value,
                         Where where) const {
  Lowerer l(*kb, where);
  auto offsetValues = blockOffsets(l, block, offsets);
  if (!offsetValues)
    return std::nullopt;
  if (!value.tile.valid()) {
    l.fail(fmt::format("{}() of a block needs a tile", what), Tile());
    return std::nullopt;
  }
  auto blockType = cast<tile::TensorDescType>(desc.getType()).getBlockType();
  Tile data = value.tile;
  if (data.shape() == squeezeLeading(block) && data.shape() != block)
    data = data.reshape(block, where);
  if (data.value().getType() != blockType) {
    l.fail(fmt::format("{}() of a {} {} tile through a descriptor of {} {} blocks", what,
                       shapeString(data.shape()), typeString(elementOf(data.value())),
                       shapeString(block), typeString(blockType.getElementType())),
           Tile());
    return std::nullopt;
  }
  std::vector<Value> values(offsetValues->begin(), offsetValues->end());
  return std::make_pair(std::move(values), data);
}

void TensorDesc::store(std::vector<Operand> offsets, Operand value, Where where) const {
  if (auto write = blockToWrite("store", offsets, value, where)) {
    Lowerer l(*kb, where);
    tile::StoreBlockOp::create(l.b(), l.loc, desc, write->first, write->second.value());
  }
}

void TensorDesc::atomicAdd(std::vector<Operand> offsets, Operand value, Where where) const {
  auto blockType = cast<tile::TensorDescType>(desc.getType()).getBlockType();
  if (!blockType.getElementType().isF32()) {
    kb->error(where, fmt::format("atomicAdd() adds into f32 tensors, not {}",
                                 typeString(blockType.getElementType())));
    return;
  }
  if (auto write = blockToWrite("atomicAdd", offsets, value, where)) {
    Lowerer l(*kb, where);
    tile::AtomicAddBlockOp::create(l.b(), l.loc, desc, write->first, write->second.value());
  }
}

TensorArg TensorArg::slice(unsigned dim, Operand start, Operand size, Where where) const {
  if (dim >= dims.size()) {
    kb->error(where, fmt::format("slice() of dimension {} of a rank-{} tensor", dim, dims.size()));
    return *this;
  }
  Lowerer l(*kb, where);
  Tile first = l.wrap(l.value(start, l.b().getI32Type()));
  Tile length = l.wrap(l.value(size, l.b().getI32Type()));
  if (!first.isScalar() || !length.isScalar() || first.dtype() != DType::I32 ||
      length.dtype() != DType::I32) {
    kb->error(where, "slice() takes an i32 scalar start and size");
    return *this;
  }
  TensorArg part = *this;
  part.basePtr = basePtr + first.to(DType::I64, where) * strides[dim];
  part.dims[dim] = length;
  return part;
}

void TensorArg::requireSize(unsigned dim, int64_t size, Where where) const {
  KernelParam &p = kb->impl().signature.at(param);
  if (dim >= dims.size() || size < 0 || size > INT32_MAX) {
    kb->error(where, fmt::format("requireSize({}, {}) of rank-{} tensor parameter '{}'", dim, size,
                                 dims.size(), p.name));
    return;
  }
  p.sizes.resize(dims.size(), -1);
  p.sizes[dim] = size;
}

void TensorArg::requireSizeOf(unsigned dim, const TensorArg &other, unsigned otherDim,
                              Where where) const {
  KernelParam &p = kb->impl().signature.at(param);
  const KernelParam &o = kb->impl().signature.at(other.param);
  if (dim >= dims.size() || otherDim >= other.dims.size() || other.kb != kb) {
    kb->error(where, fmt::format("requireSizeOf({}, '{}', {}) of rank-{} tensor parameter '{}' "
                                 "(the other of rank {})",
                                 dim, o.name, otherDim, dims.size(), p.name, other.dims.size()));
    return;
  }
  p.sizesOf.resize(dims.size());
  p.sizesOf[dim] = {o.name, otherDim};
}

TensorDesc TensorArg::desc(Shape block, Where where) const {
  Lowerer l(*kb, where);
  bool positive = std::all_of(block.begin(), block.end(), [](int64_t d) { return d > 0; });
  if (block.size() != dims.size() || !positive) {
    kb->error(where, fmt::format("a descriptor of this rank-{} tensor needs {} positive block "
                                 "dimensions, got {}",
                                 dims.size(), dims.size(), shapeString(block)));
    block = Shape(dims.size(), 1);
  }
  auto ptrType = cast<tile::PointerType>(basePtr.value().getType());
  auto descType = tile::TensorDescType::get(&kb->impl().ctx, block, ptrType.getPointeeType());
  SmallVector<Value> shapeValues, strideValues;
  for (const Tile &d : dims) shapeValues.push_back(d.value());
  for (const Tile &s : strides) strideValues.push_back(s.value());
  Value made = tile::MakeDescOp::create(l.b(), l.loc, descType, basePtr.value(), shapeValues,
                                        strideValues);
  return TensorDesc(kb, made, block);
}

//===----------------------------------------------------------------------===//
// KernelBuilder
//===----------------------------------------------------------------------===//

KernelBuilder::KernelBuilder(MLIRContext &context, const std::string &name, Where where)
    : state(std::make_unique<Impl>(context)) {
  context.loadDialect<tile::TileDialect, arith::ArithDialect, func::FuncDialect,
                      math::MathDialect, scf::SCFDialect>();
  Impl &s = *state;
  Location loc = s.loc(where);
  s.module = ModuleOp::create(s.b, loc);
  s.b.setInsertionPointToEnd(s.module->getBody());
  s.func = func::FuncOp::create(s.b, loc, name, s.b.getFunctionType({}, {}));
  s.b.setInsertionPointToStart(s.func.addEntryBlock());
}

KernelBuilder::~KernelBuilder() = default;

void KernelBuilder::error(Where where, const std::string &message) {
  ++state->errors;
  if (state->reported.emplace(where.file_name(), where.line(), where.column(), message).second)
    emitError(state->loc(where)) << message;
}

bool KernelBuilder::hasErrors() const { return state->errors > 0; }

const KernelSignature &KernelBuilder::signature() const { return state->signature; }

bool KernelBuilder::contractsFloats() const { return state->contractFloats; }

ContractFloats::ContractFloats(KernelBuilder &kb) : kb(kb), previous(kb.state->contractFloats) {
  kb.state->contractFloats = true;
}

ContractFloats::~ContractFloats() { kb.state->contractFloats = previous; }

TensorArg KernelBuilder::tensor(const std::string &name, DType type, unsigned rank,
                                Where where) {
  return tensor(name, type, rank, InnerStride::Any, where);
}

TensorArg KernelBuilder::tensor(const std::string &name, DType type, unsigned rank,
                                InnerStride inner, Where where) {
  Impl &s = *state;
  TensorArg arg;
  arg.kb = this;
  if (rank == 0) {
    error(where, "tensor parameter '" + name + "' needs rank 1 or more");
    rank = 1;
  }
  KernelParam param{name, KernelParam::Kind::Tensor, type, rank};
  param.unitStride = inner == InnerStride::One;
  arg.param = s.signature.size();
  s.signature.push_back(param);
  arg.basePtr = wrap(s.addArgument(tile::PointerType::get(&s.ctx, s.type(type)), where));
  for (unsigned d = 0; d < rank; ++d)
    arg.dims.push_back(wrap(s.addArgument(s.b.getI32Type(), where)));
  for (unsigned d = 0; d < rank; ++d)
    arg.strides.push_back(wrap(s.addArgument(s.b.getI64Type(), where)));
  // The argument stays (the interface is the same); nothing reads it.
  if (param.unitStride)
    arg.strides.back() = constant(1, DType::I64, where);
  return arg;
}

Tile KernelBuilder::pointer(const std::string &name, DType pointee, Where where) {
  Impl &s = *state;
  s.signature.push_back({name, KernelParam::Kind::Pointer, pointee, 0});
  return wrap(s.addArgument(tile::PointerType::get(&s.ctx, s.type(pointee)), where));
}

Tile KernelBuilder::scalar(const std::string &name, DType type, Where where) {
  Impl &s = *state;
  s.signature.push_back({name, KernelParam::Kind::Scalar, type, 0});
  return wrap(s.addArgument(s.type(type), where));
}

Tile KernelBuilder::programId(unsigned axis, Where where) {
  Lowerer l(*this, where);
  if (axis > 2)
    error(where, fmt::format("grid axis must be 0, 1 or 2, got {}", axis));
  return wrap(tile::ProgramIdOp::create(l.b(), l.loc, axis > 2 ? 0u : axis));
}

void KernelBuilder::longestFirst(unsigned axis, Where where) {
  if (axis > 2) {
    error(where, fmt::format("grid axis must be 0, 1 or 2, got {}", axis));
    return;
  }
  state->func->setAttr(kLongestFirstAxisAttrName, state->b.getI32IntegerAttr(axis));
}

void KernelBuilder::narrowWgmmaOperands() {
  state->func->setAttr(kNarrowWgmmaAttrName, state->b.getUnitAttr());
}

void KernelBuilder::splitStagingBarriers() {
  state->func->setAttr(kSplitStagingAttrName, state->b.getUnitAttr());
}

Tile KernelBuilder::numPrograms(unsigned axis, Where where) {
  Lowerer l(*this, where);
  if (axis > 2)
    error(where, fmt::format("grid axis must be 0, 1 or 2, got {}", axis));
  return wrap(tile::NumProgramsOp::create(l.b(), l.loc, axis > 2 ? 0u : axis));
}

Tile KernelBuilder::constant(double value, DType type, Where where) {
  Lowerer l(*this, where);
  return wrap(l.constant(value, state->type(type)));
}

Tile KernelBuilder::full(Shape shape, double value, DType type, Where where) {
  Lowerer l(*this, where);
  for (int64_t d : shape)
    if (d <= 0) {
      error(where, "full() needs positive dimensions, got " + shapeString(shape));
      shape = {1};
      break;
    }
  Type element = state->type(type);
  auto tensorType = RankedTensorType::get(shape, element);
  Attribute scalar = isa<FloatType>(element) ? Attribute(l.b().getFloatAttr(element, value))
                                             : Attribute(l.b().getIntegerAttr(
                                                   element, static_cast<int64_t>(value)));
  return wrap(arith::ConstantOp::create(l.b(), l.loc, DenseElementsAttr::get(tensorType, scalar)));
}

Tile KernelBuilder::zeros(Shape shape, DType type, Where where) {
  return full(std::move(shape), 0.0, type, where);
}

Tile KernelBuilder::iota(int64_t n, Where where) {
  Lowerer l(*this, where);
  if (n <= 0) {
    error(where, fmt::format("iota() needs a positive length, got {}", n));
    n = 1;
  }
  return wrap(tile::IotaOp::create(l.b(), l.loc,
                                   RankedTensorType::get({n}, l.b().getI32Type())));
}

Tile KernelBuilder::splat(Operand scalar, Shape shape) {
  Lowerer l(*this, scalar.where);
  Value value = l.value(scalar, Type());
  if (!shapeOf(value).empty())
    return l.fail("splat() takes a scalar, got a " + shapeString(shapeOf(value)) + " tile",
                  wrap(value));
  return wrap(l.broadcast(value, shape));
}

static Value loopBound(Lowerer &l, const Operand &bound, const char *what) {
  Value value = l.value(bound, l.b().getI32Type());
  if (value.getType() != l.b().getI32Type()) {
    l.kb.error(l.where, fmt::format("loop {} must be an i32 scalar, got {}", what,
                                    typeString(value.getType())));
    return l.constant(0, l.b().getI32Type());
  }
  return value;
}

/// Checks that `next` has one value of the same type per entry of `expected`;
/// on a mismatch reports it and returns `fallback` instead.
static SmallVector<Value> checkedYield(Lowerer &l, const std::vector<Tile> &next,
                                       TypeRange expected, ValueRange fallback,
                                       const char *what) {
  SmallVector<Value> values;
  if (next.size() != expected.size()) {
    l.kb.error(l.where, fmt::format("{} returned {} values for {} expected", what, next.size(),
                                    expected.size()));
    return SmallVector<Value>(fallback);
  }
  for (size_t i = 0; i < next.size(); ++i) {
    if (!next[i].valid() || next[i].value().getType() != expected[i]) {
      l.kb.error(l.where, fmt::format("{} value {} changes type from {} to {}", what, i,
                                      typeString(expected[i]),
                                      next[i].valid() ? typeString(next[i].value().getType()) : "none"));
      return SmallVector<Value>(fallback);
    }
    values.push_back(next[i].value());
  }
  return values;
}

std::vector<Tile> KernelBuilder::forRange(Operand lo, Operand hi, Operand step,
                                          std::vector<Tile> init, const LoopBody &body,
                                          Where where) {
  Lowerer l(*this, where);
  Value lower = loopBound(l, lo, "lower bound");
  Value upper = loopBound(l, hi, "upper bound");
  Value stride = loopBound(l, step, "step");
  SmallVector<Value> initValues;
  for (const Tile &t : init)
    initValues.push_back(t.value());
  auto loop = scf::ForOp::create(
      l.b(), l.loc, lower, upper, stride, initValues,
      [&](OpBuilder &nested, Location loc, Value iv, ValueRange args) {
        OpBuilder::InsertionGuard guard(l.b());
        l.b().setInsertionPoint(nested.getInsertionBlock(), nested.getInsertionPoint());
        std::vector<Tile> state;
        for (Value arg : args)
          state.push_back(wrap(arg));
        std::vector<Tile> next = body(wrap(iv), state);
        scf::YieldOp::create(l.b(), loc,
                             checkedYield(l, next, TypeRange(args), args, "loop body"));
      });
  std::vector<Tile> results;
  for (Value result : loop.getResults())
    results.push_back(wrap(result));
  return results;
}

std::vector<Tile> KernelBuilder::ifElse(Operand cond, const Branch &thenFn,
                                        const Branch &elseFn, Where where) {
  Lowerer l(*this, where);
  Value condition = l.value(cond, l.b().getI1Type());
  if (condition.getType() != l.b().getI1Type()) {
    error(where, "ifElse() needs a scalar i1 condition, got " + typeString(condition.getType()));
    condition = l.constant(0, l.b().getI1Type());
  }
  SmallVector<Type> thenTypes;
  SmallVector<Value> thenValues;
  auto branch = [&](const Branch &fn, bool isThen) {
    return [&, isThen](OpBuilder &nested, Location loc) {
      OpBuilder::InsertionGuard guard(l.b());
      l.b().setInsertionPoint(nested.getInsertionBlock(), nested.getInsertionPoint());
      std::vector<Tile> values = fn();
      SmallVector<Value> yielded;
      if (isThen) {
        for (const Tile &t : values) {
          thenValues.push_back(t.value());
          thenTypes.push_back(t.value().getType());
        }
        yielded = thenValues;
      } else {
        // The else branch must match the then branch; on a mismatch it
        // yields poison-free zeros of the right types so the IR stays valid.
        yielded = checkedYield(l, values, thenTypes, {}, "else branch");
        if (yielded.size() != thenTypes.size()) {
          yielded.clear();
          for (Type type : thenTypes)
            yielded.push_back(l.broadcast(l.constant(0, getElementTypeOrSelf(type)),
                                          shapeOf(thenValues[yielded.size()])));
        }
      }
      scf::YieldOp::create(l.b(), loc, yielded);
    };
  };
  auto op = scf::IfOp::create(l.b(), l.loc, condition, branch(thenFn, true),
                              branch(elseFn, false));
  std::vector<Tile> results;
  for (Value result : op.getResults())
    results.push_back(wrap(result));
  return results;
}

void KernelBuilder::ifThen(Operand cond, const std::function<void()> &body, Where where) {
  ifElse(
      cond,
      [&] {
        body();
        return std::vector<Tile>{};
      },
      [] { return std::vector<Tile>{}; }, where);
}

Tile KernelBuilder::lastArrival(Operand counter, Operand count, Where where) {
  Lowerer l(*this, where);
  if (!counter.tile.valid())
    return Tile();
  Type i32 = state->type(DType::I32);
  Value countValue = l.value(count, i32);
  if (!counter.tile.isScalar() || !counter.tile.isPointer() ||
      tile::getPointeeScalarType(counter.tile.value().getType()) != i32)
    return l.fail("lastArrival() counts on one i32 counter (a pointer: tensor.base() + index), "
                  "got " +
                      typeString(counter.tile.value().getType()),
                  counter.tile);
  if (!countValue || countValue.getType() != i32)
    return l.fail("lastArrival() takes the number of arrivals as a scalar i32", counter.tile);
  return wrap(tile::LastArrivalOp::create(l.b(), l.loc, l.b().getI1Type(), counter.tile.value(),
                                          countValue));
}

OwningOpRef<ModuleOp> KernelBuilder::finish() {
  Impl &s = *state;
  if (s.finished)
    return nullptr;
  s.finished = true;
  Block &entry = s.func.getBody().front();
  s.b.setInsertionPointToEnd(&entry);
  func::ReturnOp::create(s.b, s.func.getLoc());
  s.func.setFunctionType(s.b.getFunctionType(entry.getArgumentTypes(), {}));
  if (s.errors > 0 || failed(verify(*s.module)))
    return nullptr;
  return std::move(s.module);
}

} // namespace tilec::dsl
