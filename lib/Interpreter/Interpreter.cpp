//===- Interpreter.cpp - the reference semantics of tile kernels ----------===//

#include "tilec/Interpreter/Interpreter.h"

#include "tilec/Dialect/Tile/Tile.h"
#include "tilec/Passes.h"
#include "tilec/Support/Numeric.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

using namespace mlir;
namespace tile = tilec::tile;

namespace tilec {

namespace {

std::optional<DType> dtypeOf(Type type) {
  if (type.isInteger(1)) return DType::I1;
  if (type.isInteger(32)) return DType::I32;
  if (type.isInteger(64) || type.isIndex()) return DType::I64;
  if (type.isF16()) return DType::F16;
  if (type.isBF16()) return DType::BF16;
  if (type.isF32()) return DType::F32;
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Runtime values
//===----------------------------------------------------------------------===//

struct Pointer {
  int buffer = -1;
  int64_t index = 0;
};

/// A scalar (empty shape) or a tile, of numbers or of pointers, or a tensor
/// descriptor.
struct RtValue {
  std::vector<int64_t> shape;
  std::vector<double> num;
  std::vector<Pointer> ptr;
  // Descriptors: base pointer, shape, strides.
  std::vector<int64_t> descShape, descStrides;

  int64_t size() const {
    return std::accumulate(shape.begin(), shape.end(), int64_t{1}, std::multiplies<>());
  }
  double scalar() const { return num.empty() ? 0 : num[0]; }
};

std::vector<int64_t> shapeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return std::vector<int64_t>(tensor.getShape().begin(), tensor.getShape().end());
  return {};
}

/// Multi-index <-> linear index in row-major order.
void unflatten(int64_t linear, const std::vector<int64_t> &shape, std::vector<int64_t> &index) {
  index.assign(shape.size(), 0);
  for (size_t d = shape.size(); d-- > 0;) {
    index[d] = linear % shape[d];
    linear /= shape[d];
  }
}

int64_t flatten(const std::vector<int64_t> &index, const std::vector<int64_t> &shape) {
  int64_t linear = 0;
  for (size_t d = 0; d < shape.size(); ++d)
    linear = linear * shape[d] + index[d];
  return linear;
}

class Machine {
public:
  Machine(std::vector<HostBuffer> &memory, std::array<int64_t, 3> grid)
      : memory(memory), grid(grid) {}

  std::array<int64_t, 3> programId{};

  LogicalResult runRegion(Region &region, ArrayRef<RtValue> blockArgs,
                          std::vector<RtValue> &yielded);

  void bind(Value value, RtValue rt) { values[value] = std::move(rt); }

private:
  LogicalResult run(Operation *op);
  const RtValue &get(Value value) { return values.find(value)->second; }
  void set(Value value, RtValue rt) { values[value] = std::move(rt); }

  /// A fresh value of `type`'s shape.
  RtValue make(Type type) {
    RtValue rt;
    rt.shape = shapeOf(type);
    if (isa<tile::PointerType>(getElementTypeOrSelf(type)))
      rt.ptr.resize(rt.size());
    else
      rt.num.resize(rt.size());
    return rt;
  }

  DType dtype(Type type) { return dtypeOf(getElementTypeOrSelf(type)).value_or(DType::F32); }

  template <typename Fn> LogicalResult elementwise(Operation *op, Fn fn) {
    RtValue out = make(op->getResult(0).getType());
    DType type = dtype(op->getResult(0).getType());
    std::vector<const RtValue *> in;
    for (Value operand : op->getOperands())
      in.push_back(&get(operand));
    for (int64_t i = 0; i < out.size(); ++i) {
      double a = in[0]->num[i];
      double b = in.size() > 1 ? in[1]->num[i] : 0;
      double c = in.size() > 2 ? in[2]->num[i] : 0;
      out.num[i] = roundTo(type, fn(a, b, c));
    }
    set(op->getResult(0), std::move(out));
    return success();
  }

  LogicalResult checkAccess(Operation *op, const Pointer &p, const char *what) {
    if (p.buffer < 0 || p.buffer >= static_cast<int>(memory.size()))
      return op->emitError(fmt::format("{} through an invalid pointer", what));
    const HostBuffer &buffer = memory[p.buffer];
    if (p.index < 0 || p.index >= static_cast<int64_t>(buffer.data.size()))
      return op->emitError(fmt::format(
          "{} out of bounds: element {} of buffer '{}' ({} elements), program ({}, {}, {})",
          what, p.index, buffer.name, buffer.data.size(), programId[0], programId[1],
          programId[2]));
    return success();
  }

  /// Loads the block into `loaded`, or stores `stored` into it (adds it
  /// with `accumulate`: programs run one after another, so atomically).
  LogicalResult blockAccess(Operation *op, Value descValue, ValueRange offsets, RtValue *loaded,
                            const RtValue *stored, bool accumulate = false);
  LogicalResult dot(tile::DotOp op);
  LogicalResult reduce(tile::ReduceOp op);
  LogicalResult onlineSoftmax(tile::OnlineSoftmaxOp op);
  LogicalResult scaleRows(tile::ScaleRowsOp op);
  LogicalResult cast(Operation *op);
  LogicalResult constant(arith::ConstantOp op);
  LogicalResult forLoop(scf::ForOp op);
  LogicalResult ifOp(scf::IfOp op);

  std::vector<HostBuffer> &memory;
  std::array<int64_t, 3> grid;
  llvm::DenseMap<Value, RtValue> values;
};

//===----------------------------------------------------------------------===//
// Op semantics
//===----------------------------------------------------------------------===//

bool compareF(arith::CmpFPredicate pred, double a, double b) {
  bool unordered = std::isnan(a) || std::isnan(b);
  using P = arith::CmpFPredicate;
  switch (pred) {
  case P::OEQ: return !unordered && a == b;
  case P::ONE: return !unordered && a != b;
  case P::OLT: return !unordered && a < b;
  case P::OLE: return !unordered && a <= b;
  case P::OGT: return !unordered && a > b;
  case P::OGE: return !unordered && a >= b;
  case P::UEQ: return unordered || a == b;
  case P::UNE: return unordered || a != b;
  case P::ULT: return unordered || a < b;
  case P::ULE: return unordered || a <= b;
  case P::UGT: return unordered || a > b;
  case P::UGE: return unordered || a >= b;
  case P::ORD: return !unordered;
  case P::UNO: return unordered;
  case P::AlwaysTrue: return true;
  case P::AlwaysFalse: return false;
  }
  return false;
}

bool compareI(arith::CmpIPredicate pred, double a, double b) {
  using P = arith::CmpIPredicate;
  auto ua = static_cast<uint64_t>(static_cast<int64_t>(a));
  auto ub = static_cast<uint64_t>(static_cast<int64_t>(b));
  switch (pred) {
  case P::eq: return a == b;
  case P::ne: return a != b;
  case P::slt: return a < b;
  case P::sle: return a <= b;
  case P::sgt: return a > b;
  case P::sge: return a >= b;
  case P::ult: return ua < ub;
  case P::ule: return ua <= ub;
  case P::ugt: return ua > ub;
  case P::uge: return ua >= ub;
  }
  return false;
}

double maximum(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<double>::quiet_NaN();
  return std::max(a, b);
}

double minimum(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<double>::quiet_NaN();
  return std::min(a, b);
}

LogicalResult Machine::constant(arith::ConstantOp op) {
  RtValue out = make(op.getType());
  Attribute value = op.getValue();
  auto toDouble = [](Attribute attr) -> double {
    if (auto f = dyn_cast<FloatAttr>(attr))
      return f.getValueAsDouble();
    if (auto i = dyn_cast<IntegerAttr>(attr))
      return i.getType().isInteger(1) ? (i.getValue().isZero() ? 0 : 1)
                                      : static_cast<double>(i.getValue().getSExtValue());
    return 0;
  };
  if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
    if (dense.isSplat()) {
      double v = toDouble(dense.getSplatValue<Attribute>());
      std::fill(out.num.begin(), out.num.end(), v);
    } else {
      int64_t i = 0;
      for (Attribute element : dense.getValues<Attribute>())
        out.num[i++] = toDouble(element);
    }
  } else if (isa<FloatAttr, IntegerAttr>(value)) {
    out.num.assign(1, toDouble(value));
  } else {
    return op.emitError("the interpreter does not support this constant");
  }
  set(op.getResult(), std::move(out));
  return success();
}

LogicalResult Machine::cast(Operation *op) {
  Type from = getElementTypeOrSelf(op->getOperand(0).getType());
  bool toInt = isa<IntegerType>(getElementTypeOrSelf(op->getResult(0).getType()));
  bool signExtendBool = isa<arith::ExtSIOp>(op) && from.isInteger(1);
  // Float to integer truncates toward zero; everything else is the value
  // itself, rounded (or wrapped) to the result type by `elementwise`.
  return elementwise(op, [&](double a, double, double) -> double {
    if (signExtendBool)
      return a != 0 ? -1.0 : 0.0;
    if (toInt && isa<FloatType>(from))
      return std::isnan(a) ? 0.0 : std::trunc(a);
    return a;
  });
}

LogicalResult Machine::blockAccess(Operation *op, Value descValue, ValueRange offsets,
                                   RtValue *loaded, const RtValue *stored, bool accumulate) {
  const RtValue &desc = get(descValue);
  auto descType = cast<tile::TensorDescType>(descValue.getType());
  std::vector<int64_t> block(descType.getBlockShape().begin(), descType.getBlockShape().end());
  std::vector<int64_t> origin;
  for (Value offset : offsets)
    origin.push_back(static_cast<int64_t>(get(offset).scalar()));
  Pointer base = desc.ptr[0];
  int64_t count = std::accumulate(block.begin(), block.end(), int64_t{1}, std::multiplies<>());
  std::vector<int64_t> index;
  for (int64_t i = 0; i < count; ++i) {
    unflatten(i, block, index);
    bool inside = true;
    int64_t element = base.index;
    for (size_t d = 0; d < block.size(); ++d) {
      int64_t coord = origin[d] + index[d];
      inside = inside && coord >= 0 && coord < desc.descShape[d];
      element += coord * desc.descStrides[d];
    }
    if (!inside)
      continue; // padding already in `loaded`; stores are dropped
    Pointer p{base.buffer, element};
    if (failed(checkAccess(op, p, loaded ? "block load" : "block store")))
      return failure();
    HostBuffer &buffer = memory[p.buffer];
    if (loaded)
      loaded->num[i] = buffer.data[element];
    else if (accumulate) // f32 additions, as the GPU's
      buffer.data[element] = roundTo(buffer.dtype, static_cast<float>(buffer.data[element]) +
                                                       static_cast<float>(stored->num[i]));
    else
      buffer.data[element] = roundTo(buffer.dtype, stored->num[i]);
  }
  return success();
}

LogicalResult Machine::dot(tile::DotOp op) {
  const RtValue &a = get(op.getA()), &b = get(op.getB()), &c = get(op.getC());
  int64_t m = a.shape[0], k = a.shape[1], n = b.shape[1];
  RtValue out = c;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      float acc = static_cast<float>(c.num[i * n + j]);
      for (int64_t kk = 0; kk < k; ++kk)
        acc = std::fma(static_cast<float>(a.num[i * k + kk]),
                       static_cast<float>(b.num[kk * n + j]), acc);
      out.num[i * n + j] = acc;
    }
  set(op.getResult(), std::move(out));
  return success();
}

LogicalResult Machine::reduce(tile::ReduceOp op) {
  const RtValue &src = get(op.getSrc());
  int64_t axis = op.getAxis();
  RtValue out = make(op.getResult().getType());
  DType type = dtype(op.getResult().getType());
  int64_t outer = 1, inner = 1, len = src.shape[axis];
  for (int64_t d = 0; d < axis; ++d) outer *= src.shape[d];
  for (size_t d = axis + 1; d < src.shape.size(); ++d) inner *= src.shape[d];
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      double acc = src.num[(o * len) * inner + i];
      for (int64_t r = 1; r < len; ++r) {
        double v = src.num[(o * len + r) * inner + i];
        switch (op.getKind()) {
        case tile::ReduceKind::sum: acc = roundTo(type, acc + v); break;
        case tile::ReduceKind::max: acc = maximum(acc, v); break;
        case tile::ReduceKind::min: acc = minimum(acc, v); break;
        }
      }
      out.num[o * inner + i] = roundTo(type, acc);
    }
  set(op.getResult(), std::move(out));
  return success();
}

LogicalResult Machine::onlineSoftmax(tile::OnlineSoftmaxOp op) {
  // The scores may come in parts side by side: the maximum is over all of
  // them, each part gets its own probabilities.
  std::vector<const RtValue *> parts;
  for (Value scores : op.getScores())
    parts.push_back(&get(scores));
  const RtValue &m = get(op.getM());
  int64_t rows = parts.front()->shape[0];
  float t = static_cast<float>(op.getLog2Scale());
  RtValue mNew = m, alpha = m;
  std::vector<RtValue> ps;
  for (const RtValue *s : parts)
    ps.push_back(*s);
  // With a rescale threshold τ the old maximum stays unless the block's
  // exceeds it by more than τ.
  std::optional<float> tau;
  if (std::optional<APFloat> threshold = op.getRescaleThreshold())
    tau = threshold->convertToFloat();
  for (int64_t i = 0; i < rows; ++i) {
    const float old = static_cast<float>(m.num[i]);
    float blockMax = -std::numeric_limits<float>::infinity();
    for (const RtValue *s : parts)
      for (int64_t j = 0, cols = s->shape[1]; j < cols; ++j)
        blockMax = std::max(blockMax, static_cast<float>(s->num[i * cols + j]) * t);
    float rowMax = std::max(old, blockMax);
    if (tau && !(blockMax > old + *tau))
      rowMax = old;
    bool empty = std::isinf(rowMax) && rowMax < 0;
    mNew.num[i] = rowMax;
    alpha.num[i] = empty ? 1.0f : std::exp2(static_cast<float>(m.num[i]) - rowMax);
    for (size_t part = 0; part < parts.size(); ++part)
      for (int64_t j = 0, cols = parts[part]->shape[1]; j < cols; ++j)
        ps[part].num[i * cols + j] =
            empty ? 0.0f
                  : std::exp2(static_cast<float>(parts[part]->num[i * cols + j]) * t - rowMax);
  }
  set(op.getMNew(), std::move(mNew));
  for (auto [result, p] : llvm::zip(op.getP(), ps))
    set(result, std::move(p));
  set(op.getAlpha(), std::move(alpha));
  return success();
}

LogicalResult Machine::scaleRows(tile::ScaleRowsOp op) {
  RtValue result = get(op.getX());
  const RtValue &factor = get(op.getFactor());
  const int64_t rows = result.shape[0], cols = result.shape[1];
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      result.num[i * cols + j] = static_cast<float>(result.num[i * cols + j]) *
                                 static_cast<float>(factor.num[i]);
  set(op.getResult(), std::move(result));
  return success();
}

LogicalResult Machine::forLoop(scf::ForOp op) {
  int64_t lo = static_cast<int64_t>(get(op.getLowerBound()).scalar());
  int64_t hi = static_cast<int64_t>(get(op.getUpperBound()).scalar());
  int64_t step = static_cast<int64_t>(get(op.getStep()).scalar());
  if (step <= 0)
    return op.emitError(fmt::format("loop step must be positive, got {}", step));
  std::vector<RtValue> state;
  for (Value init : op.getInitArgs())
    state.push_back(get(init));
  for (int64_t i = lo; i < hi; i += step) {
    std::vector<RtValue> args;
    RtValue iv;
    iv.num = {static_cast<double>(i)};
    args.push_back(std::move(iv));
    for (RtValue &s : state)
      args.push_back(std::move(s));
    std::vector<RtValue> next;
    if (failed(runRegion(op.getRegion(), args, next)))
      return failure();
    state = std::move(next);
  }
  for (auto [result, value] : llvm::zip(op.getResults(), state))
    set(result, std::move(value));
  return success();
}

LogicalResult Machine::ifOp(scf::IfOp op) {
  bool cond = get(op.getCondition()).scalar() != 0;
  Region &region = cond ? op.getThenRegion() : op.getElseRegion();
  std::vector<RtValue> results;
  if (!region.empty() && failed(runRegion(region, {}, results)))
    return failure();
  for (auto [result, value] : llvm::zip(op.getResults(), results))
    set(result, std::move(value));
  return success();
}

LogicalResult Machine::runRegion(Region &region, ArrayRef<RtValue> blockArgs,
                                 std::vector<RtValue> &yielded) {
  Block &block = region.front();
  for (auto [arg, value] : llvm::zip(block.getArguments(), blockArgs))
    set(arg, value);
  for (Operation &op : block) {
    if (isa<scf::YieldOp, func::ReturnOp>(op)) {
      for (Value operand : op.getOperands())
        yielded.push_back(get(operand));
      return success();
    }
    if (failed(run(&op)))
      return failure();
  }
  return success();
}

LogicalResult Machine::run(Operation *op) {
  using FArgs = double;
  auto f = [&](auto fn) { return elementwise(op, fn); };
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      // Constants and control flow.
      .Case([&](arith::ConstantOp c) { return constant(c); })
      .Case([&](scf::ForOp loop) { return forLoop(loop); })
      .Case([&](scf::IfOp branch) { return ifOp(branch); })
      // Float arithmetic.
      .Case([&](arith::AddFOp) { return f([](FArgs a, FArgs b, FArgs) { return a + b; }); })
      .Case([&](arith::SubFOp) { return f([](FArgs a, FArgs b, FArgs) { return a - b; }); })
      .Case([&](arith::MulFOp) { return f([](FArgs a, FArgs b, FArgs) { return a * b; }); })
      .Case([&](arith::DivFOp) { return f([](FArgs a, FArgs b, FArgs) { return a / b; }); })
      .Case([&](arith::RemFOp) { return f([](FArgs a, FArgs b, FArgs) { return std::fmod(a, b); }); })
      .Case([&](arith::NegFOp) { return f([](FArgs a, FArgs, FArgs) { return -a; }); })
      .Case([&](arith::MaximumFOp) { return f([](FArgs a, FArgs b, FArgs) { return maximum(a, b); }); })
      .Case([&](arith::MinimumFOp) { return f([](FArgs a, FArgs b, FArgs) { return minimum(a, b); }); })
      .Case([&](arith::MaxNumFOp) { return f([](FArgs a, FArgs b, FArgs) { return std::fmax(a, b); }); })
      .Case([&](arith::MinNumFOp) { return f([](FArgs a, FArgs b, FArgs) { return std::fmin(a, b); }); })
      // Integer arithmetic (wrapping to the width is done by roundTo).
      .Case([&](arith::AddIOp) { return f([](FArgs a, FArgs b, FArgs) { return a + b; }); })
      .Case([&](arith::SubIOp) { return f([](FArgs a, FArgs b, FArgs) { return a - b; }); })
      .Case([&](arith::MulIOp) { return f([](FArgs a, FArgs b, FArgs) { return a * b; }); })
      .Case([&](arith::DivSIOp div) -> LogicalResult {
        for (double d : get(div.getRhs()).num)
          if (d == 0)
            return div.emitError("integer division by zero");
        return f([](FArgs a, FArgs b, FArgs) { return std::trunc(a / b); });
      })
      .Case([&](arith::RemSIOp rem) -> LogicalResult {
        for (double d : get(rem.getRhs()).num)
          if (d == 0)
            return rem.emitError("integer remainder by zero");
        return f([](FArgs a, FArgs b, FArgs) {
          return static_cast<double>(static_cast<int64_t>(a) % static_cast<int64_t>(b));
        });
      })
      .Case([&](arith::MaxSIOp) { return f([](FArgs a, FArgs b, FArgs) { return std::max(a, b); }); })
      .Case([&](arith::MinSIOp) { return f([](FArgs a, FArgs b, FArgs) { return std::min(a, b); }); })
      .Case([&](arith::AndIOp) {
        return f([](FArgs a, FArgs b, FArgs) {
          return static_cast<double>(static_cast<int64_t>(a) & static_cast<int64_t>(b));
        });
      })
      .Case([&](arith::OrIOp) {
        return f([](FArgs a, FArgs b, FArgs) {
          return static_cast<double>(static_cast<int64_t>(a) | static_cast<int64_t>(b));
        });
      })
      .Case([&](arith::XOrIOp) {
        return f([](FArgs a, FArgs b, FArgs) {
          return static_cast<double>(static_cast<int64_t>(a) ^ static_cast<int64_t>(b));
        });
      })
      .Case([&](arith::CmpFOp cmp) {
        auto pred = cmp.getPredicate();
        return f([pred](FArgs a, FArgs b, FArgs) { return compareF(pred, a, b) ? 1.0 : 0.0; });
      })
      .Case([&](arith::CmpIOp cmp) {
        auto pred = cmp.getPredicate();
        return f([pred](FArgs a, FArgs b, FArgs) { return compareI(pred, a, b) ? 1.0 : 0.0; });
      })
      .Case([&](arith::SelectOp sel) -> LogicalResult {
        const RtValue &c = get(sel.getCondition());
        const RtValue &a = get(sel.getTrueValue()), &b = get(sel.getFalseValue());
        RtValue out = a;
        bool scalarCond = c.shape.empty();
        for (int64_t i = 0; i < out.size(); ++i) {
          bool take = c.num[scalarCond ? 0 : i] != 0;
          if (!out.num.empty()) out.num[i] = take ? a.num[i] : b.num[i];
          if (!out.ptr.empty()) out.ptr[i] = take ? a.ptr[i] : b.ptr[i];
        }
        set(sel.getResult(), std::move(out));
        return success();
      })
      // Conversions.
      .Case<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp, arith::SIToFPOp, arith::FPToSIOp,
            arith::ExtFOp, arith::TruncFOp, arith::IndexCastOp, tile::CastOp>(
          [&](Operation *conv) { return cast(conv); })
      // Math, computed in double and rounded to the result type.
      .Case([&](math::Exp2Op) { return f([](FArgs a, FArgs, FArgs) { return std::exp2(a); }); })
      .Case([&](math::ExpOp) { return f([](FArgs a, FArgs, FArgs) { return std::exp(a); }); })
      .Case([&](math::Log2Op) { return f([](FArgs a, FArgs, FArgs) { return std::log2(a); }); })
      .Case([&](math::LogOp) { return f([](FArgs a, FArgs, FArgs) { return std::log(a); }); })
      .Case([&](math::TanhOp) { return f([](FArgs a, FArgs, FArgs) { return std::tanh(a); }); })
      .Case([&](math::SqrtOp) { return f([](FArgs a, FArgs, FArgs) { return std::sqrt(a); }); })
      .Case([&](math::RsqrtOp) { return f([](FArgs a, FArgs, FArgs) { return 1 / std::sqrt(a); }); })
      .Case([&](math::AbsFOp) { return f([](FArgs a, FArgs, FArgs) { return std::fabs(a); }); })
      // The tile dialect.
      .Case([&](tile::ProgramIdOp pid) {
        RtValue out;
        out.num = {static_cast<double>(programId[pid.getAxis()])};
        set(pid.getResult(), std::move(out));
        return success();
      })
      .Case([&](tile::NumProgramsOp num) {
        RtValue out;
        out.num = {static_cast<double>(grid[num.getAxis()])};
        set(num.getResult(), std::move(out));
        return success();
      })
      .Case([&](tile::MakeDescOp make) {
        RtValue out;
        out.ptr = {get(make.getBase()).ptr[0]};
        for (Value d : make.getShape())
          out.descShape.push_back(static_cast<int64_t>(get(d).scalar()));
        for (Value s : make.getStrides())
          out.descStrides.push_back(static_cast<int64_t>(get(s).scalar()));
        set(make.getResult(), std::move(out));
        return success();
      })
      .Case([&](tile::LoadBlockOp load) -> LogicalResult {
        RtValue out = make(load.getType());
        double pad = load.getPadding() == tile::PaddingOption::nan
                         ? std::numeric_limits<double>::quiet_NaN()
                         : 0.0;
        std::fill(out.num.begin(), out.num.end(), pad);
        if (failed(blockAccess(load, load.getDesc(), load.getOffsets(), &out, nullptr)))
          return failure();
        set(load.getResult(), std::move(out));
        return success();
      })
      .Case([&](tile::StoreBlockOp store) {
        return blockAccess(store, store.getDesc(), store.getOffsets(), nullptr,
                           &get(store.getValue()));
      })
      .Case([&](tile::AtomicAddBlockOp add) {
        return blockAccess(add, add.getDesc(), add.getOffsets(), nullptr, &get(add.getValue()),
                           /*accumulate=*/true);
      })
      .Case([&](tile::AddPtrOp add) {
        RtValue out = get(add.getPtr());
        const RtValue &offset = get(add.getOffset());
        for (size_t i = 0; i < out.ptr.size(); ++i)
          out.ptr[i].index += static_cast<int64_t>(offset.num[offset.shape.empty() ? 0 : i]);
        set(add.getResult(), std::move(out));
        return success();
      })
      .Case([&](tile::LoadOp load) -> LogicalResult {
        const RtValue &ptrs = get(load.getPtr());
        const RtValue *mask = load.getMask() ? &get(load.getMask()) : nullptr;
        double other = load.getOther() ? get(load.getOther()).scalar() : 0.0;
        RtValue out = make(load.getType());
        for (int64_t i = 0; i < out.size(); ++i) {
          if (mask && mask->num[i] == 0) {
            out.num[i] = other;
            continue;
          }
          if (failed(checkAccess(load, ptrs.ptr[i], "load")))
            return failure();
          out.num[i] = memory[ptrs.ptr[i].buffer].data[ptrs.ptr[i].index];
        }
        set(load.getResult(), std::move(out));
        return success();
      })
      .Case([&](tile::LoadScalarOp load) -> LogicalResult {
        const RtValue &ptr = get(load.getPtr());
        RtValue out = make(load.getType());
        if (load.getMask() && get(load.getMask()).scalar() == 0) {
          out.num[0] = load.getOther() ? get(load.getOther()).scalar() : 0.0;
        } else {
          if (failed(checkAccess(load, ptr.ptr[0], "load")))
            return failure();
          out.num[0] = memory[ptr.ptr[0].buffer].data[ptr.ptr[0].index];
        }
        set(load.getResult(), std::move(out));
        return success();
      })
      .Case([&](tile::LastArrivalOp arrival) -> LogicalResult {
        // Programs run one after another here: every earlier program's
        // writes are already in memory.
        const RtValue &ptr = get(arrival.getCounter());
        if (failed(checkAccess(arrival, ptr.ptr[0], "count an arrival at")))
          return failure();
        const int64_t count = static_cast<int64_t>(get(arrival.getCount()).scalar());
        if (count < 1)
          return arrival.emitOpError("expected at least one arrival to count, got ") << count;
        double &counter = memory[ptr.ptr[0].buffer].data[ptr.ptr[0].index];
        const int64_t arrived = static_cast<int64_t>(counter);
        if (arrived < 0 || arrived >= count)
          return arrival.emitOpError("expected the counter in [0, ")
                 << count << ") before an arrival, found " << arrived
                 << " (it must be zero before a launch's first arrival)";
        const bool last = arrived + 1 == count;
        counter = last ? 0 : arrived + 1;
        RtValue out = make(arrival.getType());
        out.num[0] = last ? 1 : 0;
        set(arrival.getResult(), std::move(out));
        return success();
      })
      .Case([&](tile::StoreOp store) -> LogicalResult {
        const RtValue &ptrs = get(store.getPtr()), &value = get(store.getValue());
        const RtValue *mask = store.getMask() ? &get(store.getMask()) : nullptr;
        for (int64_t i = 0; i < value.size(); ++i) {
          if (mask && mask->num[i] == 0)
            continue;
          if (failed(checkAccess(store, ptrs.ptr[i], "store")))
            return failure();
          HostBuffer &buffer = memory[ptrs.ptr[i].buffer];
          buffer.data[ptrs.ptr[i].index] = roundTo(buffer.dtype, value.num[i]);
        }
        return success();
      })
      .Case([&](tile::IotaOp iota) {
        RtValue out = make(iota.getType());
        std::iota(out.num.begin(), out.num.end(), 0.0);
        set(iota.getResult(), std::move(out));
        return success();
      })
      .Case([&](tile::SplatOp splat) {
        RtValue out = make(splat.getType());
        const RtValue &src = get(splat.getSrc());
        if (!src.ptr.empty())
          std::fill(out.ptr.begin(), out.ptr.end(), src.ptr[0]);
        else
          std::fill(out.num.begin(), out.num.end(), src.scalar());
        set(splat.getResult(), std::move(out));
        return success();
      })
      .Case([&](tile::BroadcastOp bcast) {
        const RtValue &src = get(bcast.getSrc());
        RtValue out = make(bcast.getType());
        std::vector<int64_t> index;
        for (int64_t i = 0; i < out.size(); ++i) {
          unflatten(i, out.shape, index);
          for (size_t d = 0; d < index.size(); ++d)
            if (src.shape[d] == 1)
              index[d] = 0;
          int64_t from = flatten(index, src.shape);
          if (!out.num.empty()) out.num[i] = src.num[from];
          if (!out.ptr.empty()) out.ptr[i] = src.ptr[from];
        }
        set(bcast.getResult(), std::move(out));
        return success();
      })
      .Case<tile::ExpandDimsOp, tile::ReshapeOp>([&](Operation *reshape) {
        RtValue out = get(reshape->getOperand(0));
        out.shape = shapeOf(reshape->getResult(0).getType());
        set(reshape->getResult(0), std::move(out));
        return success();
      })
      .Case([&](tile::TransOp trans) {
        const RtValue &src = get(trans.getSrc());
        RtValue out = make(trans.getType());
        ArrayRef<int64_t> order = trans.getOrder();
        std::vector<int64_t> index, srcIndex(order.size());
        for (int64_t i = 0; i < out.size(); ++i) {
          unflatten(i, out.shape, index);
          for (size_t d = 0; d < order.size(); ++d)
            srcIndex[order[d]] = index[d];
          out.num[i] = src.num[flatten(srcIndex, src.shape)];
        }
        set(trans.getResult(), std::move(out));
        return success();
      })
      .Case([&](tile::DotOp d) { return dot(d); })
      .Case([&](tile::ReduceOp r) { return reduce(r); })
      .Case([&](tile::OnlineSoftmaxOp s) { return onlineSoftmax(s); })
      .Case([&](tile::ScaleRowsOp s) { return scaleRows(s); })
      .Default([](Operation *other) {
        return other->emitError("the CPU interpreter does not support this operation");
      });
}

} // namespace

bool interpret(ModuleOp module, const std::string &kernelName, const KernelSignature &signature,
               const std::vector<ArgBinding> &args, std::array<int64_t, 3> grid,
               std::vector<HostBuffer> &memory) {
  auto func = module.lookupSymbol<func::FuncOp>(kernelName);
  if (!func) {
    emitError(module.getLoc()) << "no kernel named '" << kernelName << "' in the module";
    return false;
  }
  if (args.size() != signature.size()) {
    func.emitError(fmt::format("kernel takes {} parameters, the launch binds {}",
                               signature.size(), args.size()));
    return false;
  }
  for (int64_t g : grid)
    if (g <= 0) {
      func.emitError(fmt::format("grid ({}, {}, {}) must be positive", grid[0], grid[1], grid[2]));
      return false;
    }

  // Expand the parameters into the function's arguments.
  std::vector<RtValue> argValues;
  auto scalar = [](double v) {
    RtValue rt;
    rt.num = {v};
    return rt;
  };
  for (size_t i = 0; i < signature.size(); ++i) {
    const KernelParam &param = signature[i];
    auto bad = [&](const char *expected) {
      func.emitError(fmt::format("parameter '{}' needs a {} binding", param.name, expected));
      return false;
    };
    auto checkBuffer = [&](int buffer) {
      if (buffer < 0 || buffer >= static_cast<int>(memory.size()) ||
          memory[buffer].dtype != param.dtype) {
        func.emitError(fmt::format("parameter '{}' needs a {} buffer", param.name,
                                   toString(param.dtype)));
        return false;
      }
      return true;
    };
    switch (param.kind) {
    case KernelParam::Kind::Tensor: {
      const auto *t = std::get_if<TensorBinding>(&args[i]);
      if (!t)
        return bad("tensor");
      if (t->shape.size() != param.rank || t->strides.size() != param.rank)
        return bad(fmt::format("rank-{} tensor", param.rank).c_str());
      if (!checkBuffer(t->buffer))
        return false;
      RtValue ptr;
      ptr.ptr = {Pointer{t->buffer, t->offset}};
      argValues.push_back(ptr);
      for (int64_t d : t->shape) argValues.push_back(scalar(static_cast<double>(d)));
      for (int64_t s : t->strides) argValues.push_back(scalar(static_cast<double>(s)));
      break;
    }
    case KernelParam::Kind::Pointer: {
      const auto *p = std::get_if<PointerBinding>(&args[i]);
      if (!p)
        return bad("pointer");
      if (!checkBuffer(p->buffer))
        return false;
      RtValue ptr;
      ptr.ptr = {Pointer{p->buffer, p->offset}};
      argValues.push_back(ptr);
      break;
    }
    case KernelParam::Kind::Scalar: {
      const auto *v = std::get_if<double>(&args[i]);
      if (!v)
        return bad("scalar");
      argValues.push_back(scalar(roundTo(param.dtype, *v)));
      break;
    }
    }
  }
  // A persistent kernel (tile-persistent-grid) takes `grid` as its logical
  // grid and runs on a few programs that loop over it, as the runtime
  // launches it (fewer than the logical programs, so the loop steps).
  std::array<int64_t, 3> launched = grid;
  if (func->hasAttr(kPersistentAttrName)) {
    for (int64_t g : grid)
      argValues.push_back(scalar(static_cast<double>(g)));
    launched = {std::min<int64_t>(grid[0] * grid[1] * grid[2], kInterpretedPersistentPrograms), 1, 1};
  }
  if (argValues.size() != func.getNumArguments()) {
    func.emitError(fmt::format("signature expands to {} arguments, the function has {}",
                               argValues.size(), func.getNumArguments()));
    return false;
  }

  Machine machine(memory, launched);
  for (int64_t z = 0; z < launched[2]; ++z)
    for (int64_t y = 0; y < launched[1]; ++y)
      for (int64_t x = 0; x < launched[0]; ++x) {
        machine.programId = {x, y, z};
        std::vector<RtValue> results;
        if (failed(machine.runRegion(func.getBody(), argValues, results)))
          return false;
      }
  return true;
}

} // namespace tilec
