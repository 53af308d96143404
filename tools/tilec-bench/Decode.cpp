//===- Decode.cpp - tilec-bench --pass=decode: split-KV decoding ----------===//
//
// peer_sdpa.py --decode's problem: B = 64 sequences, 32 query heads on 8 K/V
// heads (group 4), d from the kernel's name, seq_q new tokens (1 unless
// --queries) against N cached keys. Time = the decoding kernel plus the
// combine (each the median of 7 means of 20 launches; one split needs no
// combine); reported as the K/V
// bytes read per second, as the peers are. Every run is checked first: O
// and LSE of every packed row of three K/V heads against attention in
// double precision over all keys. Kernels named _paged_..._p{P} read the
// same K and V as a paged cache of P-key pages, shuffled across sequences.
//
//===----------------------------------------------------------------------===//

#include "Bench.h"

#include "tilec/Support/Numeric.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <optional>
#include <random>
#include <sstream>

namespace tilec::bench {

namespace {

constexpr int64_t kQueryHeads = 32, kKvHeads = 8, kGroup = kQueryHeads / kKvHeads;

struct DecodeRow {
  std::string kernel;
  int64_t d, n, batch, queries, splits;
  double us, gbps, error;
  double combineUs; ///< of `us`
};

/// Q, K, V on the device (K and V tiled from one random pattern, whose
/// values the host keeps), the split outputs and the combined O and LSE.
class DecodeProblem {
public:
  DecodeProblem(rt::Device &gpu, int64_t d, int64_t n, int64_t batch, int64_t queries)
      : gpu(gpu), d(d), n(n), batch(batch), queries(queries), bhK(batch * kKvHeads),
        rows(kGroup * queries) {}
  ~DecodeProblem() {
    std::string ignored;
    for (uint64_t address : {q, k, v, o, lse, oPart, lsePart, table, lengths})
      if (address)
        gpu.free(address, ignored);
  }
  DecodeProblem(const DecodeProblem &) = delete;
  DecodeProblem &operator=(const DecodeProblem &) = delete;

  int64_t kvBytes() const { return 2 * bhK * n * d * 2; }

  bool upload(std::string &error) {
    std::mt19937_64 rng(n * 1000 + d + 13);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    auto randomValues = [&](int64_t count) {
      std::vector<double> values(count);
      for (double &x : values)
        x = roundTo(DType::BF16, uniform(rng));
      return values;
    };
    qHost = randomValues(bhK * rows * d);
    std::vector<uint8_t> qBytes = encode(DType::BF16, qHost);
    if (!gpu.alloc(qBytes.size(), q, error) ||
        !gpu.copyToDevice(q, qBytes.data(), qBytes.size(), error))
      return false;
    // K and V: 8 MiB of random values repeated, V shifted against K
    // (uploading gigabytes of fresh random numbers would take longer than
    // the benchmark).
    pattern = randomValues(kPattern);
    const int64_t total = bhK * n * d * 2;
    for (uint64_t *buffer : {&k, &v}) {
      std::vector<uint8_t> bytes = encode(DType::BF16, pattern);
      if (buffer == &v)
        std::rotate(bytes.begin(), bytes.begin() + kShift * 2, bytes.end());
      if (!gpu.alloc(total, *buffer, error))
        return false;
      for (int64_t at = 0; at < total; at += bytes.size())
        if (!gpu.copyToDevice(*buffer + at, bytes.data(),
                              std::min<int64_t>(bytes.size(), total - at), error))
          return false;
    }
    return gpu.alloc(bhK * rows * d * 2, o, error) && gpu.alloc(bhK * rows * 4, lse, error);
  }

  /// Checks and times `decode` + `combine` with `splits` runs; `pageSize`
  /// > 0: `decode` reads K and V as a paged cache (the same buffers as
  /// [num_pages, page_size, Hkv, d], the pages of all sequences shuffled).
  bool run(const std::string &name, const rt::Kernel &decode, const rt::Kernel &combine,
           int64_t splits, int64_t pageSize, DecodeRow &row, std::string &error) {
    std::string ignored;
    if (pageSize != pagedBy && !makePageTable(pageSize, error))
      return false;
    for (uint64_t *part : {&oPart, &lsePart})
      if (*part) {
        gpu.free(*part, ignored);
        *part = 0;
      }
    if (!gpu.alloc(splits * bhK * rows * d * 4, oPart, error) ||
        !gpu.alloc(splits * bhK * rows * 4, lsePart, error))
      return false;
    rt::TensorArg oParts{oPart, {splits, bhK, rows, d}, {bhK * rows * d, rows * d, d, 1}};
    rt::TensorArg lseParts{lsePart, {splits, bhK, rows}, {bhK * rows, rows, 1}};
    auto tensor3 = [&](uint64_t address, int64_t seq) {
      return rt::TensorArg{address, {bhK, seq, d}, {seq * d, d, 1}};
    };
    rt::TensorArg lses{lse, {bhK, rows}, {rows, 1}};
    std::vector<rt::Arg> decodeArgs = {tensor3(q, rows), tensor3(k, n), tensor3(v, n),
                                       tensor3(o, rows), lses, oParts, lseParts};
    if (pageSize) {
      const int64_t hkv = kKvHeads, rowsOfCache = batch * n; // tokens of all sequences
      auto cache = [&](uint64_t address) {
        return rt::TensorArg{address, {hkv, rowsOfCache, d}, {d, hkv * d, 1}};
      };
      const int64_t maxPages = n / pageSize;
      decodeArgs = {tensor3(q, rows),
                    cache(k),
                    cache(v),
                    rt::TensorArg{table, {batch, maxPages}, {maxPages, 1}},
                    rt::TensorArg{lengths, {batch}, {1}},
                    tensor3(o, rows),
                    lses,
                    oParts,
                    lseParts};
    }
    std::vector<rt::Arg> combineArgs = {oParts, lseParts, tensor3(o, rows), lses};
    std::optional<std::array<int64_t, 3>> decodeGrid = rt::launchGrid(decode.meta, decodeArgs, error);
    if (!decodeGrid)
      return false;
    std::optional<std::array<int64_t, 3>> combineGrid =
        rt::launchGrid(combine.meta, combineArgs, error);
    if (!combineGrid)
      return false;
    // One split writes O itself: no combine.
    const bool combined = splits > 1;
    std::vector<uint8_t> poison(bhK * rows * d * 2, 0xff); // NaN until written
    double relerr = 0, decodeMs = 0, combineMs = 0;
    if (!gpu.copyToDevice(o, poison.data(), poison.size(), error) ||
        !gpu.launch(decode, *decodeGrid, decodeArgs, error) ||
        (combined && !gpu.launch(combine, *combineGrid, combineArgs, error)) ||
        !gpu.synchronize(error) || !check(relerr, error) ||
        !timeKernel(gpu, decode, *decodeGrid, decodeArgs, decodeMs, error) ||
        (combined && !timeKernel(gpu, combine, *combineGrid, combineArgs, combineMs, error)))
      return false;
    double ms = decodeMs + combineMs;
    row = {name, d, n, batch, queries, splits, ms * 1e3, kvBytes() / ms * 1e-6, relerr,
           combineMs * 1e3};
    return true;
  }

private:
  /// The page table of `pageSize` (0: none): sequence b's page p is a
  /// shuffled page of the whole cache.
  bool makePageTable(int64_t pageSize, std::string &error) {
    pagedBy = pageSize;
    pageOf.clear();
    if (!pageSize)
      return true;
    if (n % pageSize) {
      error = "N = " + std::to_string(n) + " is not a multiple of the page size " +
              std::to_string(pageSize);
      return false;
    }
    std::vector<int32_t> pages(batch * (n / pageSize));
    for (size_t i = 0; i < pages.size(); ++i)
      pages[i] = static_cast<int32_t>(i);
    std::shuffle(pages.begin(), pages.end(), std::mt19937_64(pageSize));
    pageOf.assign(pages.begin(), pages.end());
    std::vector<int32_t> lens(batch, static_cast<int32_t>(n));
    std::string ignored;
    for (uint64_t *buffer : {&table, &lengths})
      if (*buffer) {
        gpu.free(*buffer, ignored);
        *buffer = 0;
      }
    return gpu.alloc(pages.size() * 4, table, error) &&
           gpu.copyToDevice(table, pages.data(), pages.size() * 4, error) &&
           gpu.alloc(lens.size() * 4, lengths, error) &&
           gpu.copyToDevice(lengths, lens.data(), lens.size() * 4, error);
  }

  /// Where element t of key j of K/V head h (of B·Hkv) is in the buffers.
  int64_t kvIndex(int64_t h, int64_t j, int64_t t) const {
    if (!pagedBy)
      return (h * n + j) * d + t;
    const int64_t b = h / kKvHeads, head = h % kKvHeads, perSequence = n / pagedBy;
    const int64_t row = pageOf[b * perSequence + j / pagedBy] * pagedBy + j % pagedBy;
    return (row * kKvHeads + head) * d + t;
  }

  static constexpr int64_t kPattern = int64_t{4} << 20, kShift = 12345;
  double kAt(int64_t index) const { return pattern[index % kPattern]; }
  double vAt(int64_t index) const { return pattern[(index + kShift) % kPattern]; }

  /// Every packed row of three K/V heads: O and LSE against attention in
  /// double precision over all keys; `worst` = max |O − ref| / max |ref|.
  bool check(double &worst, std::string &error) {
    const double scale = 1.0 / std::sqrt(static_cast<double>(d));
    std::vector<double> got, want, lseGot, lseWant;
    for (int64_t h : {int64_t{0}, bhK / 2, bhK - 1}) {
      std::vector<uint8_t> bytes(rows * d * 2);
      std::vector<float> l(rows);
      if (!gpu.copyToHost(bytes.data(), o + h * rows * d * 2, bytes.size(), error) ||
          !gpu.copyToHost(l.data(), lse + h * rows * 4, rows * 4, error))
        return false;
      std::vector<double> out = decode(DType::BF16, bytes);
      got.insert(got.end(), out.begin(), out.end());
      lseGot.insert(lseGot.end(), l.begin(), l.end());
      for (int64_t r = 0; r < rows; ++r) {
        std::vector<double> s(n);
        double mx = -std::numeric_limits<double>::infinity();
        for (int64_t j = 0; j < n; ++j) {
          double dot = 0;
          for (int64_t t = 0; t < d; ++t)
            dot += qHost[(h * rows + r) * d + t] * kAt(kvIndex(h, j, t));
          mx = std::max(mx, s[j] = dot * scale);
        }
        double sum = 0;
        for (double &x : s)
          sum += (x = std::exp(x - mx));
        std::vector<double> ref(d, 0.0);
        for (int64_t j = 0; j < n; ++j)
          for (int64_t t = 0; t < d; ++t)
            ref[t] += s[j] / sum * vAt(kvIndex(h, j, t));
        want.insert(want.end(), ref.begin(), ref.end());
        lseWant.push_back(mx + std::log(sum));
      }
    }
    return matchesReference(got, want, lseGot, lseWant, worst, error);
  }

  rt::Device &gpu;
  const int64_t d, n, batch, queries, bhK, rows;
  std::vector<double> qHost, pattern;
  uint64_t q = 0, k = 0, v = 0, o = 0, lse = 0, oPart = 0, lsePart = 0, table = 0, lengths = 0;
  int64_t pagedBy = 0;         ///< the page table's page size (0: none)
  std::vector<int64_t> pageOf; ///< [B, N / page size] pages
};

void writeJson(const std::string &path, const std::string &device,
               const std::vector<DecodeRow> &rows) {
  std::ofstream out(path);
  out << "{\n \"gpu\": \"" << device << "\",\n \"tool\": \"tilec-bench --pass=decode\",\n"
      << " \"Hq\": " << kQueryHeads << ", \"Hkv\": " << kKvHeads << ",\n \"rows\": [";
  for (size_t i = 0; i < rows.size(); ++i) {
    const DecodeRow &r = rows[i];
    out << (i ? ",\n  " : "\n  ") << "{\"kernel\": \"" << r.kernel << "\", \"d\": " << r.d
        << ", \"N\": " << r.n << ", \"B\": " << r.batch << ", \"seq_q\": " << r.queries
        << ", \"splits\": " << r.splits << ", \"us\": " << r.us << ", \"GBps\": " << r.gbps
        << ", \"combine_us\": " << r.combineUs << ", \"relerr\": " << r.error << "}";
  }
  out << "\n ]\n}\n";
}


} // namespace

std::vector<std::string> decodeKernels(const DecodeOptions &opts, std::string &error) {
  return listKernels(opts.ptxDir, "flash_attention_decode", opts.filter, "_combine", error);
}

int runDecode(rt::Device &gpu, const DecodeOptions &opts, const std::vector<std::string> &kernels) {
  std::printf("# %s (%d SMs): tilec decoding (split KV + combine), bf16, B = %lld, %lld query "
              "heads on %lld K/V heads; K/V GB/s (tilec-bench)\n",
              gpu.name().c_str(), gpu.multiprocessors(), static_cast<long long>(opts.batch),
              static_cast<long long>(kQueryHeads), static_cast<long long>(kKvHeads));
  std::printf("kernel\td\tN\tB\tseq_q\tsplits\tus\tGB/s\tcombine_us\trelerr\n");
  struct Loaded {
    std::string name;
    int64_t d, pageSize; ///< _paged kernels: _p{P} in the name
    rt::Kernel decode, combine;
  };
  std::vector<Loaded> loaded;
  int failures = 0;
  std::string error;
  for (const std::string &name : kernels) {
    Loaded entry{name, headDimFromName(name), numberInName(name, "_p"), {}, {}};
    std::string combine = "flash_attention_decode_combine_d" + std::to_string(entry.d);
    if (entry.d < 8)
      error = "no head dimension _d{D}_ in the name";
    else if (name.find("_paged") != std::string::npos && entry.pageSize <= 0)
      error = "a paged kernel needs its page size as _p{P} in the name";
    else if (loadKernel(gpu, opts.ptxDir, name, entry.decode, error) &&
             loadKernel(gpu, opts.ptxDir, combine, entry.combine, error)) {
      loaded.push_back(std::move(entry));
      continue;
    }
    std::fprintf(stderr, "tilec-bench: %s: %s\n", name.c_str(), error.c_str());
    ++failures;
  }
  std::vector<DecodeRow> rows;
  for (int64_t n : opts.seqlens)
    for (int64_t d : {64, 128, 256}) {
      if (std::none_of(loaded.begin(), loaded.end(), [&](const Loaded &l) { return l.d == d; }))
        continue;
      DecodeProblem problem(gpu, d, n, opts.batch, opts.queries);
      if (!problem.upload(error)) {
        std::fprintf(stderr, "tilec-bench: decode inputs for d=%lld N=%lld: %s\n",
                     static_cast<long long>(d), static_cast<long long>(n), error.c_str());
        ++failures;
        continue;
      }
      for (const Loaded &l : loaded) {
        if (l.d != d)
          continue;
        for (int64_t splits : opts.splits) {
          if (splits == 0)
            splits = rt::decodeSplits(opts.batch * kKvHeads, n, gpu.multiprocessors());
          DecodeRow row{};
          if (!problem.run(l.name, l.decode, l.combine, splits, l.pageSize, row, error)) {
            std::fprintf(stderr, "tilec-bench: %s at N=%lld, %lld splits: %s\n", l.name.c_str(),
                         static_cast<long long>(n), static_cast<long long>(splits),
                         error.c_str());
            ++failures;
            continue;
          }
          rows.push_back(row);
          std::printf("%s\t%lld\t%lld\t%lld\t%lld\t%lld\t%.1f\t%.0f\t%.1f\t%.2g\n",
                      row.kernel.c_str(), static_cast<long long>(row.d),
                      static_cast<long long>(row.n), static_cast<long long>(row.batch),
                      static_cast<long long>(row.queries), static_cast<long long>(row.splits),
                      row.us, row.gbps, row.combineUs, row.error);
          std::fflush(stdout);
        }
      }
    }
  if (!opts.json.empty())
    writeJson(opts.json, gpu.name(), rows);
  return failures ? 1 : 0;
}

} // namespace tilec::bench
