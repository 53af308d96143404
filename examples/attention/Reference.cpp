//===- Reference.cpp - attention and its gradients in double precision ----===//

#include "FlashAttention.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tilec::attention {

static constexpr double kInf = std::numeric_limits<double>::infinity();

namespace {

/// Row i of head h: the variant's scores, the scaled raw scores they came
/// from, and which keys the mask keeps.
struct RowScores {
  std::vector<double> scaled, modified;
  std::vector<char> kept;
};

RowScores rowScores(const ReferenceAttention &ref, const std::vector<double> &q,
                    const std::vector<double> &k, int64_t h, int64_t i) {
  const int64_t d = ref.headDim, kh = h / ref.group;
  RowScores row{std::vector<double>(ref.seqK), std::vector<double>(ref.seqK),
                std::vector<char>(ref.seqK, 1)};
  for (int64_t j = 0; j < ref.seqK; ++j) {
    double s = 0;
    for (int64_t t = 0; t < d; ++t)
      s += q[(h * ref.seqQ + i) * d + t] * k[(kh * ref.seqK + j) * d + t];
    s *= ref.softmaxScale();
    row.scaled[j] = s;
    RefAt at = ref.at(h, i, j);
    row.modified[j] = ref.variant->scoreModRef ? ref.variant->scoreModRef(s, at) : s;
    if ((ref.variant->maskRef && !ref.variant->maskRef(at)) ||
        j < ref.keyLo || j >= ref.keyHi)
      row.kept[j] = 0;
  }
  return row;
}

/// The probabilities of a row (0 where masked) and its log-sum-exp; false
/// when the row sees no key.
bool softmax(const RowScores &row, std::vector<double> &p, double &lse) {
  double mx = -kInf;
  for (size_t j = 0; j < row.modified.size(); ++j)
    if (row.kept[j])
      mx = std::max(mx, row.modified[j]);
  p.assign(row.modified.size(), 0.0);
  if (mx == -kInf) {
    lse = -kInf;
    return false;
  }
  double sum = 0;
  for (size_t j = 0; j < p.size(); ++j)
    if (row.kept[j])
      sum += p[j] = std::exp(row.modified[j] - mx);
  for (double &x : p)
    x /= sum;
  lse = mx + std::log(sum);
  return true;
}

} // namespace

double ReferenceAttention::softmaxScale() const {
  return scale > 0 ? scale : 1.0 / std::sqrt(static_cast<double>(headDim));
}

RefAt ReferenceAttention::at(int64_t h, int64_t i, int64_t j) const {
  int64_t head = firstHead + h;
  int64_t batch = fixedBatch >= 0 ? fixedBatch : headsPerBatch > 0 ? head / headsPerBatch : 0;
  int64_t qhead = headsPerBatch > 0 ? head % headsPerBatch : head;
  return RefAt{i, j, head, batch, qhead, seqQ, seqK, inputs};
}

void ReferenceAttention::forward(const std::vector<double> &q, const std::vector<double> &k,
                                 const std::vector<double> &v, std::vector<double> &o,
                                 std::vector<double> &lse) const {
  const int64_t dv = valueDim();
  o.assign(bhQ * seqQ * dv, 0.0);
  lse.assign(bhQ * seqQ, -kInf);
  std::vector<double> p;
  for (int64_t h = 0; h < bhQ; ++h) {
    const int64_t kh = h / group;
    for (int64_t i = 0; i < seqQ; ++i) {
      if (!softmax(rowScores(*this, q, k, h, i), p, lse[h * seqQ + i]))
        continue; // a row with no visible key: output 0, lse -inf
      for (int64_t j = 0; j < seqK; ++j)
        for (int64_t t = 0; t < dv; ++t)
          o[(h * seqQ + i) * dv + t] += p[j] * v[(kh * seqK + j) * dv + t];
    }
  }
}

void ReferenceAttention::backward(const std::vector<double> &q, const std::vector<double> &k,
                                  const std::vector<double> &v, const std::vector<double> &dO,
                                  std::vector<double> &dq, std::vector<double> &dk,
                                  std::vector<double> &dv) const {
  const int64_t d = headDim, dV = valueDim(), bhK = bhQ / group;
  dq.assign(bhQ * seqQ * d, 0.0);
  dk.assign(bhK * seqK * d, 0.0);
  dv.assign(bhK * seqK * dV, 0.0);
  std::vector<double> p, dp(seqK);
  for (int64_t h = 0; h < bhQ; ++h) {
    const int64_t kh = h / group;
    for (int64_t i = 0; i < seqQ; ++i) {
      RowScores row = rowScores(*this, q, k, h, i);
      double lse;
      if (!softmax(row, p, lse))
        continue; // no key seen: no gradient
      const double *dORow = &dO[(h * seqQ + i) * dV];
      double delta = 0; // rowsum(dO ∘ O) = sum_j P_j dP_j
      for (int64_t j = 0; j < seqK; ++j) {
        dp[j] = 0;
        for (int64_t t = 0; t < dV; ++t)
          dp[j] += dORow[t] * v[(kh * seqK + j) * dV + t];
        delta += p[j] * dp[j];
      }
      for (int64_t j = 0; j < seqK; ++j) {
        if (p[j] == 0)
          continue;
        // d(score)/d(scaled raw score): 1, or the modifier's slope.
        double slope = 1;
        if (variant->scoreModRef) {
          double u = row.scaled[j], step = 1e-5 * std::max(1.0, std::fabs(u));
          RefAt where = at(h, i, j);
          slope = (variant->scoreModRef(u + step, where) - variant->scoreModRef(u - step, where)) /
                  (2 * step);
        }
        double dz = p[j] * (dp[j] - delta) * slope * softmaxScale(); // d/d(q·k)
        for (int64_t t = 0; t < d; ++t) {
          dq[(h * seqQ + i) * d + t] += dz * k[(kh * seqK + j) * d + t];
          dk[(kh * seqK + j) * d + t] += dz * q[(h * seqQ + i) * d + t];
        }
        for (int64_t t = 0; t < dV; ++t)
          dv[(kh * seqK + j) * dV + t] += p[j] * dORow[t];
      }
    }
  }
}

} // namespace tilec::attention
