//===- main.cpp - tilec-bench: time attention kernels on the GPU ----------===//
//
// Times tilec's attention PTX on the BENCHMARKS.md grid with the CUDA driver
// only (no LLVM, no Python): batch·seqlen = 16384 tokens, hidden 2048 (heads
// = 2048 / d, rounded down), Q, K, V, O as [B·H, N, d] bf16 with random
// non-zero values.
// FLOPs = 4·B·H·N²·d, halved when causal. Time = median over 7 repeats of
// the mean of 20 back-to-back launches (CUDA events) after 5 warm-up
// launches. Every run is checked first: sampled output rows and their
// log-sum-exp against a double-precision reference on the same inputs.
//
//   tilec-bench --ptx-dir=bench-ptx [--seqlens=1024,4096] [--filter=d128]
//               [--json=out.json]
//
// Kernels: every flash_attention_fwd*.ptx in the directory with its metadata
// beside it, named ..._d{head_dim}_... (bench/compile.sh writes them).
// --pass=bwd times the backward instead: prep + dK/dV + dQ after the
// forward made O and lse, FLOPs 2.5x the forward's, sampled rows of dQ, dK
// and dV checked against gradients in double precision; and the fused
// backward (dQ added atomically, then converted) where its kernels are.
// --pass=decode (Decode.cpp) and --pass=varlen (Varlen.cpp): decoding with
// split KV next to peer_sdpa.py --decode's shapes, and packed batches next
// to the dense kernel.
// Exit: 0 all checked and timed, 1 a failure, 77 no GPU.
//
//===----------------------------------------------------------------------===//

#include "Bench.h"

#include "tilec/Runtime/Runtime.h"
#include "tilec/Support/Numeric.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <dirent.h>
#include <fstream>
#include <limits>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace tilec;
using namespace tilec::bench;

namespace {

constexpr int kSkip = 77;

/// A head dim the attention kernels take: a multiple of 8 up to 256 (the
/// grid's heads are 2048 / d, rounded down, as peer_sdpa.py's).
bool validHeadDim(int64_t d) { return d >= 8 && d <= 256 && d % 8 == 0; }

/// The distinct head dims of `kernels` (anything with a `d`), ascending.
template <typename T> std::vector<int64_t> headDimsOf(const std::vector<T> &kernels) {
  std::vector<int64_t> dims;
  for (const T &kernel : kernels)
    dims.push_back(kernel.d);
  std::sort(dims.begin(), dims.end());
  dims.erase(std::unique(dims.begin(), dims.end()), dims.end());
  return dims;
}

struct Options {
  std::string ptxDir = "bench-ptx", filter, json;
  bool backward = false; ///< --pass=bwd
  bool decode = false;   ///< --pass=decode
  bool varlen = false;   ///< --pass=varlen
  std::vector<int64_t> seqlens = {1024, 4096};
  DecodeOptions decoding;
};

struct Row {
  std::string kernel;
  int64_t d, n, batch, heads;
  bool causal;
  double ms, tflops, error;
  /// The backward's kernels one by one (prep, dK/dV or fused, dQ or
  /// convert), milliseconds; empty for the other passes.
  std::vector<double> partsMs = {};
};

int usage(const std::string &why) {
  std::fprintf(stderr,
               "tilec-bench: %s\n"
               "usage: tilec-bench --ptx-dir=DIR [--seqlens=N,N,...] [--filter=TEXT] "
               "[--json=FILE] [--pass=fwd|bwd|decode|varlen]\n"
               "  times every DIR/flash_attention_fwd*_d{D}_*.ptx (with its .json metadata) on "
               "the BENCHMARKS.md grid\n"
               "  --pass=bwd: every DIR/flash_attention_bwd_dkdv<rest>.ptx with\n"
               "  flash_attention_fwd<rest>, flash_attention_bwd_dq<rest> and\n"
               "  flash_attention_bwd_prep_d{D} beside it (forward, then prep + dK/dV + dQ "
               "timed);\n"
               "  also prep + fused + convert (row <name>_fused) where\n"
               "  flash_attention_bwd_fused<rest> and flash_attention_bwd_dq_convert_d{D} are "
               "there\n"
               "  --pass=decode: every DIR/flash_attention_decode*_d{D}*.ptx (compiled with\n"
               "  group=4) with flash_attention_decode_combine_d{D}.ptx beside it, B = 64\n"
               "  (--batch), 32 query heads on 8 K/V heads, --seqlens of cached keys (default\n"
               "  2048,8192,32768); --splits=auto,1,2,... --queries=N (tokens per sequence)\n"
               "  --pass=varlen: every DIR/flash_attention_varlen<rest>.ptx next to\n"
               "  flash_attention_fwd<rest>.ptx: 16384 tokens in equal and ragged lengths\n",
               why.c_str());
  return 2;
}

bool parseOptions(int argc, char **argv, Options &opts, std::string &error) {
  bool seqlensGiven = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const char *name) -> const char * {
      std::string prefix = std::string(name) + "=";
      return arg.rfind(prefix, 0) == 0 ? argv[i] + prefix.size() : nullptr;
    };
    if (const char *v = value("--ptx-dir")) {
      opts.ptxDir = v;
    } else if (const char *v = value("--filter")) {
      opts.filter = v;
    } else if (const char *v = value("--json")) {
      opts.json = v;
    } else if (const char *v = value("--pass")) {
      const std::string pass = v;
      if (pass != "fwd" && pass != "bwd" && pass != "decode" && pass != "varlen") {
        error = "--pass is fwd, bwd, decode or varlen, got '" + pass + "'";
        return false;
      }
      opts.backward = pass == "bwd";
      opts.decode = pass == "decode";
      opts.varlen = pass == "varlen";
      if (opts.decode && !seqlensGiven)
        opts.seqlens = {2048, 8192, 32768};
    } else if (const char *v = value("--splits")) {
      opts.decoding.splits.clear();
      std::stringstream list(v);
      for (std::string item; std::getline(list, item, ',');) {
        char *end = nullptr;
        long long n = item == "auto" ? 0 : std::strtoll(item.c_str(), &end, 10);
        if (item != "auto" && (item.empty() || *end || n < 1 || n > 1024)) {
          error = "--splits wants 'auto' or counts in [1, 1024], got '" + item + "'";
          return false;
        }
        opts.decoding.splits.push_back(n);
      }
    } else if (const char *v = value("--queries")) {
      opts.decoding.queries = std::atoll(v);
      if (opts.decoding.queries < 1 || opts.decoding.queries > 64) {
        error = "--queries wants [1, 64], got '" + std::string(v) + "'";
        return false;
      }
    } else if (const char *v = value("--batch")) {
      opts.decoding.batch = std::atoll(v);
      if (opts.decoding.batch < 1 || opts.decoding.batch > 1024) {
        error = "--batch wants [1, 1024], got '" + std::string(v) + "'";
        return false;
      }
    } else if (const char *v = value("--seqlens")) {
      seqlensGiven = true;
      opts.seqlens.clear();
      std::stringstream list(v);
      for (std::string item; std::getline(list, item, ',');) {
        char *end = nullptr;
        long long n = std::strtoll(item.c_str(), &end, 10);
        if (item.empty() || *end || n < 1 || n > 131072) {
          error = "--seqlens wants lengths in [1, 131072], got '" + item + "'";
          return false;
        }
        opts.seqlens.push_back(n);
      }
    } else {
      error = "unknown argument '" + arg + "'";
      return false;
    }
  }
  return true;
}


/// Double-precision attention for one query row (scale 1/√d, causal aligned
/// bottom-right, which is top-left here since seq_q = seq_k): output and lse.
void referenceRow(const std::vector<double> &q, const std::vector<double> &k,
                  const std::vector<double> &v, int64_t bh, int64_t row, int64_t n, int64_t d,
                  bool causal, std::vector<double> &out, double &lse) {
  const double scale = 1.0 / std::sqrt(static_cast<double>(d));
  int64_t keys = causal ? row + 1 : n;
  std::vector<double> s(keys);
  double mx = -std::numeric_limits<double>::infinity();
  for (int64_t j = 0; j < keys; ++j) {
    double dot = 0;
    for (int64_t t = 0; t < d; ++t)
      dot += q[(bh * n + row) * d + t] * k[(bh * n + j) * d + t];
    s[j] = dot * scale;
    mx = std::max(mx, s[j]);
  }
  double sum = 0;
  for (double &x : s)
    sum += (x = std::exp(x - mx));
  out.assign(d, 0.0);
  for (int64_t j = 0; j < keys; ++j)
    for (int64_t t = 0; t < d; ++t)
      out[t] += s[j] / sum * v[(bh * n + j) * d + t];
  lse = mx + std::log(sum);
}


/// Q, K, V for one (d, N) of the grid, on the device and (as doubles) on the
/// host for the reference, with O and lse to write into.
class Problem {
public:
  Problem(rt::Device &gpu, int64_t d, int64_t n)
      : gpu(gpu), d(d), n(n), batch(std::max<int64_t>(1, 16384 / n)), heads(2048 / d),
        bh(batch * heads) {}
  ~Problem() {
    std::string ignored;
    for (uint64_t address : {q, k, v, o, lse})
      if (address)
        gpu.free(address, ignored);
  }

  bool upload(std::string &error) {
    const int64_t elements = bh * n * d;
    std::mt19937_64 rng(n * 1000 + d);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    uint64_t *inputs[3] = {&q, &k, &v};
    for (int t = 0; t < 3; ++t) {
      host[t].resize(elements);
      for (double &x : host[t])
        x = roundTo(DType::BF16, uniform(rng)); // as the device holds it
      std::vector<uint8_t> bytes = encode(DType::BF16, host[t]);
      if (!gpu.alloc(bytes.size(), *inputs[t], error) ||
          !gpu.copyToDevice(*inputs[t], bytes.data(), bytes.size(), error))
        return false;
    }
    return gpu.alloc(elements * 2, o, error) && gpu.alloc(bh * n * 4, lse, error);
  }

  /// Checks and times `kernel`; false (and why) on any error.
  bool run(const std::string &name, const rt::Kernel &kernel, Row &row, std::string &error) {
    const bool causal = kernel.meta.kernel.find("causal") != std::string::npos;
    auto tensor3 = [&](uint64_t address) {
      return rt::TensorArg{address, {bh, n, d}, {n * d, d, 1}};
    };
    std::vector<rt::Arg> args = {tensor3(q), tensor3(k), tensor3(v), tensor3(o),
                                 rt::TensorArg{lse, {bh, n}, {n, 1}}};
    // The grid from the metadata's rule, e.g. [cdiv(q.shape[1], 128), q.shape[0], 1].
    std::optional<std::array<int64_t, 3>> grid = rt::launchGrid(kernel.meta, args, error);
    if (!grid)
      return false;
    std::vector<uint8_t> poison(bh * n * d * 2, 0xff); // NaN until written
    double ms = 0, relerr = 0;
    if (!gpu.copyToDevice(o, poison.data(), poison.size(), error) ||
        !gpu.launch(kernel, *grid, args, error) || !gpu.synchronize(error) ||
        !check(causal, relerr, error) || !timeKernel(gpu, kernel, *grid, args, ms, error))
      return false;
    double flops = 4.0 * bh * double(n) * double(n) * d * (causal ? 0.5 : 1.0);
    row = {name, d, n, batch, heads, causal, ms, flops / ms * 1e-9, relerr};
    return true;
  }

private:
  /// Sampled rows (first, last and spread, in three heads) of O and lse
  /// against the reference; `worst` = max |O - ref| / max |ref| over them.
  bool check(bool causal, double &worst, std::string &error) {
    std::vector<double> got, want, lseGot, lseWant;
    for (int64_t h : {int64_t{0}, bh / 2, bh - 1})
      for (int64_t r : {int64_t{0}, int64_t{1}, n / 3, n / 2 + 7, n - 2, n - 1}) {
        if (r < 0 || r >= n)
          continue;
        std::vector<uint8_t> bytes(d * 2);
        float l = 0;
        if (!gpu.copyToHost(bytes.data(), o + (h * n + r) * d * 2, bytes.size(), error) ||
            !gpu.copyToHost(&l, lse + (h * n + r) * 4, 4, error))
          return false;
        std::vector<double> out = decode(DType::BF16, bytes), ref;
        double refLse = 0;
        referenceRow(host[0], host[1], host[2], h, r, n, d, causal, ref, refLse);
        got.insert(got.end(), out.begin(), out.end());
        want.insert(want.end(), ref.begin(), ref.end());
        lseGot.push_back(l);
        lseWant.push_back(refLse);
      }
    return matchesReference(got, want, lseGot, lseWant, worst, error);
  }

  rt::Device &gpu;
  const int64_t d, n, batch, heads, bh;
  std::vector<double> host[3];
  uint64_t q = 0, k = 0, v = 0, o = 0, lse = 0;
};

//===----------------------------------------------------------------------===//
// The backward (--pass=bwd)
//===----------------------------------------------------------------------===//

/// The kernels of one backward: the forward that makes O and lse, the
/// statistics (prep), dK/dV and dQ. From flash_attention_bwd_dkdv<rest>.ptx:
/// flash_attention_fwd<rest>, flash_attention_bwd_prep_d{D},
/// flash_attention_bwd_dq<rest>. With `fused` (flash_attention_bwd_fused<rest>
/// and flash_attention_bwd_dq_convert_d{D} beside them): prep, the fused
/// kernel (dQ added atomically into an f32 accumulator) and the convert.
struct BackwardSet {
  std::string name; ///< flash_attention_bwd<rest>, + "_fused"
  int64_t d;
  rt::Kernel fwd, prep, dkdv, dq;
  bool fused = false;
  /// The sampled reference knows dense and causal attention only: other
  /// variants are timed with relerr NaN (their GPU cases check them).
  bool checked = true;
};

/// Q, K, V, dO on the device and the host, the forward's O and lse, the
/// statistics and the gradients; checked and timed per BackwardSet.
class BackwardProblem {
public:
  BackwardProblem(rt::Device &gpu, int64_t d, int64_t n)
      : gpu(gpu), d(d), n(n), batch(std::max<int64_t>(1, 16384 / n)), heads(2048 / d),
        bh(batch * heads), statRows((n + 3) / 4 * 4) {}
  ~BackwardProblem() {
    std::string ignored;
    for (uint64_t address : {q, k, v, dO, o, lse, delta, lse2, dq, dk, dv, dqAcc, arrivals})
      if (address)
        gpu.free(address, ignored);
  }

  bool upload(std::string &error) {
    const int64_t elements = bh * n * d;
    std::mt19937_64 rng(n * 1000 + d + 7);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    uint64_t *inputs[4] = {&q, &k, &v, &dO};
    for (int t = 0; t < 4; ++t) {
      host[t].resize(elements);
      for (double &x : host[t])
        x = roundTo(DType::BF16, uniform(rng));
      std::vector<uint8_t> bytes = encode(DType::BF16, host[t]);
      if (!gpu.alloc(bytes.size(), *inputs[t], error) ||
          !gpu.copyToDevice(*inputs[t], bytes.data(), bytes.size(), error))
        return false;
    }
    for (uint64_t *out : {&o, &dq, &dk, &dv})
      if (!gpu.alloc(elements * 2, *out, error))
        return false;
    // The fused backward's accumulator: zero once, zeroed again by each
    // backward's last step.
    std::vector<uint8_t> zeros(elements * 4, 0);
    return gpu.alloc(bh * n * 4, lse, error) && gpu.alloc(bh * statRows * 4, delta, error) &&
           gpu.alloc(bh * statRows * 4, lse2, error) && gpu.alloc(zeros.size(), dqAcc, error) &&
           gpu.copyToDevice(dqAcc, zeros.data(), zeros.size(), error) &&
           gpu.alloc(bh * 4, arrivals, error) &&
           gpu.copyToDevice(arrivals, zeros.data(), bh * 4, error);
  }

  bool run(const BackwardSet &set, Row &row, std::string &error) {
    const bool causal = set.name.find("causal") != std::string::npos;
    auto tensor3 = [&](uint64_t address) {
      return rt::TensorArg{address, {bh, n, d}, {n * d, d, 1}};
    };
    auto stats = [&](uint64_t address) {
      return rt::TensorArg{address, {bh, statRows}, {statRows, 1}};
    };
    rt::TensorArg lseArg{lse, {bh, n}, {n, 1}};
    std::vector<rt::Arg> fwdArgs = {tensor3(q), tensor3(k), tensor3(v), tensor3(o), lseArg};
    std::vector<rt::Arg> prepArgs = {tensor3(o), tensor3(dO), lseArg, stats(delta), stats(lse2)};
    std::vector<rt::Arg> kvArgs = {tensor3(q),     tensor3(k),   tensor3(v),  tensor3(dO),
                                   stats(lse2),    stats(delta), tensor3(dk), tensor3(dv)};
    std::vector<rt::Arg> qArgs = {tensor3(q),  tensor3(k),    tensor3(v), tensor3(dO),
                                  stats(lse2), stats(delta), tensor3(dq)};
    // A fused kernel that takes dq_arrivals converts dq itself (its
    // dq_convert=last_program): no convert launch after it.
    const bool convertsItself =
        set.fused && std::any_of(set.dkdv.meta.params.begin(), set.dkdv.meta.params.end(),
                                 [](const auto &param) { return param.name == "dq_arrivals"; });
    if (set.fused) { // dK/dV with dQ into the accumulator, then dq from it
      kvArgs.push_back(tensor3(dqAcc));
      if (convertsItself) {
        kvArgs.push_back(tensor3(dq));
        kvArgs.push_back(rt::TensorArg{arrivals, {bh}, {1}});
      }
      qArgs = {tensor3(dqAcc), tensor3(dq)};
    }
    struct Launch {
      const rt::Kernel &kernel;
      const std::vector<rt::Arg> &args;
      std::array<int64_t, 3> grid{};
    };
    std::vector<Launch> launches = {{set.fwd, fwdArgs}, {set.prep, prepArgs},
                                    {set.dkdv, kvArgs}, {set.dq, qArgs}};
    if (convertsItself)
      launches.pop_back();
    for (Launch &l : launches) {
      std::optional<std::array<int64_t, 3>> grid = rt::launchGrid(l.kernel.meta, l.args, error);
      if (!grid)
        return false;
      l.grid = *grid;
    }
    std::vector<uint8_t> poison(bh * n * d * 2, 0xff); // NaN until written
    for (uint64_t out : {dq, dk, dv})
      if (!gpu.copyToDevice(out, poison.data(), poison.size(), error))
        return false;
    for (const Launch &l : launches)
      if (!gpu.launch(l.kernel, l.grid, l.args, error))
        return false;
    double relerr = std::numeric_limits<double>::quiet_NaN();
    if (!gpu.synchronize(error) || (set.checked && !check(causal, relerr, error)))
      return false;
    double ms = 0; // prep + dK/dV + dQ: the backward proper
    std::vector<double> parts;
    for (size_t i = 1; i < launches.size(); ++i) {
      double part = 0;
      if (!timeKernel(gpu, launches[i].kernel, launches[i].grid, launches[i].args, part, error))
        return false;
      ms += part;
      parts.push_back(part);
    }
    double flops = 2.5 * 4.0 * bh * double(n) * double(n) * d * (causal ? 0.5 : 1.0);
    row = {set.name, d, n, batch, heads, causal, ms, flops / ms * 1e-9, relerr, parts};
    return true;
  }

private:
  /// Sampled rows of dQ, dK and dV (first, last and spread, in three heads)
  /// against gradients computed in double from the same Q, K, V, dO and the
  /// forward's O and lse; `worst` = the largest normalized error.
  bool check(bool causal, double &worst, std::string &error) {
    const double scale = 1.0 / std::sqrt(static_cast<double>(d));
    std::vector<double> got[3], want[3]; // dq, dk, dv
    for (int64_t h : {int64_t{0}, bh / 2, bh - 1}) {
      std::vector<uint8_t> oBytes(n * d * 2);
      std::vector<float> lseHost(n);
      if (!gpu.copyToHost(oBytes.data(), o + h * n * d * 2, oBytes.size(), error) ||
          !gpu.copyToHost(lseHost.data(), lse + h * n * 4, n * 4, error))
        return false;
      std::vector<double> oHost = decode(DType::BF16, oBytes), rowDelta(n, 0.0);
      auto at = [&](int t, int64_t r) { return &host[t][(h * n + r) * d]; };
      for (int64_t i = 0; i < n; ++i)
        for (int64_t t = 0; t < d; ++t)
          rowDelta[i] += at(3, i)[t] * oHost[i * d + t];
      auto dotRows = [&](const double *a, const double *b) {
        double s = 0;
        for (int64_t t = 0; t < d; ++t)
          s += a[t] * b[t];
        return s;
      };
      // P_ij (dP_ij - delta_i) and P_ij for row i, key j.
      auto pair = [&](int64_t i, int64_t j, double &p) {
        p = std::exp(dotRows(at(0, i), at(1, j)) * scale - lseHost[i]);
        return p * (dotRows(at(3, i), at(2, j)) - rowDelta[i]);
      };
      for (int64_t r : {int64_t{0}, int64_t{1}, n / 3, n / 2 + 7, n - 2, n - 1}) {
        if (r < 0 || r >= n)
          continue;
        std::vector<double> refQ(d, 0.0), refK(d, 0.0), refV(d, 0.0);
        double p = 0;
        for (int64_t j = 0; j < (causal ? r + 1 : n); ++j) {
          double ds = pair(r, j, p) * scale;
          for (int64_t t = 0; t < d; ++t)
            refQ[t] += ds * at(1, j)[t];
        }
        for (int64_t i = causal ? r : 0; i < n; ++i) {
          double ds = pair(i, r, p) * scale;
          for (int64_t t = 0; t < d; ++t) {
            refK[t] += ds * at(0, i)[t];
            refV[t] += p * at(3, i)[t];
          }
        }
        const uint64_t outs[3] = {dq, dk, dv};
        const std::vector<double> *refs[3] = {&refQ, &refK, &refV};
        for (int g = 0; g < 3; ++g) {
          std::vector<uint8_t> bytes(d * 2);
          if (!gpu.copyToHost(bytes.data(), outs[g] + (h * n + r) * d * 2, bytes.size(), error))
            return false;
          std::vector<double> row = decode(DType::BF16, bytes);
          got[g].insert(got[g].end(), row.begin(), row.end());
          want[g].insert(want[g].end(), refs[g]->begin(), refs[g]->end());
        }
      }
    }
    worst = 0;
    std::ostringstream why;
    const char *names[3] = {"dQ", "dK", "dV"};
    bool ok = true;
    for (int g = 0; g < 3; ++g) {
      Comparison cmp = compareOutputs(got[g], want[g]);
      worst = std::max(worst, cmp.normalizedError);
      if (!cmp.within(2e-2)) {
        ok = false;
        why << names[g] << " normalized error " << cmp.normalizedError << " (NaN "
            << cmp.nanCount << ") ";
      }
    }
    if (!ok)
      error = "gradients differ from the reference: " + why.str();
    return ok;
  }

  rt::Device &gpu;
  const int64_t d, n, batch, heads, bh, statRows;
  std::vector<double> host[4]; // q, k, v, dO
  uint64_t q = 0, k = 0, v = 0, dO = 0, o = 0, lse = 0, delta = 0, lse2 = 0, dq = 0, dk = 0, dv = 0,
           dqAcc = 0, arrivals = 0;
};

std::vector<std::string> attentionKernels(const Options &opts, std::string &error) {
  // A directory may hold other families (bench-ptx-varlen has both): only
  // the pass's own.
  return listKernels(opts.ptxDir, opts.backward ? "flash_attention_bwd_dkdv" : "flash_attention_fwd",
                     opts.filter, "", error);
}

void writeJson(const std::string &path, const std::string &device, const std::vector<Row> &rows) {
  std::ofstream out(path);
  out << "{\n \"gpu\": \"" << device << "\",\n \"tool\": \"tilec-bench\",\n \"rows\": [";
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row &r = rows[i];
    out << (i ? ",\n  " : "\n  ") << "{\"kernel\": \"" << r.kernel << "\", \"d\": " << r.d
        << ", \"N\": " << r.n << ", \"B\": " << r.batch << ", \"H\": " << r.heads
        << ", \"causal\": " << (r.causal ? "true" : "false") << ", \"ms\": " << r.ms
        << ", \"tflops\": " << r.tflops << ", \"relerr\": ";
    if (std::isnan(r.error))
      out << "null"; // not checked
    else
      out << r.error;
    if (!r.partsMs.empty()) {
      out << ", \"parts_ms\": [";
      for (size_t p = 0; p < r.partsMs.size(); ++p)
        out << (p ? ", " : "") << r.partsMs[p];
      out << "]";
    }
    out << "}";
  }
  out << "\n ]\n}\n";
}


void printRow(const Row &row) {
  std::printf("%s\t%lld\t%lld\t%lld\t%lld\t%d\t%.4f\t%.1f\t%.2g\n", row.kernel.c_str(),
              static_cast<long long>(row.d), static_cast<long long>(row.n),
              static_cast<long long>(row.batch), static_cast<long long>(row.heads),
              row.causal ? 1 : 0, row.ms, row.tflops, row.error);
  if (!row.partsMs.empty()) {
    std::printf("#   ms by kernel (prep, main, dq):");
    for (double part : row.partsMs)
      std::printf(" %.4f", part);
    std::printf("\n");
  }
  std::fflush(stdout);
}

/// --pass=bwd: every backward set of the directory on the grid.
int runBackward(rt::Device &gpu, const Options &opts, const std::vector<std::string> &kvNames) {
  std::printf("# %s: tilec attention backward (prep + dK/dV + dQ), bf16, TFLOP/s = 2.5 x "
              "forward FLOPs (tilec-bench)\n",
              gpu.name().c_str());
  std::printf("kernel\td\tN\tB\tH\tcausal\tms\tTFLOP/s\trelerr\n");
  std::vector<BackwardSet> sets;
  int failures = 0;
  std::string error;
  for (const std::string &kv : kvNames) {
    const std::string rest = kv.substr(std::string("flash_attention_bwd_dkdv").size());
    BackwardSet set{"flash_attention_bwd" + rest, headDimFromName(kv), {}, {}, {}, {}};
    const std::string variant = rest.substr(0, rest.rfind("_d"));
    set.checked = variant.empty() || variant == "_causal";
    if (!set.checked)
      std::fprintf(stderr,
                   "tilec-bench: %s: timed, not checked (relerr nan): the sampled reference "
                   "knows dense and causal attention only; `BWD=1 scripts/gpu-cases.sh` "
                   "checks this variant; TFLOP/s count every score (no mask)\n",
                   set.name.c_str());
    const std::string prep = "flash_attention_bwd_prep_d" + std::to_string(set.d);
    if (!validHeadDim(set.d))
      error = "no head dimension _d{8..256}_ (a multiple of 8) in the name";
    else if (loadKernel(gpu, opts.ptxDir, "flash_attention_fwd" + rest, set.fwd, error) &&
             loadKernel(gpu, opts.ptxDir, prep, set.prep, error) &&
             loadKernel(gpu, opts.ptxDir, kv, set.dkdv, error) &&
             loadKernel(gpu, opts.ptxDir, "flash_attention_bwd_dq" + rest, set.dq, error)) {
      sets.push_back(set);
      BackwardSet fused = set;
      fused.name += "_fused";
      fused.fused = true;
      std::string missing;
      if (loadKernel(gpu, opts.ptxDir, "flash_attention_bwd_fused" + rest, fused.dkdv, missing) &&
          loadKernel(gpu, opts.ptxDir,
                     "flash_attention_bwd_dq_convert_d" + std::to_string(set.d), fused.dq,
                     missing))
        sets.push_back(fused);
      continue;
    }
    std::fprintf(stderr, "tilec-bench: %s: %s\n", kv.c_str(), error.c_str());
    ++failures;
  }
  std::vector<Row> rows;
  for (int64_t n : opts.seqlens)
    for (int64_t d : headDimsOf(sets)) {
      BackwardProblem problem(gpu, d, n);
      if (!problem.upload(error)) {
        std::fprintf(stderr, "tilec-bench: inputs for d=%lld N=%lld: %s\n",
                     static_cast<long long>(d), static_cast<long long>(n), error.c_str());
        ++failures;
        continue;
      }
      for (const BackwardSet &set : sets) {
        Row row{};
        if (set.d != d)
          continue;
        if (!problem.run(set, row, error)) {
          std::fprintf(stderr, "tilec-bench: %s at N=%lld: %s\n", set.name.c_str(),
                       static_cast<long long>(n), error.c_str());
          ++failures;
          continue;
        }
        rows.push_back(row);
        printRow(row);
      }
    }
  if (!opts.json.empty())
    writeJson(opts.json, gpu.name(), rows);
  return failures ? 1 : 0;
}

} // namespace

namespace tilec::bench {

std::vector<std::string> listKernels(const std::string &dir, const std::string &prefix,
                                     const std::string &filter, const std::string &exclude,
                                     std::string &error) {
  std::vector<std::string> names;
  if (DIR *d = opendir(dir.c_str())) {
    while (dirent *entry = readdir(d)) {
      std::string name = entry->d_name;
      if (name.rfind(prefix, 0) == 0 && name.size() > 4 &&
          name.substr(name.size() - 4) == ".ptx" && name.find(filter) != std::string::npos &&
          (exclude.empty() || name.find(exclude) == std::string::npos))
        names.push_back(name.substr(0, name.size() - 4));
    }
    closedir(d);
  } else {
    error = "cannot open --ptx-dir '" + dir + "'";
    return names;
  }
  std::sort(names.begin(), names.end());
  if (names.empty())
    error = "no " + prefix + "*.ptx" + (exclude.empty() ? "" : " (but " + exclude + ")") +
            (filter.empty() ? std::string() : " matching '" + filter + "'") + " in " + dir;
  return names;
}

/// The head dimension from a name like flash_attention_fwd_d128_m128_....
int64_t numberInName(const std::string &name, const std::string &tag) {
  for (size_t at = name.find(tag); at != std::string::npos; at = name.find(tag, at + 1)) {
    size_t digits = at + tag.size(), end = digits;
    while (end < name.size() && std::isdigit(static_cast<unsigned char>(name[end])))
      ++end;
    if (end > digits && (end == name.size() || name[end] == '_'))
      return std::stoll(name.substr(digits, end - digits));
  }
  return 0;
}

bool matchesReference(const std::vector<double> &got, const std::vector<double> &want,
                      const std::vector<double> &lseGot, const std::vector<double> &lseWant,
                      double &worst, std::string &error) {
  Comparison out = compareOutputs(got, want), lseCmp = compareOutputs(lseGot, lseWant);
  worst = out.normalizedError;
  if (out.within(2e-2) && lseCmp.within(1e-3))
    return true;
  std::ostringstream why;
  why << "output differs from the reference: O normalized error " << out.normalizedError
      << " (NaN " << out.nanCount << ")";
  if (!lseWant.empty())
    why << ", lse normalized error " << lseCmp.normalizedError;
  error = why.str();
  return false;
}

/// Median over 7 repeats of the mean of 20 back-to-back launches, after 5
/// warm-up launches; the process's first timing after 1.5 s of them (an
/// idle GPU's SM clock dips for about half a second once it starts
/// working: bench/timing.py, bench/RESULTS.md session 47).
bool timeKernel(rt::Device &gpu, const rt::Kernel &kernel, std::array<int64_t, 3> grid,
                const std::vector<rt::Arg> &args, double &median, std::string &error) {
  static bool warmed = false;
  float ms = 0;
  const auto start = std::chrono::steady_clock::now();
  do {
    if (!gpu.time(kernel, grid, args, 5, ms, error)) // warm-up
      return false;
  } while (!warmed && std::chrono::steady_clock::now() - start < std::chrono::milliseconds(1500));
  warmed = true;
  std::vector<double> samples;
  for (int repeat = 0; repeat < 7; ++repeat) {
    if (!gpu.time(kernel, grid, args, 20, ms, error))
      return false;
    samples.push_back(ms / 20);
  }
  std::sort(samples.begin(), samples.end());
  median = samples[samples.size() / 2];
  return true;
}

/// Loads DIR/NAME.ptx with its NAME.json metadata.
bool loadKernel(rt::Device &gpu, const std::string &dir, const std::string &name,
                rt::Kernel &kernel, std::string &error) {
  std::string metaText, ptx, base = dir + "/" + name;
  rt::KernelMetadata meta;
  if (!rt::readFile(base + ".json", metaText) || !rt::readFile(base + ".ptx", ptx)) {
    error = "cannot read " + base + ".ptx and .json";
    return false;
  }
  return rt::parseMetadata(metaText, meta, error) && gpu.load(ptx, meta, kernel, error);
}

} // namespace tilec::bench

int main(int argc, char **argv) {
  Options opts;
  std::string error;
  if (!parseOptions(argc, argv, opts, error))
    return usage(error);
  if (opts.decode) {
    opts.decoding.ptxDir = opts.ptxDir;
    opts.decoding.filter = opts.filter;
    opts.decoding.json = opts.json;
    opts.decoding.seqlens = opts.seqlens;
  }
  VarlenOptions varlen{opts.ptxDir, opts.filter, opts.json, opts.seqlens};
  std::vector<std::string> kernels = opts.decode   ? decodeKernels(opts.decoding, error)
                                     : opts.varlen ? varlenKernels(varlen, error)
                                                   : attentionKernels(opts, error);
  if (kernels.empty())
    return usage(error);
  rt::Device *gpu = rt::Device::open(error);
  if (!gpu) {
    std::fprintf(stderr, "tilec-bench: skipped, no GPU: %s\n", error.c_str());
    return kSkip;
  }
  if (opts.backward)
    return runBackward(*gpu, opts, kernels);
  if (opts.decode)
    return runDecode(*gpu, opts.decoding, kernels);
  if (opts.varlen)
    return runVarlen(*gpu, varlen, kernels);
  std::printf("# %s: tilec attention forward, bf16, TFLOP/s (tilec-bench)\n",
              gpu->name().c_str());
  std::printf("kernel\td\tN\tB\tH\tcausal\tms\tTFLOP/s\trelerr\n");
  // Load every kernel, then run them per (N, d) on shared inputs.
  struct Loaded {
    std::string name;
    int64_t d;
    rt::Kernel kernel;
  };
  std::vector<Loaded> loaded;
  int failures = 0;
  for (const std::string &name : kernels) {
    std::string metaText, ptx, base = opts.ptxDir + "/" + name;
    rt::KernelMetadata meta;
    Loaded entry{name, headDimFromName(name), {}};
    if (!rt::readFile(base + ".json", metaText) || !rt::readFile(base + ".ptx", ptx))
      error = "cannot read " + base + ".ptx and .json";
    else if (!validHeadDim(entry.d))
      error = "no head dimension _d{8..256}_ (a multiple of 8) in the name";
    else if (rt::parseMetadata(metaText, meta, error) &&
             gpu->load(ptx, meta, entry.kernel, error)) {
      loaded.push_back(entry);
      continue;
    }
    std::fprintf(stderr, "tilec-bench: %s: %s\n", name.c_str(), error.c_str());
    ++failures;
  }
  std::vector<Row> rows;
  for (int64_t n : opts.seqlens)
    for (int64_t d : headDimsOf(loaded)) {
      Problem problem(*gpu, d, n);
      if (!problem.upload(error)) {
        std::fprintf(stderr, "tilec-bench: inputs for d=%lld N=%lld: %s\n",
                     static_cast<long long>(d), static_cast<long long>(n), error.c_str());
        ++failures;
        continue;
      }
      for (const Loaded &l : loaded) {
        if (l.d != d)
          continue;
        Row row{};
        if (!problem.run(l.name, l.kernel, row, error)) {
          std::fprintf(stderr, "tilec-bench: %s at N=%lld: %s\n", l.name.c_str(),
                       static_cast<long long>(n), error.c_str());
          ++failures;
          continue;
        }
        rows.push_back(row);
        printRow(row);
      }
    }
  if (!opts.json.empty())
    writeJson(opts.json, gpu->name(), rows);
  return failures ? 1 : 0;
}
