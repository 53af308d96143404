//===- Metadata.h - the launch metadata's schema, shared ----------*- C++ -*-===//
//
// `tilec --emit=ptx` writes <out>.json next to the PTX (with llvm::json);
// the runtime reads it (with the LLVM-free reader in Json.h). Both take the
// member names from here, and the launch grid is structured data that both
// check with the same rule (checkGridRule):
//
//   {
//     "kernel": "flash_attention_fwd", "arch": "sm_90a", "num_warps": 4,
//     "threads_per_block": 128, "shared_bytes": 49152,
//     "params": [{"name": "q", "kind": "tensor", "dtype": "bf16", "rank": 3,
//                 "aligned": true, "sizes": [null, null, 128]},
//                {"name": "doc", ..., "unit_stride": true}, ...],
//     "function_args": ["!llvm.ptr<1>", "i32", ...],
//     "grid": [{"param": "q", "axis": 1, "divisor": 128},
//              {"param": "q", "axis": 0, "divisor": 1}, {"constant": 1}],
//     (a packed batch's: {"param": "cu_seqlens_q", "axis": 0, "divisor": 1,
//      "less": 1}, one program per sequence of B + 1 offsets)
//     "tensor_maps": [{"param": "k", "box": [1, 64, 64], "swizzle": 128}, ...]
//   }
//
// A grid dimension is ceil(max(extent - less, 0) / divisor) programs, the
// extent being a constant, a scalar parameter's value ("param" without
// "axis") or a tensor parameter's size along "axis" ("less", absent: 0). A
// launch whose grid has no program launches nothing. "grid" is null when the
// kernel states none.
//
// "tensor_maps" (absent when there are none; the runtime also reads []) lists
// the CUDA tensor maps (CUtensorMap, 128 bytes, by value) that TMA copies read,
// one per tensor and box. They are the compiled function's trailing
// arguments, in this order, after those of every parameter: a launch passes
// only the tensor ("param", a tensor parameter's name) and the runtime
// encodes the map (cuTensorMapEncodeTiled) for the box ("box": elements per
// dimension, outermost first, the tensor's rank) and the shared-memory
// swizzle ("swizzle": 0, 32, 64 or 128 bytes). checkTensorMap says which
// maps CUDA can make. "threads_per_block" is the kernel's own (its
// .reqntid): with warp roles it exceeds 32 x "num_warps" (the warps the
// tiles are laid out over) by the producer warpgroup's 128.
// "persistent": true (absent: false) marks a kernel whose programs loop over
// its grid (tile-persistent-grid): the compiled function takes the grid
// (x, y, z programs, three i32) after every parameter's arguments and
// before the tensor maps, and a launch runs min(x·y·z, SMs × programs that
// fit on one SM) programs along x.
// "tile_counter": true (absent: false) marks a persistent kernel whose
// programs claim their tiles from a counter, a global of the loaded module
// (tilegpu-claim-tiles; zero at load, reset by each launch's last claim):
// launches through one loaded module must not overlap, so a launcher that
// uses several streams loads the module once per stream.
// A tensor parameter's "aligned": true (absent: false) says the kernel moves
// it in 16-byte vectors (a 16-byte aligned base, innermost stride 1, other
// strides and the innermost size multiples of 16 bytes); "unit_stride": true
// (absent: false) that it takes the innermost stride to be 1 (that size at
// most 1, or that stride 1). "sizes": [null, null, 80] (absent: any shape)
// gives the sizes the kernel was compiled for, null where any goes (the
// attention kernels' head dims). "sizes_of": [{"param": "k", "axis": 0}]
// (absent: none) gives, per dimension, the tensor parameter and dimension
// whose size it must have, null where any goes (the fused backward's
// dq_arrivals: one counter for each of k's heads). Launches are checked
// for all four.
// Header-only and free of LLVM, like everything the GPU machine builds.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_METADATA_H
#define TILEC_RUNTIME_METADATA_H

#include "tilec/DSL/Types.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilec {

/// One dimension of a launch grid: ceil(max(extent - less, 0) / divisor)
/// programs.
struct GridDim {
  enum class Kind {
    Constant, ///< the extent is `constant`
    Scalar,   ///< the value of scalar parameter `param`
    Shape,    ///< the size of tensor parameter `param` along `axis`
  };
  Kind kind = Kind::Constant;
  int64_t constant = 1;
  std::string param;
  int64_t axis = 0;
  int64_t divisor = 1;
  int64_t less = 0; ///< taken from the extent first (B + 1 offsets: B programs)

  static GridDim fixed(int64_t programs) { return {Kind::Constant, programs, "", 0, 1, 0}; }
  static GridDim scalar(std::string param, int64_t divisor = 1) {
    return {Kind::Scalar, 1, std::move(param), 0, divisor, 0};
  }
  static GridDim shape(std::string param, int64_t axis, int64_t divisor = 1, int64_t less = 0) {
    return {Kind::Shape, 1, std::move(param), axis, divisor, less};
  }
  /// One program per sequence of a packed batch: the offsets' size less one.
  static GridDim sequences(std::string offsets) { return shape(std::move(offsets), 0, 1, 1); }
};

/// The x, y, z dimensions of a launch grid, in terms of the kernel's arguments.
using GridRule = std::array<GridDim, 3>;

namespace metadata {

/// Members of the metadata document.
inline constexpr const char *kKernel = "kernel";
inline constexpr const char *kArch = "arch";
inline constexpr const char *kNumWarps = "num_warps";
inline constexpr const char *kThreadsPerBlock = "threads_per_block";
inline constexpr const char *kSharedBytes = "shared_bytes";
inline constexpr const char *kParams = "params";
inline constexpr const char *kFunctionArgs = "function_args";
inline constexpr const char *kGrid = "grid";
inline constexpr const char *kTensorMaps = "tensor_maps";
inline constexpr const char *kPersistent = "persistent";
inline constexpr const char *kTileCounter = "tile_counter";

/// Members of each entry of "params".
inline constexpr const char *kParamName = "name";
inline constexpr const char *kParamKind = "kind";
inline constexpr const char *kParamDType = "dtype";
inline constexpr const char *kParamRank = "rank";
inline constexpr const char *kParamAligned = "aligned";
inline constexpr const char *kParamUnitStride = "unit_stride";
inline constexpr const char *kParamSizes = "sizes";
/// One entry per dimension: null, or {"param": NAME, "axis": A}: the size
/// of tensor parameter NAME's dimension A.
inline constexpr const char *kParamSizesOf = "sizes_of";
inline constexpr const char *kSizeOfParam = "param";
inline constexpr const char *kSizeOfAxis = "axis";

/// Members of each entry of "grid".
inline constexpr const char *kGridConstant = "constant";
inline constexpr const char *kGridParam = "param";
inline constexpr const char *kGridAxis = "axis";
inline constexpr const char *kGridDivisor = "divisor";
inline constexpr const char *kGridLess = "less";

/// Members of each entry of "tensor_maps".
inline constexpr const char *kMapParam = "param";
inline constexpr const char *kMapBox = "box";
inline constexpr const char *kMapSwizzle = "swizzle";

} // namespace metadata

/// Members of a kernel case (`tilec --export-case=DIR` writes DIR/case.json,
/// tilec-run-case reads it): the kernel, its PTX and metadata files, the
/// launch, the buffers (input and expected contents) and the arguments.
namespace casefile {
inline constexpr const char *kKernel = "kernel";
inline constexpr const char *kPtx = "ptx";
inline constexpr const char *kMetadata = "metadata";
inline constexpr const char *kGrid = "grid"; ///< three numbers
inline constexpr const char *kTolerance = "tolerance";
/// false (absent: true) when outputs are sums of atomic adds, so a second
/// launch matches the expected values but not necessarily the first's bits.
inline constexpr const char *kRepeatable = "repeatable";
inline constexpr const char *kBuffers = "buffers";
inline constexpr const char *kBufferName = "name";
inline constexpr const char *kBufferDType = "dtype";
inline constexpr const char *kBufferInput = "input";       ///< file of device bytes
inline constexpr const char *kBufferExpected = "expected"; ///< file of doubles, or null
inline constexpr const char *kArgs = "args";
inline constexpr const char *kArgTensor = "tensor";   ///< buffer index
inline constexpr const char *kArgPointer = "pointer"; ///< buffer index
inline constexpr const char *kArgScalar = "scalar";   ///< the value
inline constexpr const char *kArgShape = "shape";
inline constexpr const char *kArgStrides = "strides";
inline constexpr const char *kArgOffset = "offset"; ///< elements into the buffer
} // namespace casefile

namespace metadata {

/// The "kind" of a parameter: "tensor", "pointer" or "scalar".
inline const char *kindName(KernelParam::Kind kind) {
  switch (kind) {
  case KernelParam::Kind::Tensor: return "tensor";
  case KernelParam::Kind::Pointer: return "pointer";
  case KernelParam::Kind::Scalar: return "scalar";
  }
  return "?";
}

inline std::optional<KernelParam::Kind> parseKind(std::string_view name) {
  for (KernelParam::Kind kind :
       {KernelParam::Kind::Tensor, KernelParam::Kind::Pointer, KernelParam::Kind::Scalar})
    if (name == kindName(kind))
      return kind;
  return std::nullopt;
}

} // namespace metadata

/// "[cdiv(q.shape[1], 128), q.shape[0], 1]": the rule as a formula.
inline std::string toString(const GridRule &rule) {
  std::string text = "[";
  for (size_t i = 0; i < rule.size(); ++i) {
    const GridDim &dim = rule[i];
    std::string extent = dim.kind == GridDim::Kind::Constant ? std::to_string(dim.constant)
                         : dim.kind == GridDim::Kind::Scalar
                             ? dim.param
                             : dim.param + ".shape[" + std::to_string(dim.axis) + "]";
    text += (i ? ", " : "") + (dim.divisor == 1 ? extent
                                                : "cdiv(" + extent + ", " +
                                                      std::to_string(dim.divisor) + ")");
  }
  return text + "]";
}

/// Empty when every dimension of `rule` names what `params` have (a tensor
/// and one of its axes, or an integer scalar) with a positive constant and
/// divisor; else what is wrong, starting with "grid[i]".
inline std::string checkGridRule(const GridRule &rule, const KernelSignature &params) {
  for (size_t i = 0; i < rule.size(); ++i) {
    const GridDim &dim = rule[i];
    std::string where = "grid[" + std::to_string(i) + "]: ";
    if (dim.divisor < 1)
      return where + "the divisor must be positive, got " + std::to_string(dim.divisor);
    if (dim.less < 0 || (dim.less && dim.kind == GridDim::Kind::Constant))
      return where + "'less' must be 0 or positive, with a parameter; got " +
             std::to_string(dim.less);
    if (dim.kind == GridDim::Kind::Constant) {
      if (dim.constant < 1)
        return where + "the constant must be positive, got " + std::to_string(dim.constant);
      continue;
    }
    const KernelParam *param = nullptr;
    for (const KernelParam &p : params)
      if (p.name == dim.param)
        param = &p;
    if (!param)
      return where + "'" + dim.param + "' is not a parameter of the kernel";
    bool integer = param->dtype == DType::I32 || param->dtype == DType::I64;
    if (dim.kind == GridDim::Kind::Scalar &&
        (param->kind != KernelParam::Kind::Scalar || !integer))
      return where + "'" + dim.param + "' is a " + metadata::kindName(param->kind) +
             (param->kind == KernelParam::Kind::Tensor ? "; name an axis of it"
                                                       : ", not an integer scalar");
    if (dim.kind == GridDim::Kind::Shape && param->kind != KernelParam::Kind::Tensor)
      return where + "'" + dim.param + "' is a " + metadata::kindName(param->kind) +
             ", it has no axis";
    if (dim.kind == GridDim::Kind::Shape && (dim.axis < 0 || dim.axis >= static_cast<int64_t>(param->rank)))
      return where + "'" + dim.param + "' has rank " + std::to_string(param->rank) +
             ", no axis " + std::to_string(dim.axis);
  }
  return "";
}

/// A CUDA tensor map that the kernel takes as a trailing function argument:
/// how its TMA copies read boxes of a tensor parameter into shared memory.
struct TensorMapParam {
  size_t param = 0;         ///< index of the tensor parameter
  std::vector<int64_t> box; ///< elements per dimension, outermost first
  int64_t swizzle = 0;      ///< the swizzle span in bytes: 0 (none), 32, 64 or 128
};

/// Empty when cuTensorMapEncodeTiled can make `map` for `params` as the
/// runtime calls it (no interleave, element strides 1): a bf16, f16 or f32
/// tensor parameter of rank 1 to 5, a box of that rank with every dimension
/// in [1, 256], its innermost row whole 16-byte units and, when swizzled, no
/// wider than the swizzle span; else what is wrong.
inline std::string checkTensorMap(const TensorMapParam &map, const KernelSignature &params) {
  if (map.param >= params.size())
    return "parameter " + std::to_string(map.param) + " does not exist; the kernel has " +
           std::to_string(params.size());
  const KernelParam &param = params[map.param];
  std::string name = "'" + param.name + "'";
  if (param.kind != KernelParam::Kind::Tensor)
    return name + " is a " + metadata::kindName(param.kind) + ", not a tensor";
  if (param.dtype != DType::BF16 && param.dtype != DType::F16 && param.dtype != DType::F32)
    return name + " is " + std::string(toString(param.dtype)) +
           "; tensor maps are supported for bf16, f16 and f32";
  if (param.rank < 1 || param.rank > 5)
    return name + " has rank " + std::to_string(param.rank) + "; a tensor map has rank 1 to 5";
  if (map.box.size() != param.rank)
    return "the box has rank " + std::to_string(map.box.size()) + ", " + name + " has rank " +
           std::to_string(param.rank);
  for (size_t d = 0; d < map.box.size(); ++d)
    if (map.box[d] < 1 || map.box[d] > 256)
      return "box[" + std::to_string(d) + "] = " + std::to_string(map.box[d]) +
             " is outside [1, 256]";
  if (map.swizzle != 0 && map.swizzle != 32 && map.swizzle != 64 && map.swizzle != 128)
    return "swizzle " + std::to_string(map.swizzle) + " is not 0, 32, 64 or 128 bytes";
  int64_t rowBytes = map.box.back() * byteSize(param.dtype);
  std::string row = "the box's innermost dimension is " + std::to_string(rowBytes) + " bytes (" +
                    std::to_string(map.box.back()) + " x " +
                    std::string(toString(param.dtype)) + ")";
  if (rowBytes % 16 != 0)
    return row + ", not a multiple of 16";
  // A swizzled box row is permuted in 16-byte units within one span.
  if (map.swizzle > 0 && rowBytes > map.swizzle)
    return row + ", wider than the " + std::to_string(map.swizzle) + "-byte swizzle span";
  return "";
}

} // namespace tilec

#endif // TILEC_RUNTIME_METADATA_H
