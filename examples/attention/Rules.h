//===- Rules.h - score modifiers and masks written once ---------*- C++ -*-===//
//
// A variant's rules written once, as generic C++ (lambdas with `auto`
// parameters) over the score and where it is. The kernels instantiate a
// rule on dsl::Tile, the double-precision reference on RefNum (a number with
// the same operators, `.to()`, `.row()`, `.col()` and math functions), so
// the tile IR and the reference come from one definition:
//
//   withScoreMod([cap](auto s, const auto &at) { return tanh(s / cap) * cap; })
//   withMask([](const auto &at) { return at.col <= at.row + (at.seqK - at.seqQ); },
//            causalKeys)
//
// A score modifier sees `at.row`, `at.col` (query and key positions) and
// `at.head` (the query head, an index into batch·heads); a mask sees
// `at.row`, `at.col`, `at.seqQ` and `at.seqK`. On tiles, at.row is a
// [rows, 1] column and at.col a [1, keys] row, so they broadcast to the
// score tile without `.row()` / `.col()` (which cannot be swapped by
// mistake). Use the operators and unqualified math (abs, exp, exp2, log,
// log2, tanh, sqrt, min, max, where): argument-dependent lookup picks the
// Tile or the RefNum one.
//
// RefNum keeps what the kernel's arithmetic would: integers stay integers
// (`/` and `%` truncate, as on i32 tiles), `.to(DType::F32)` and the
// narrower types round as the kernel does; the math itself is computed in
// double precision, as the reference's softmax is.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_EXAMPLES_ATTENTION_RULES_H
#define TILEC_EXAMPLES_ATTENTION_RULES_H

#include "FlashAttention.h"

#include "tilec/Support/Numeric.h"

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>

namespace tilec::attention {

/// A number of the reference: double precision, and whether it is an
/// integer (or a truth value) as the kernel's tile of it would be.
struct RefNum {
  double v = 0;
  bool integral = false;

  RefNum() = default;
  RefNum(double v) : v(v) {}
  RefNum(float v) : v(v) {}
  RefNum(int v) : v(v), integral(true) {}
  RefNum(int64_t v) : v(static_cast<double>(v)), integral(true) {}
  static RefNum truth(bool b) { return RefNum(int64_t{b}); }

  RefNum to(DType type) const {
    if (type == DType::I32 || type == DType::I64 || type == DType::I1)
      return RefNum(static_cast<int64_t>(std::trunc(v)));
    RefNum r(roundTo(type, v));
    return r;
  }
  // Shapes are a tile's business: a number broadcasts as it is.
  RefNum row() const { return *this; }
  RefNum col() const { return *this; }
  explicit operator bool() const { return v != 0; }
};

namespace detail {
template <class T>
constexpr bool refOperand = std::is_same_v<T, RefNum> || std::is_arithmetic_v<T>;
inline RefNum both(double v, const RefNum &a, const RefNum &b) {
  RefNum r(v);
  r.integral = a.integral && b.integral;
  return r;
}
} // namespace detail

// Arithmetic and comparisons with a RefNum on either side.
#define TILEC_REF_BINARY(op, expr)                                                                \
  template <class A, class B,                                                                     \
            class = std::enable_if_t<(std::is_same_v<A, RefNum> || std::is_same_v<B, RefNum>) &&  \
                                     detail::refOperand<A> && detail::refOperand<B>>>             \
  RefNum operator op(const A &x, const B &y) {                                                    \
    RefNum a(x), b(y);                                                                            \
    return expr;                                                                                  \
  }
TILEC_REF_BINARY(+, detail::both(a.v + b.v, a, b))
TILEC_REF_BINARY(-, detail::both(a.v - b.v, a, b))
TILEC_REF_BINARY(*, detail::both(a.v * b.v, a, b))
TILEC_REF_BINARY(/, (a.integral && b.integral) ? RefNum(static_cast<int64_t>(a.v / b.v))
                                               : RefNum(a.v / b.v))
TILEC_REF_BINARY(%, detail::both(std::fmod(a.v, b.v), a, b))
TILEC_REF_BINARY(<, RefNum::truth(a.v < b.v))
TILEC_REF_BINARY(<=, RefNum::truth(a.v <= b.v))
TILEC_REF_BINARY(>, RefNum::truth(a.v > b.v))
TILEC_REF_BINARY(>=, RefNum::truth(a.v >= b.v))
TILEC_REF_BINARY(==, RefNum::truth(a.v == b.v))
TILEC_REF_BINARY(!=, RefNum::truth(a.v != b.v))
TILEC_REF_BINARY(&&, RefNum::truth(a.v != 0 && b.v != 0))
TILEC_REF_BINARY(||, RefNum::truth(a.v != 0 || b.v != 0))
#undef TILEC_REF_BINARY
inline RefNum operator-(const RefNum &a) {
  RefNum r(-a.v);
  r.integral = a.integral;
  return r;
}
inline RefNum operator!(const RefNum &a) { return RefNum::truth(a.v == 0); }

// The DSL's math on numbers (double precision).
inline RefNum exp(const RefNum &x) { return std::exp(x.v); }
inline RefNum exp2(const RefNum &x) { return std::exp2(x.v); }
inline RefNum log(const RefNum &x) { return std::log(x.v); }
inline RefNum log2(const RefNum &x) { return std::log2(x.v); }
inline RefNum tanh(const RefNum &x) { return std::tanh(x.v); }
inline RefNum sqrt(const RefNum &x) { return std::sqrt(x.v); }
inline RefNum abs(const RefNum &x) {
  RefNum r(std::fabs(x.v));
  r.integral = x.integral;
  return r;
}
// (Only with a RefNum among the arguments: dsl::max and dsl::min take tiles.)
template <class A, class B>
using IfRef = std::enable_if_t<(std::is_same_v<A, RefNum> || std::is_same_v<B, RefNum>) &&
                               detail::refOperand<A> && detail::refOperand<B>>;
template <class A, class B, class = IfRef<A, B>> RefNum max(const A &x, const B &y) {
  RefNum a(x), b(y);
  return detail::both(std::max(a.v, b.v), a, b);
}
template <class A, class B, class = IfRef<A, B>> RefNum min(const A &x, const B &y) {
  RefNum a(x), b(y);
  return detail::both(std::min(a.v, b.v), a, b);
}
template <class A, class B> RefNum where(const RefNum &cond, const A &x, const B &y) {
  return cond.v != 0 ? RefNum(x) : RefNum(y);
}

/// A runtime input as a rule reads it: `view(i, j, ...)`, one index per
/// dimension (tiles broadcast against each other: a [rows, 1] and a [1,
/// keys] index read a [rows, keys] tile); an index outside the tensor reads
/// 0. On tiles a gather load, on numbers the CPU run's values.
template <class T> class InputView;

template <> class InputView<dsl::Tile> {
public:
  InputView(dsl::KernelBuilder *k, const KernelInputs::Declared *input, std::string name,
            dsl::Where where)
      : k(k), input(input), name(std::move(name)), where(where) {}
  template <class... I> dsl::Tile operator()(const I &...index) const {
    return read({dsl::Operand(index)...});
  }

private:
  dsl::Tile read(const std::vector<dsl::Operand> &index) const;
  dsl::KernelBuilder *k;
  const KernelInputs::Declared *input; ///< null: not an input of the variant
  std::string name;
  dsl::Where where;
};

template <> class InputView<RefNum> {
public:
  explicit InputView(const InputValues *values) : values(values) {}
  template <class... I> RefNum operator()(const I &...index) const {
    return read({RefNum(index).v...});
  }

private:
  RefNum read(const std::vector<double> &index) const;
  const InputValues *values; ///< null: not an input of the variant
};

namespace detail {
/// How a rule's `at.input(name)` finds the input: the kernel's declared
/// tensors, or the CPU run's values.
struct TileInputs {
  dsl::KernelBuilder *k = nullptr;
  const KernelInputs *declared = nullptr;
  InputView<dsl::Tile> find(const std::string &name, dsl::Where where) const {
    return InputView<dsl::Tile>(k, declared ? declared->find(name) : nullptr, name, where);
  }
};
struct RefInputs {
  const std::vector<InputValues> *values = nullptr;
  InputView<RefNum> find(const std::string &name, dsl::Where) const {
    if (values)
      for (const InputValues &v : *values)
        if (v.name == name)
          return InputView<RefNum>(&v);
    return InputView<RefNum>(nullptr);
  }
};
template <class T>
using InputsOf = std::conditional_t<std::is_same_v<T, RefNum>, RefInputs, TileInputs>;
} // namespace detail

/// Where a score is, as a score modifier sees it: the query and key
/// positions, the query head (an index into batch·heads), its batch and its
/// head within the batch (at.batch and at.qhead: in kernels known where the
/// variant has an input with a batch or heads dimension).
template <class T> struct ScoreAt {
  T row, col, head, batch, qhead;
  detail::InputsOf<T> inputs = {};
  /// The variant's runtime input `name` (VariantInput).
  InputView<T> input(const std::string &name, dsl::Where where = dsl::Where::current()) const {
    return inputs.find(name, where);
  }
};
/// ... and as a mask sees it (with the sequence lengths).
template <class T> struct MaskAt {
  T row, col, seqQ, seqK, head, batch, qhead;
  detail::InputsOf<T> inputs = {};
  InputView<T> input(const std::string &name, dsl::Where where = dsl::Where::current()) const {
    return inputs.find(name, where);
  }
};

/// Causal, aligned to the bottom right (row i sees keys j <= i + seqK -
/// seqQ), and with `window` at most that many keys back: a rule for withMask
/// (causalKeys is the key range that agrees with it).
template <class T> T causalRule(const MaskAt<T> &at, std::optional<int64_t> window = {}) {
  T limit = at.row + (at.seqK - at.seqQ);
  return window ? T(at.col <= limit && at.col >= limit - *window) : T(at.col <= limit);
}

namespace detail {
/// The batch and the head within it of the block's query head(s), where the
/// inputs tell the heads per batch (invalid tiles otherwise).
inline std::pair<dsl::Tile, dsl::Tile> batchAndHead(const BlockContext &c) {
  if (!c.inputs || !c.inputs->headsPerBatch.valid())
    return {};
  return {c.head / c.inputs->headsPerBatch, c.head % c.inputs->headsPerBatch};
}

/// What a rule gave, checked: a mistake is reported once at the line that
/// made the variant (`where`), and a stand-in of the right type lets the
/// build go on to report others.
inline dsl::Tile checkedRule(const BlockContext &c, dsl::Tile got, dsl::Tile standIn,
                             bool wantFloat, const dsl::Where &where,
                             const char *madeWhere = "made here") {
  bool ok = got.valid() && (wantFloat ? isFloat(got.dtype()) : got.dtype() == DType::I1);
  if (ok)
    return got;
  c.k.error(where, std::string(wantFloat ? "the score modifier " : "the mask ") + madeWhere +
                       (wantFloat ? " must give floating-point scores"
                                  : " must give a comparison (an i1 tile: true keeps the score)") +
                       ", got " + (got.valid() ? std::string(toString(got.dtype())) : "nothing"));
  return standIn;
}
} // namespace detail

/// `variant` with the score modifier `mod(s, at)` (s and at's members Tile
/// in the kernels, RefNum in the reference). Mistakes in it are reported at
/// this call's line.
template <class Mod>
AttentionVariant withScoreMod(Mod mod, AttentionVariant variant = {},
                              dsl::Where where = dsl::Where::current()) {
  variant.scoreMod = [mod, where](dsl::Tile s, const BlockContext &c) -> dsl::Tile {
    auto [batch, qhead] = detail::batchAndHead(c);
    dsl::Tile got = mod(s, ScoreAt<dsl::Tile>{c.rows.col(), c.cols.row(), c.head, batch, qhead,
                                              detail::TileInputs{&c.k, c.inputs}});
    return detail::checkedRule(c, got, s, /*wantFloat=*/true, where);
  };
  variant.scoreModRef = [mod](double s, const RefAt &at) {
    return RefNum(mod(RefNum(s), ScoreAt<RefNum>{RefNum(at.row), RefNum(at.col), RefNum(at.head),
                                                 RefNum(at.batch), RefNum(at.qhead),
                                                 detail::RefInputs{at.inputs}}))
        .v;
  };
  return variant;
}

/// `variant` with the mask `mask(at)` (true: the score is kept) and the key
/// range that agrees with it (keys outside it are masked; allKeys when
/// there is none). Mistakes in it are reported at this call's line.
template <class Mask>
AttentionVariant withMask(Mask mask, std::function<KeyRange(const RangeContext &)> keyRange = {},
                          AttentionVariant variant = {},
                          dsl::Where where = dsl::Where::current()) {
  // [queries, keys] (rows a column, keys a row), or transposed.
  auto build = [mask, where](const BlockContext &c, dsl::Tile rows, dsl::Tile cols) {
    auto [batch, qhead] = detail::batchAndHead(c);
    dsl::Tile got = mask(MaskAt<dsl::Tile>{rows, cols, c.seqQ, c.seqK, c.head, batch, qhead,
                                           detail::TileInputs{&c.k, c.inputs}});
    return detail::checkedRule(c, got, rows == rows && cols == cols, /*wantFloat=*/false, where);
  };
  variant.mask = [build](const BlockContext &c) { return build(c, c.rows.col(), c.cols.row()); };
  variant.maskTransposed = [build](const BlockContext &c) {
    return build(c, c.rows.row(), c.cols.col());
  };
  variant.maskRef = [mask](const RefAt &at) {
    return RefNum(mask(MaskAt<RefNum>{RefNum(at.row), RefNum(at.col), RefNum(at.seqQ),
                                      RefNum(at.seqK), RefNum(at.head), RefNum(at.batch),
                                      RefNum(at.qhead), detail::RefInputs{at.inputs}}))
               .v != 0;
  };
  variant.keyRange = std::move(keyRange);
  return variant;
}

} // namespace tilec::attention

#endif // TILEC_EXAMPLES_ATTENTION_RULES_H
