//===- Runtime.h - load tilec PTX and launch it (CUDA driver API) -*- C++ -*-===//
//
// The runtime opens libcuda.so.1 with dlopen when first used: nothing links
// against CUDA at build time, so every machine builds it and machines without
// a GPU report why they cannot run. Every CUDA error is reported by name,
// with the call and what it was doing.
//
//   std::string error;
//   tilec::rt::Device *gpu = tilec::rt::Device::open(error);
//   tilec::rt::KernelMetadata meta;  parseMetadata(jsonText, meta, error);
//   tilec::rt::Kernel kernel;        gpu->load(ptxText, meta, kernel, error);
//   gpu->launch(kernel, {blocks, heads, 1}, {TensorArg{q, {h, n, d}, {n*d, d, 1}}, ...}, error);
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_RUNTIME_H
#define TILEC_RUNTIME_RUNTIME_H

#include "tilec/DSL/Types.h"
#include "tilec/Runtime/Metadata.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace tilec::rt {

/// What `tilec --emit=ptx` writes next to the PTX (schema: Metadata.h).
struct KernelMetadata {
  std::string kernel;
  std::string arch;
  int64_t numWarps = 0;
  int64_t threadsPerBlock = 0;
  int64_t sharedBytes = 0;
  KernelSignature params;
  /// The compiled function's argument types, e.g. "!llvm.ptr<1>", "i32".
  std::vector<std::string> functionArgs;
  /// The launch grid in terms of the arguments, checked against `params`
  /// (none when the kernel states none).
  std::optional<GridRule> grid;
  /// The CUDA tensor maps the launch makes from tensor arguments and passes
  /// after all of `functionArgs`' other arguments, in this order (each
  /// checked with checkTensorMap).
  std::vector<TensorMapParam> tensorMaps;
  /// Programs loop over the grid (metadata "persistent"): a launch passes the
  /// grid as arguments and runs Kernel::residentPrograms programs at most.
  bool persistent = false;
  /// Its programs claim tiles from a counter of the loaded module (metadata
  /// "tile_counter"): launches through one module must not overlap (this
  /// runtime launches on the default stream only, so they do not).
  bool tileCounter = false;
};
/// Reads and checks metadata; false, with what is wrong, on malformed text.
bool parseMetadata(const std::string &text, KernelMetadata &meta, std::string &error);

/// The whole file at `path` (PTX, a cubin, JSON, raw data); false when it
/// cannot be opened.
bool readFile(const std::string &path, std::string &out);

/// A tensor argument: device address, shape and strides (in elements).
struct TensorArg {
  uint64_t address = 0;
  std::vector<int64_t> shape, strides;
};
struct PointerArg {
  uint64_t address = 0;
};
using Arg = std::variant<TensorArg, PointerArg, double>;

/// Checks launch arguments against a kernel's parameters (count, kinds,
/// ranks, sizes, alignment requirements, those of its tensor maps); empty
/// when they fit, else what is wrong. `launch` runs this first; it needs no GPU.
std::string checkArguments(const KernelMetadata &meta, const std::vector<Arg> &args);

/// The grid that the metadata's rule gives for `args` (checked first, as
/// checkArguments does); none, with why, when the kernel states no grid or
/// the arguments do not fit.
std::optional<std::array<int64_t, 3>> launchGrid(const KernelMetadata &meta,
                                                 const std::vector<Arg> &args,
                                                 std::string &error);

/// What cuTensorMapEncodeTiled takes to make one of a kernel's tensor maps
/// for a tensor argument, in CUDA's order: innermost dimension first.
struct TensorMapEncoding {
  int dataType = 0; ///< CUtensorMapDataType
  uint64_t address = 0;
  std::vector<uint64_t> globalDim;     ///< rank sizes
  std::vector<uint64_t> globalStrides; ///< rank - 1 strides in bytes, dimension 1 first
  std::vector<uint32_t> boxDim, elementStrides;
  int interleave = 0, swizzle = 0, l2Promotion = 0, oobFill = 0; ///< CUDA's enums
};

/// The encoding of `meta.tensorMaps[map]` for `tensor`, its tensor
/// argument; empty when the tensor meets TMA's rules (a 16-byte aligned
/// address, innermost stride 1, the other strides multiples of 16 bytes below
/// 2^40), else what is wrong. `launch` encodes what this gives; it needs no GPU.
std::string tensorMapEncoding(const KernelMetadata &meta, size_t map, const TensorArg &tensor,
                              TensorMapEncoding &encoding);
/// "bf16 at 0x..., globalDim [...], ...": for error messages.
std::string toString(const TensorMapEncoding &encoding);

/// How many runs split-KV decoding (flash_attention_decode) cuts `seqK`
/// keys into when `programs` programs (B·Hkv·row blocks) run per run on
/// `multiprocessors` SMs: about one program per SM, each run at least 256
/// keys, at most 64 runs; 1 (no combine) once the programs fill the SMs.
int64_t decodeSplits(int64_t programs, int64_t seqK, int64_t multiprocessors);

struct Kernel {
  void *module = nullptr;
  void *function = nullptr;
  KernelMetadata meta;
  /// A persistent kernel's programs that fit on the GPU at once (occupancy
  /// per SM x SMs), found when it is loaded; at most $TILEC_PERSISTENT_PROGRAMS
  /// where that is set (tests: every program loops over several tiles).
  int64_t residentPrograms = 0;
};

class Device {
public:
  /// Device 0 with its primary context; null (and the reason) where there is
  /// no driver or no GPU.
  static Device *open(std::string &error);

  std::string name() const;
  /// Streaming multiprocessors (132 on an H200): what split-KV decoding
  /// sizes its grid by.
  int multiprocessors() const;

  bool alloc(size_t bytes, uint64_t &address, std::string &error);
  bool free(uint64_t address, std::string &error);
  bool copyToDevice(uint64_t address, const void *data, size_t bytes, std::string &error);
  bool copyToHost(void *data, uint64_t address, size_t bytes, std::string &error);

  /// Loads PTX text or a cubin image and finds the metadata's kernel in it.
  bool load(const std::string &image, const KernelMetadata &meta, Kernel &kernel,
            std::string &error);
  /// Checks `args` against the kernel's parameters and every tensor's reach
  /// (shape × strides) against the device allocation its address lies in,
  /// encodes its tensor maps from them and launches it on the default stream with the metadata's
  /// block size and shared memory.
  bool launch(const Kernel &kernel, std::array<int64_t, 3> grid, const std::vector<Arg> &args,
              std::string &error);
  bool synchronize(std::string &error);

  /// Milliseconds taken by `repeats` launches back to back, measured with CUDA events.
  bool time(const Kernel &kernel, std::array<int64_t, 3> grid, const std::vector<Arg> &args,
            int repeats, float &milliseconds, std::string &error);

private:
  Device() = default;
  bool check(int result, const char *call, const std::string &context, std::string &error);
};

} // namespace tilec::rt

#endif // TILEC_RUNTIME_RUNTIME_H
