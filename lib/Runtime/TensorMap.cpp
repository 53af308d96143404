//===- TensorMap.cpp - CUDA tensor maps for a kernel's TMA copies ---------===//
//
// A kernel compiled with TMA copies takes one CUtensorMap per tensor and box
// as a trailing argument. The user passes only the tensor; here is what
// cuTensorMapEncodeTiled needs to make its map, worked out and checked
// without a GPU (Runtime.cpp makes the call). CUDA lists dimensions
// innermost first, the metadata and TensorArg outermost first.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Runtime.h"

#include <cstdio>

namespace tilec::rt {

namespace {

// CUDA's enum values (cuda.h, which the runtime does not include).
constexpr int kDataTypeFloat16 = 6;  // CU_TENSOR_MAP_DATA_TYPE_FLOAT16
constexpr int kDataTypeFloat32 = 7;  // CU_TENSOR_MAP_DATA_TYPE_FLOAT32
constexpr int kDataTypeBFloat16 = 9; // CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
constexpr int kInterleaveNone = 0;   // CU_TENSOR_MAP_INTERLEAVE_NONE
constexpr int kL2Promotion256B = 3;  // CU_TENSOR_MAP_L2_PROMOTION_L2_256B
constexpr int kOobFillNone = 0;      // CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE

int dataType(DType type) {
  switch (type) {
  case DType::F16: return kDataTypeFloat16;
  case DType::F32: return kDataTypeFloat32;
  default: return kDataTypeBFloat16; // checkTensorMap admits no other
  }
}

/// CU_TENSOR_MAP_SWIZZLE_NONE, _32B, _64B, _128B for a span of 0, 32, 64 or
/// 128 bytes.
int swizzleMode(int64_t bytes) { return bytes == 0 ? 0 : bytes == 32 ? 1 : bytes == 64 ? 2 : 3; }

template <typename T> std::string list(const std::vector<T> &values) {
  std::string text = "[";
  for (size_t i = 0; i < values.size(); ++i)
    text += (i ? ", " : "") + std::to_string(values[i]);
  return text + "]";
}

std::string hex(uint64_t value) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

/// Empty when `tensor` meets what TMA requires of the memory it reads,
/// else which requirement it misses.
std::string checkTensor(const TensorArg &tensor, int64_t elementBytes) {
  if (tensor.address % 16 != 0)
    return "a 16-byte aligned address, got " + hex(tensor.address);
  if (tensor.strides.back() != 1)
    return "innermost stride 1, got " + std::to_string(tensor.strides.back());
  // Strides are in bytes and unsigned there: 0 (a broadcast) passes here
  // and is for the driver to judge.
  const int64_t limit = (int64_t{1} << 40) / elementBytes; // elements
  for (size_t d = 0; d + 1 < tensor.strides.size(); ++d) {
    int64_t stride = tensor.strides[d];
    bool inRange = stride >= 0 && stride < limit;
    if (!inRange || stride * elementBytes % 16 != 0)
      return "the strides of all but the innermost dimension to be multiples of 16 bytes "
             "below 2^40, got strides[" +
             std::to_string(d) + "] = " + std::to_string(stride) + " elements" +
             (inRange ? " = " + std::to_string(stride * elementBytes) + " bytes" : "");
  }
  return "";
}

} // namespace

std::string tensorMapEncoding(const KernelMetadata &meta, size_t map, const TensorArg &tensor,
                              TensorMapEncoding &encoding) {
  if (map >= meta.tensorMaps.size())
    return "tensor_maps[" + std::to_string(map) + "] does not exist";
  const TensorMapParam &tensorMap = meta.tensorMaps[map];
  std::string where = "tensor_maps[" + std::to_string(map) + "]";
  if (std::string why = checkTensorMap(tensorMap, meta.params); !why.empty())
    return where + ": " + why;
  const KernelParam &param = meta.params[tensorMap.param];
  if (tensor.shape.size() != param.rank || tensor.strides.size() != param.rank)
    return where + ": expected a tensor of rank " + std::to_string(param.rank);
  int64_t elementBytes = byteSize(param.dtype);
  if (std::string why = checkTensor(tensor, elementBytes); !why.empty())
    return "its tensor map (" + where + ", box " + list(tensorMap.box) + ") needs " + why;

  encoding = TensorMapEncoding{};
  encoding.dataType = dataType(param.dtype);
  encoding.address = tensor.address;
  for (size_t d = param.rank; d-- > 0;) {
    // An empty dimension is no valid globalDim; a kernel with one runs no
    // iteration of the loop that reads the map, so any size will do.
    encoding.globalDim.push_back(tensor.shape[d] > 0 ? tensor.shape[d] : 1);
    if (d > 0)
      encoding.globalStrides.push_back(tensor.strides[d - 1] * elementBytes);
    encoding.boxDim.push_back(static_cast<uint32_t>(tensorMap.box[d]));
    encoding.elementStrides.push_back(1);
  }
  encoding.interleave = kInterleaveNone;
  encoding.swizzle = swizzleMode(tensorMap.swizzle);
  encoding.l2Promotion = kL2Promotion256B;
  encoding.oobFill = kOobFillNone;
  return "";
}

std::string toString(const TensorMapEncoding &encoding) {
  const char *type = encoding.dataType == kDataTypeFloat16   ? "f16"
                     : encoding.dataType == kDataTypeFloat32 ? "f32"
                                                             : "bf16";
  return std::string(type) + " at " + hex(encoding.address) + ", globalDim " +
         list(encoding.globalDim) + ", globalStrides " + list(encoding.globalStrides) +
         " bytes, boxDim " + list(encoding.boxDim) + ", swizzle mode " +
         std::to_string(encoding.swizzle);
}

} // namespace tilec::rt
