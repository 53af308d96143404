//===- Varlen.cpp - tilec-bench --pass=varlen: packed batches -------------===//
//
// The BENCHMARKS.md grid's tokens (16384 per row, hidden 2048: heads =
// 2048 / d) as one packed batch: each flash_attention_varlen<rest> kernel
// next to flash_attention_fwd<rest> (the dense kernel of the same variant)
// in the same process, on
//   * equal lengths: 16384 / N sequences of N tokens, the dense kernel's own
//     problem (the same FLOPs): the cost of packing;
//   * ragged lengths: N/4 to 7N/4, as many tokens (FLOPs from Σ L²).
// Time and FLOPs as the forward (causal halves them); O of sampled rows of
// three sequences checked against attention in double precision.
//
//===----------------------------------------------------------------------===//

#include "Bench.h"

#include "tilec/Support/Numeric.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <sstream>

namespace tilec::bench {

namespace {

constexpr int64_t kTokens = 16384, kHidden = 2048;

struct VarlenRow {
  std::string kernel, lengths;
  int64_t d, n, batch, heads;
  bool causal;
  double denseMs, varlenMs, denseTflops, varlenTflops, error;
};

/// Random bf16 values on the device and, as doubles, on the host.
bool upload(rt::Device &gpu, int64_t count, uint64_t seed, std::vector<double> &host,
            uint64_t &address, std::string &error) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  host.resize(count);
  for (double &x : host)
    x = roundTo(DType::BF16, uniform(rng));
  std::vector<uint8_t> bytes = encode(DType::BF16, host);
  return gpu.alloc(bytes.size(), address, error) &&
         gpu.copyToDevice(address, bytes.data(), bytes.size(), error);
}

/// One packed batch of `lengths` (the same lengths for queries and keys)
/// with H heads of d, and the dense batch of equal length N when the
/// lengths are all N.
class VarlenProblem {
public:
  VarlenProblem(rt::Device &gpu, int64_t d, std::vector<int64_t> lengths)
      : gpu(gpu), d(d), heads(kHidden / d), lengths(std::move(lengths)) {
    cu.push_back(0);
    for (int64_t l : this->lengths)
      cu.push_back(cu.back() + l);
    total = cu.back();
  }
  ~VarlenProblem() {
    std::string ignored;
    for (uint64_t address : {q, k, v, o, lse, cuDevice})
      if (address)
        gpu.free(address, ignored);
  }
  VarlenProblem(const VarlenProblem &) = delete;
  VarlenProblem &operator=(const VarlenProblem &) = delete;

  bool upload(std::string &error) {
    const int64_t elements = total * heads * d;
    std::vector<int32_t> offsets(cu.begin(), cu.end());
    return bench::upload(gpu, elements, total + d, host[0], q, error) &&
           bench::upload(gpu, elements, total + d + 1, host[1], k, error) &&
           bench::upload(gpu, elements, total + d + 2, host[2], v, error) &&
           gpu.alloc(elements * 2, o, error) && gpu.alloc(heads * total * 4, lse, error) &&
           gpu.alloc(offsets.size() * 4, cuDevice, error) &&
           gpu.copyToDevice(cuDevice, offsets.data(), offsets.size() * 4, error);
  }

  /// FLOPs of attention over these lengths (queries = keys per sequence).
  double flops(bool causal) const {
    double sum = 0;
    for (int64_t l : lengths)
      sum += 4.0 * heads * double(l) * double(l) * d * (causal ? 0.5 : 1.0);
    return sum;
  }

  /// Checks and times the packed kernel: milliseconds, worst error.
  bool run(const rt::Kernel &kernel, bool causal, double &ms, double &relerr, std::string &error) {
    // [total, H, d] memory as the kernel's [H, total, d] views.
    auto packed = [&](uint64_t address) {
      return rt::TensorArg{address, {heads, total, d}, {d, heads * d, 1}};
    };
    const int64_t longest = *std::max_element(lengths.begin(), lengths.end());
    const int64_t batch = static_cast<int64_t>(lengths.size());
    std::vector<rt::Arg> args = {packed(q),
                                 packed(k),
                                 packed(v),
                                 packed(o),
                                 rt::TensorArg{lse, {heads, total}, {total, 1}},
                                 rt::TensorArg{cuDevice, {batch + 1}, {1}},
                                 rt::TensorArg{cuDevice, {batch + 1}, {1}},
                                 static_cast<double>(longest)};
    std::optional<std::array<int64_t, 3>> grid = rt::launchGrid(kernel.meta, args, error);
    if (!grid)
      return false;
    std::vector<uint8_t> poison(total * heads * d * 2, 0xff); // NaN until written
    return gpu.copyToDevice(o, poison.data(), poison.size(), error) &&
           gpu.launch(kernel, *grid, args, error) && gpu.synchronize(error) &&
           check(causal, relerr, error) && timeKernel(gpu, kernel, *grid, args, ms, error);
  }

  int64_t batch() const { return static_cast<int64_t>(lengths.size()); }
  int64_t headCount() const { return heads; }

private:
  /// Rows of three sequences (first, middle, last) in two heads against
  /// attention in double precision; `worst` = max |O - ref| / max |ref|.
  bool check(bool causal, double &worst, std::string &error) {
    const double scale = 1.0 / std::sqrt(static_cast<double>(d));
    std::vector<double> got, want;
    auto at = [&](int t, int64_t row, int64_t h) { return &host[t][(row * heads + h) * d]; };
    for (int64_t b : {int64_t{0}, batch() / 2, batch() - 1})
      for (int64_t h : {int64_t{0}, heads - 1})
        for (int64_t i : {int64_t{0}, lengths[b] / 2, lengths[b] - 1}) {
          if (i < 0 || i >= lengths[b])
            continue;
          const int64_t row = cu[b] + i, keys = causal ? i + 1 : lengths[b];
          std::vector<double> s(keys), ref(d, 0.0);
          double mx = -std::numeric_limits<double>::infinity(), sum = 0;
          for (int64_t j = 0; j < keys; ++j) {
            double dot = 0;
            for (int64_t t = 0; t < d; ++t)
              dot += at(0, row, h)[t] * at(1, cu[b] + j, h)[t];
            mx = std::max(mx, s[j] = dot * scale);
          }
          for (double &x : s)
            sum += (x = std::exp(x - mx));
          for (int64_t j = 0; j < keys; ++j)
            for (int64_t t = 0; t < d; ++t)
              ref[t] += s[j] / sum * at(2, cu[b] + j, h)[t];
          std::vector<uint8_t> bytes(d * 2);
          if (!gpu.copyToHost(bytes.data(), o + (row * heads + h) * d * 2, bytes.size(), error))
            return false;
          std::vector<double> out = decode(DType::BF16, bytes);
          got.insert(got.end(), out.begin(), out.end());
          want.insert(want.end(), ref.begin(), ref.end());
        }
    return matchesReference(got, want, {}, {}, worst, error);
  }

  rt::Device &gpu;
  const int64_t d, heads;
  std::vector<int64_t> lengths, cu;
  int64_t total = 0;
  std::vector<double> host[3];
  uint64_t q = 0, k = 0, v = 0, o = 0, lse = 0, cuDevice = 0;
};

/// The dense kernel on its own [B·H, N, d] problem (random inputs).
bool timeDense(rt::Device &gpu, const rt::Kernel &kernel, int64_t d, int64_t n, double &ms,
               std::string &error) {
  const int64_t bh = kTokens / n * (kHidden / d), elements = bh * n * d;
  std::vector<double> ignored;
  uint64_t buffers[5] = {0, 0, 0, 0, 0};
  bool ok = upload(gpu, elements, 1, ignored, buffers[0], error) &&
            upload(gpu, elements, 2, ignored, buffers[1], error) &&
            upload(gpu, elements, 3, ignored, buffers[2], error) &&
            gpu.alloc(elements * 2, buffers[3], error) && gpu.alloc(bh * n * 4, buffers[4], error);
  if (ok) {
    auto tensor3 = [&](uint64_t a) { return rt::TensorArg{a, {bh, n, d}, {n * d, d, 1}}; };
    std::vector<rt::Arg> args = {tensor3(buffers[0]), tensor3(buffers[1]), tensor3(buffers[2]),
                                 tensor3(buffers[3]), rt::TensorArg{buffers[4], {bh, n}, {n, 1}}};
    std::optional<std::array<int64_t, 3>> grid = rt::launchGrid(kernel.meta, args, error);
    ok = grid && timeKernel(gpu, kernel, *grid, args, ms, error);
  }
  std::string freeError;
  for (uint64_t address : buffers)
    if (address)
      gpu.free(address, freeError);
  return ok;
}

/// 16384 tokens in sequences of N/4 to 7N/4 tokens (deterministic).
std::vector<int64_t> raggedLengths(int64_t n) {
  std::mt19937_64 rng(n);
  std::uniform_int_distribution<int64_t> pick(std::max<int64_t>(1, n / 4), n * 7 / 4);
  std::vector<int64_t> lengths;
  int64_t left = kTokens;
  while (left > 0) {
    int64_t l = std::min(left, pick(rng));
    lengths.push_back(l);
    left -= l;
  }
  return lengths;
}

void writeJson(const std::string &path, const std::string &device,
               const std::vector<VarlenRow> &rows) {
  std::ofstream out(path);
  out << "{\n \"gpu\": \"" << device << "\",\n \"tool\": \"tilec-bench --pass=varlen\",\n"
      << " \"rows\": [";
  for (size_t i = 0; i < rows.size(); ++i) {
    const VarlenRow &r = rows[i];
    out << (i ? ",\n  " : "\n  ") << "{\"kernel\": \"" << r.kernel << "\", \"lengths\": \""
        << r.lengths << "\", \"d\": " << r.d << ", \"N\": " << r.n << ", \"B\": " << r.batch
        << ", \"H\": " << r.heads << ", \"causal\": " << (r.causal ? "true" : "false")
        << ", \"dense_ms\": " << r.denseMs << ", \"varlen_ms\": " << r.varlenMs
        << ", \"dense_tflops\": " << r.denseTflops << ", \"varlen_tflops\": " << r.varlenTflops
        << ", \"relerr\": " << r.error << "}";
  }
  out << "\n ]\n}\n";
}

} // namespace

std::vector<std::string> varlenKernels(const VarlenOptions &opts, std::string &error) {
  // The forward kernels only (the packed backward's are flash_attention_varlen_bwd_*).
  return listKernels(opts.ptxDir, "flash_attention_varlen", opts.filter, "_bwd_", error);
}

int runVarlen(rt::Device &gpu, const VarlenOptions &opts, const std::vector<std::string> &kernels) {
  std::printf("# %s: tilec packed batches (varlen) next to the dense kernel, bf16, %lld tokens, "
              "hidden %lld; TFLOP/s (tilec-bench)\n",
              gpu.name().c_str(), static_cast<long long>(kTokens),
              static_cast<long long>(kHidden));
  std::printf("kernel\tlengths\td\tN\tB\tcausal\tdense ms\tvarlen ms\tdense TFLOP/s\tvarlen "
              "TFLOP/s\tvarlen/dense\trelerr\n");
  struct Loaded {
    std::string name;
    int64_t d;
    bool causal;
    rt::Kernel varlen, dense;
  };
  std::vector<Loaded> loaded;
  int failures = 0;
  std::string error;
  for (const std::string &name : kernels) {
    const std::string rest = name.substr(std::string("flash_attention_varlen").size());
    Loaded entry{name, headDimFromName(name), rest.find("causal") != std::string::npos, {}, {}};
    if (entry.d < 16 || kHidden % entry.d)
      error = "no head dimension _d{16..256}_ in the name";
    else if (loadKernel(gpu, opts.ptxDir, name, entry.varlen, error) &&
             loadKernel(gpu, opts.ptxDir, "flash_attention_fwd" + rest, entry.dense, error)) {
      loaded.push_back(std::move(entry));
      continue;
    }
    std::fprintf(stderr, "tilec-bench: %s: %s\n", name.c_str(), error.c_str());
    ++failures;
  }
  std::vector<VarlenRow> rows;
  std::map<std::pair<std::string, int64_t>, double> denseMs; // per (kernel, N): timed once
  for (int64_t n : opts.seqlens)
    for (int64_t d : {16, 32, 64, 128, 256}) {
      if (std::none_of(loaded.begin(), loaded.end(), [&](const Loaded &l) { return l.d == d; }))
        continue;
      for (bool ragged : {false, true}) {
        VarlenProblem problem(gpu, d, ragged ? raggedLengths(n)
                                             : std::vector<int64_t>(kTokens / n, n));
        if (!problem.upload(error)) {
          std::fprintf(stderr, "tilec-bench: varlen inputs for d=%lld N=%lld: %s\n",
                       static_cast<long long>(d), static_cast<long long>(n), error.c_str());
          ++failures;
          continue;
        }
        for (const Loaded &l : loaded) {
          if (l.d != d)
            continue;
          VarlenRow row{l.name, ragged ? "ragged" : "equal", d, n, problem.batch(),
                        problem.headCount(), l.causal, 0, 0, 0, 0, 0};
          auto dense = denseMs.find({l.name, n});
          if (dense != denseMs.end())
            row.denseMs = dense->second;
          else if (timeDense(gpu, l.dense, d, n, row.denseMs, error))
            denseMs[{l.name, n}] = row.denseMs;
          if (!row.denseMs || !problem.run(l.varlen, l.causal, row.varlenMs, row.error, error)) {
            std::fprintf(stderr, "tilec-bench: %s at N=%lld (%s): %s\n", l.name.c_str(),
                         static_cast<long long>(n), row.lengths.c_str(), error.c_str());
            ++failures;
            continue;
          }
          const double denseFlops = 4.0 * kTokens * n * (kHidden / d) * d * (l.causal ? 0.5 : 1.0);
          row.denseTflops = denseFlops / row.denseMs * 1e-9;
          row.varlenTflops = problem.flops(l.causal) / row.varlenMs * 1e-9;
          rows.push_back(row);
          std::printf("%s\t%s\t%lld\t%lld\t%lld\t%d\t%.4f\t%.4f\t%.1f\t%.1f\t%.3f\t%.2g\n",
                      row.kernel.c_str(), row.lengths.c_str(), static_cast<long long>(d),
                      static_cast<long long>(n), static_cast<long long>(row.batch),
                      row.causal ? 1 : 0, row.denseMs, row.varlenMs, row.denseTflops,
                      row.varlenTflops, row.varlenTflops / row.denseTflops, row.error);
          std::fflush(stdout);
        }
      }
    }
  if (!opts.json.empty())
    writeJson(opts.json, gpu.name(), rows);
  return failures ? 1 : 0;
}

} // namespace tilec::bench
