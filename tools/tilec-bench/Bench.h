//===- Bench.h - what tilec-bench's passes share ----------------*- C++ -*-===//

#ifndef TILEC_TOOLS_TILEC_BENCH_BENCH_H
#define TILEC_TOOLS_TILEC_BENCH_BENCH_H

#include "tilec/Runtime/Runtime.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tilec::bench {

/// The number N of the first `<tag>N` field of a name (fields split at
/// '_'), e.g. 128 for tag "_d" in flash_attention_fwd_d128_m128_...; 0
/// when there is none.
int64_t numberInName(const std::string &name, const std::string &tag);
inline int64_t headDimFromName(const std::string &name) { return numberInName(name, "_d"); }

/// Sampled outputs against their reference: O within 2e-2 and (when given)
/// LSE within 1e-3 normalized error; `worst` = O's. False, with why, else.
bool matchesReference(const std::vector<double> &got, const std::vector<double> &want,
                      const std::vector<double> &lseGot, const std::vector<double> &lseWant,
                      double &worst, std::string &error);

/// Median over 7 repeats of the mean of 20 back-to-back launches, after 5
/// warm-up launches (milliseconds).
bool timeKernel(rt::Device &gpu, const rt::Kernel &kernel, std::array<int64_t, 3> grid,
                const std::vector<rt::Arg> &args, double &median, std::string &error);

/// The kernels DIR/PREFIX*.ptx whose names contain `filter` and not
/// `exclude` (when given), without ".ptx", sorted; when there are none,
/// `error` says so.
std::vector<std::string> listKernels(const std::string &dir, const std::string &prefix,
                                     const std::string &filter, const std::string &exclude,
                                     std::string &error);

/// Loads DIR/NAME.ptx with its NAME.json metadata.
bool loadKernel(rt::Device &gpu, const std::string &dir, const std::string &name,
                rt::Kernel &kernel, std::string &error);

/// --pass=decode (Decode.cpp).
struct DecodeOptions {
  std::string ptxDir, filter, json;
  std::vector<int64_t> seqlens;
  /// Split counts to time; 0 is the runtime's choice (rt::decodeSplits).
  std::vector<int64_t> splits = {0};
  int64_t batch = 64, queries = 1;
};
/// The decoding kernels of the directory (not the combine), sorted.
std::vector<std::string> decodeKernels(const DecodeOptions &opts, std::string &error);
/// Checks and times every decoding kernel on every --seqlens; exit code.
int runDecode(rt::Device &gpu, const DecodeOptions &opts, const std::vector<std::string> &kernels);

/// --pass=varlen (Varlen.cpp).
struct VarlenOptions {
  std::string ptxDir, filter, json;
  std::vector<int64_t> seqlens;
};
/// The packed-batch kernels of the directory, sorted.
std::vector<std::string> varlenKernels(const VarlenOptions &opts, std::string &error);
/// Checks and times every packed-batch kernel next to its dense kernel; exit code.
int runVarlen(rt::Device &gpu, const VarlenOptions &opts, const std::vector<std::string> &kernels);

} // namespace tilec::bench

#endif // TILEC_TOOLS_TILEC_BENCH_BENCH_H
