//===- Runtime.cpp - load tilec PTX and launch it (CUDA driver API) -------===//

#include "tilec/Runtime/Runtime.h"

#include "tilec/Runtime/Json.h"
#include "tilec/Support/Numeric.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <sstream>
#include <optional>

namespace tilec::rt {

namespace {

// The few CUDA driver API types and entry points used, declared here so that
// no CUDA header or library is needed to build.
using CUresult = int;
using CUdevice = int;
using CUcontext = void *;
using CUmodule = void *;
using CUfunction = void *;
using CUstream = void *;
using CUevent = void *;
using CUdeviceptr = unsigned long long;

constexpr int kMaxDynamicSharedSize = 8; // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES

struct Api {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetName)(char *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*cuMemGetAddressRange)(CUdeviceptr *, size_t *, CUdeviceptr);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuModuleLoadData)(CUmodule *, const void *);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int);
  CUresult (*cuOccupancyMaxActiveBlocksPerMultiprocessor)(int *, CUfunction, int, size_t);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, CUstream, void **, void **);
  CUresult (*cuEventCreate)(CUevent *, unsigned);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);
  CUresult (*cuEventDestroy)(CUevent);
  CUresult (*cuGetErrorName)(CUresult, const char **);
  CUresult (*cuGetErrorString)(CUresult, const char **);
  // Optional (CUDA 12.0 and newer): only kernels with tensor maps need it.
  CUresult (*cuTensorMapEncodeTiled)(void *tensorMap, int dataType, uint32_t rank,
                                     void *globalAddress, const uint64_t *globalDim,
                                     const uint64_t *globalStrides, const uint32_t *boxDim,
                                     const uint32_t *elementStrides, int interleave, int swizzle,
                                     int l2Promotion, int oobFill);
};

Api api;
CUdevice device = 0;

template <typename Fn> bool resolve(void *lib, Fn &fn, const char *name, std::string &error) {
  fn = reinterpret_cast<Fn>(dlsym(lib, name));
  if (!fn)
    error = std::string("libcuda.so.1 has no ") + name;
  return fn != nullptr;
}

std::string errorName(CUresult result) {
  const char *name = nullptr, *text = nullptr;
  if (api.cuGetErrorName)
    api.cuGetErrorName(result, &name);
  if (api.cuGetErrorString)
    api.cuGetErrorString(result, &text);
  return std::string(name ? name : "CUDA error " + std::to_string(result)) +
         (text ? std::string(" (") + text + ")" : "");
}

} // namespace

bool Device::check(int result, const char *call, const std::string &context,
                   std::string &error) {
  if (result == 0)
    return true;
  error = std::string(call) + (context.empty() ? "" : " (" + context + ")") + ": " +
          errorName(result);
  return false;
}

Device *Device::open(std::string &error) {
  static Device *opened = nullptr;
  static std::string openError;
  if (opened || !openError.empty()) {
    error = openError;
    return opened;
  }
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    openError = std::string("cannot load the CUDA driver (libcuda.so.1): ") + dlerror();
    error = openError;
    return nullptr;
  }
  bool ok = resolve(lib, api.cuInit, "cuInit", openError) &&
            resolve(lib, api.cuDeviceGet, "cuDeviceGet", openError) &&
            resolve(lib, api.cuDeviceGetName, "cuDeviceGetName", openError) &&
            resolve(lib, api.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", openError) &&
            resolve(lib, api.cuCtxSetCurrent, "cuCtxSetCurrent", openError) &&
            resolve(lib, api.cuCtxSynchronize, "cuCtxSynchronize", openError) &&
            resolve(lib, api.cuMemAlloc, "cuMemAlloc_v2", openError) &&
            resolve(lib, api.cuMemFree, "cuMemFree_v2", openError) &&
            resolve(lib, api.cuMemcpyHtoD, "cuMemcpyHtoD_v2", openError) &&
            resolve(lib, api.cuMemcpyDtoH, "cuMemcpyDtoH_v2", openError) &&
            resolve(lib, api.cuMemGetAddressRange, "cuMemGetAddressRange_v2", openError) &&
            resolve(lib, api.cuDeviceGetAttribute, "cuDeviceGetAttribute", openError) &&
            resolve(lib, api.cuModuleLoadData, "cuModuleLoadData", openError) &&
            resolve(lib, api.cuModuleGetFunction, "cuModuleGetFunction", openError) &&
            resolve(lib, api.cuFuncSetAttribute, "cuFuncSetAttribute", openError) &&
            resolve(lib, api.cuOccupancyMaxActiveBlocksPerMultiprocessor,
                    "cuOccupancyMaxActiveBlocksPerMultiprocessor", openError) &&
            resolve(lib, api.cuLaunchKernel, "cuLaunchKernel", openError) &&
            resolve(lib, api.cuEventCreate, "cuEventCreate", openError) &&
            resolve(lib, api.cuEventRecord, "cuEventRecord", openError) &&
            resolve(lib, api.cuEventSynchronize, "cuEventSynchronize", openError) &&
            resolve(lib, api.cuEventElapsedTime, "cuEventElapsedTime", openError) &&
            resolve(lib, api.cuEventDestroy, "cuEventDestroy_v2", openError) &&
            resolve(lib, api.cuGetErrorName, "cuGetErrorName", openError) &&
            resolve(lib, api.cuGetErrorString, "cuGetErrorString", openError);
  if (!ok) {
    error = openError;
    return nullptr;
  }
  // An older driver still runs every kernel without tensor maps; launching
  // one with them says what is missing.
  api.cuTensorMapEncodeTiled = reinterpret_cast<decltype(api.cuTensorMapEncodeTiled)>(
      dlsym(lib, "cuTensorMapEncodeTiled"));
  Device probe;
  CUcontext context = nullptr;
  if (!probe.check(api.cuInit(0), "cuInit", "", openError) ||
      !probe.check(api.cuDeviceGet(&device, 0), "cuDeviceGet", "device 0", openError) ||
      !probe.check(api.cuDevicePrimaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain",
                   "", openError) ||
      !probe.check(api.cuCtxSetCurrent(context), "cuCtxSetCurrent", "", openError)) {
    error = openError;
    return nullptr;
  }
  opened = new Device();
  return opened;
}

int Device::multiprocessors() const {
  constexpr int kMultiprocessorCount = 16; // CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT
  int count = 0;
  return api.cuDeviceGetAttribute(&count, kMultiprocessorCount, device) == 0 ? count : 1;
}

std::string Device::name() const {
  char name[256] = {0};
  api.cuDeviceGetName(name, sizeof name, device);
  return name;
}

bool Device::alloc(size_t bytes, uint64_t &address, std::string &error) {
  CUdeviceptr ptr = 0;
  if (!check(api.cuMemAlloc(&ptr, bytes ? bytes : 1), "cuMemAlloc",
             std::to_string(bytes) + " bytes", error))
    return false;
  address = ptr;
  return true;
}

bool Device::free(uint64_t address, std::string &error) {
  return check(api.cuMemFree(address), "cuMemFree", "", error);
}

bool Device::copyToDevice(uint64_t address, const void *data, size_t bytes, std::string &error) {
  return check(api.cuMemcpyHtoD(address, data, bytes), "cuMemcpyHtoD",
               std::to_string(bytes) + " bytes", error);
}

bool Device::copyToHost(void *data, uint64_t address, size_t bytes, std::string &error) {
  return check(api.cuMemcpyDtoH(data, address, bytes), "cuMemcpyDtoH",
               std::to_string(bytes) + " bytes", error);
}

bool Device::load(const std::string &image, const KernelMetadata &meta, Kernel &kernel,
                  std::string &error) {
  CUmodule module = nullptr;
  // PTX must be NUL-terminated for cuModuleLoadData; std::string is.
  if (!check(api.cuModuleLoadData(&module, image.c_str()), "cuModuleLoadData",
             "kernel " + meta.kernel + ", " + meta.arch, error))
    return false;
  CUfunction function = nullptr;
  if (!check(api.cuModuleGetFunction(&function, module, meta.kernel.c_str()),
             "cuModuleGetFunction", meta.kernel, error))
    return false;
  if (meta.sharedBytes > 48 * 1024 &&
      !check(api.cuFuncSetAttribute(function, kMaxDynamicSharedSize,
                                    static_cast<int>(meta.sharedBytes)),
             "cuFuncSetAttribute", "dynamic shared memory " + std::to_string(meta.sharedBytes),
             error))
    return false;
  kernel = Kernel{module, function, meta};
  if (meta.persistent) {
    // As many programs as can run at once: the rest of the grid is looped over.
    int perSM = 0;
    if (!check(api.cuOccupancyMaxActiveBlocksPerMultiprocessor(
                   &perSM, function, static_cast<int>(meta.threadsPerBlock),
                   static_cast<size_t>(meta.sharedBytes)),
               "cuOccupancyMaxActiveBlocksPerMultiprocessor", meta.kernel, error))
      return false;
    if (perSM < 1) {
      error = meta.kernel + ": not one program fits on an SM (" +
              std::to_string(meta.threadsPerBlock) + " threads, " +
              std::to_string(meta.sharedBytes) + " bytes of shared memory)";
      return false;
    }
    kernel.residentPrograms = int64_t{perSM} * multiprocessors();
    // Tests make each program loop over many tiles with small grids.
    if (const char *cap = std::getenv("TILEC_PERSISTENT_PROGRAMS"); cap && std::atoll(cap) > 0)
      kernel.residentPrograms = std::min<int64_t>(kernel.residentPrograms, std::atoll(cap));
  }
  return true;
}

namespace {

/// One CUtensorMap: 128 opaque bytes that cuLaunchKernel copies from a
/// 64-byte aligned address.
struct alignas(64) TensorMapStorage {
  unsigned char bytes[128];
};

/// Kernel parameter storage: one slot per compiled-function argument but the
/// tensor maps, which trail them, encoded by `launch` into `maps`.
struct PackedArgs {
  std::vector<std::array<unsigned char, 8>> slots;
  std::vector<TensorMapEncoding> encodings; ///< one per map, checked
  std::vector<TensorMapStorage> maps;
  std::vector<void *> pointers; ///< into `slots`, then into `maps`
};

/// False, with what is wrong with argument `i` of the launch.
bool argumentError(const KernelMetadata &meta, size_t i, const std::string &what,
                   std::string &error) {
  const KernelParam &param = meta.params[i];
  error = meta.kernel + " argument " + std::to_string(i) + " ('" + param.name + "', a " +
          metadata::kindName(param.kind) + "): " + what;
  return false;
}

/// The launch's function arguments: the parameters', then (a persistent
/// kernel's) the logical grid, then the tensor maps.
bool pack(const KernelMetadata &meta, const std::vector<Arg> &args, PackedArgs &packed,
          std::string &error, std::array<int64_t, 3> grid = {0, 0, 0}) {
  if (args.size() != meta.params.size()) {
    error = meta.kernel + " takes " + std::to_string(meta.params.size()) +
            " arguments, the launch gives " + std::to_string(args.size());
    return false;
  }
  std::vector<std::array<unsigned char, 8>> &slots = packed.slots;
  auto push = [&](const void *data, size_t bytes) {
    std::array<unsigned char, 8> slot{};
    std::memcpy(slot.data(), data, bytes);
    slots.push_back(slot);
  };
  for (size_t i = 0; i < args.size(); ++i) {
    const KernelParam &param = meta.params[i];
    auto mismatch = [&](const std::string &what) { return argumentError(meta, i, what, error); };
    switch (param.kind) {
    case KernelParam::Kind::Tensor: {
      const TensorArg *t = std::get_if<TensorArg>(&args[i]);
      if (!t)
        return mismatch("expected a TensorArg");
      if (t->shape.size() != param.rank || t->strides.size() != param.rank)
        return mismatch("expected rank " + std::to_string(param.rank) + ", got shape of rank " +
                        std::to_string(t->shape.size()) + " and strides of rank " +
                        std::to_string(t->strides.size()));
      if (!t->address)
        return mismatch("null device address");
      for (size_t d = 0; d < t->shape.size(); ++d)
        if (t->shape[d] < 0 || t->shape[d] > INT32_MAX)
          return mismatch("dimension " + std::to_string(d) + " = " +
                          std::to_string(t->shape[d]) + " is outside [0, 2^31)");
      for (size_t d = 0; d < param.sizes.size(); ++d)
        if (param.sizes[d] >= 0 && t->shape[d] != param.sizes[d])
          return mismatch("dimension " + std::to_string(d) + " = " + std::to_string(t->shape[d]) +
                          ": the kernel was compiled for " + std::to_string(param.sizes[d]));
      for (size_t d = 0; d < param.sizesOf.size(); ++d) {
        const KernelParam::SizeOf &of = param.sizesOf[d];
        if (of.param.empty())
          continue;
        const TensorArg *other = nullptr;
        for (size_t j = 0; j < meta.params.size(); ++j)
          if (meta.params[j].name == of.param)
            other = std::get_if<TensorArg>(&args[j]);
        if (other && of.axis < other->shape.size() && t->shape[d] != other->shape[of.axis])
          return mismatch("dimension " + std::to_string(d) + " = " + std::to_string(t->shape[d]) +
                          ": the kernel needs the size of '" + of.param + "' dimension " +
                          std::to_string(of.axis) + ", " +
                          std::to_string(other->shape[of.axis]));
      }
      if (param.unitStride && t->shape.back() > 1 && t->strides.back() != 1)
        return mismatch("the kernel reads it with innermost stride 1, got stride " +
                        std::to_string(t->strides.back()) + " (make the tensor contiguous)");
      if (param.aligned) {
        int64_t perVector = 16 / static_cast<int64_t>(byteSize(param.dtype));
        bool ok = t->address % 16 == 0 && t->strides.back() == 1 &&
                  t->shape.back() % perVector == 0;
        for (size_t d = 0; d + 1 < t->strides.size(); ++d)
          ok = ok && t->strides[d] % perVector == 0;
        if (!ok)
          return mismatch("the kernel was compiled with --assume-aligned and needs a 16-byte "
                          "aligned base, innermost stride 1, and other strides and the "
                          "innermost size multiples of " +
                          std::to_string(perVector) + " elements");
      }
      push(&t->address, 8);
      for (int64_t d : t->shape) {
        int32_t v = static_cast<int32_t>(d);
        push(&v, 4);
      }
      for (int64_t s : t->strides)
        push(&s, 8);
      break;
    }
    case KernelParam::Kind::Pointer: {
      const PointerArg *p = std::get_if<PointerArg>(&args[i]);
      if (!p)
        return mismatch("expected a PointerArg");
      push(&p->address, 8);
      break;
    }
    case KernelParam::Kind::Scalar: {
      const double *v = std::get_if<double>(&args[i]);
      if (!v)
        return mismatch("expected a number");
      switch (param.dtype) {
      case DType::I32: {
        int32_t x = static_cast<int32_t>(*v);
        push(&x, 4);
        break;
      }
      case DType::I64: {
        int64_t x = static_cast<int64_t>(*v);
        push(&x, 8);
        break;
      }
      case DType::F32: {
        float x = static_cast<float>(*v);
        push(&x, 4);
        break;
      }
      default: return mismatch("scalar type not supported by the runtime");
      }
      break;
    }
    }
  }
  if (meta.persistent)
    for (int64_t programs : grid) {
      int32_t value = static_cast<int32_t>(programs);
      push(&value, 4);
    }
  for (size_t j = 0; j < meta.tensorMaps.size(); ++j) {
    // parseMetadata checked this already; metadata made otherwise may not be.
    if (std::string why = checkTensorMap(meta.tensorMaps[j], meta.params); !why.empty()) {
      error = meta.kernel + ": tensor_maps[" + std::to_string(j) + "]: " + why;
      return false;
    }
    // Its tensor parameter, so the loop above checked its TensorArg and rank.
    size_t i = meta.tensorMaps[j].param;
    TensorMapEncoding encoding;
    if (std::string why = tensorMapEncoding(meta, j, std::get<TensorArg>(args[i]), encoding);
        !why.empty())
      return argumentError(meta, i, why, error);
    packed.encodings.push_back(encoding);
  }
  size_t count = slots.size() + meta.tensorMaps.size();
  if (!meta.functionArgs.empty() && count != meta.functionArgs.size()) {
    error = meta.kernel + ": the arguments expand to " + std::to_string(count) +
            " function arguments (" + std::to_string(meta.tensorMaps.size()) +
            " of them tensor maps" + (meta.persistent ? ", 3 the grid" : "") +
            "), the metadata lists " +
            std::to_string(meta.functionArgs.size());
    return false;
  }
  packed.maps.resize(meta.tensorMaps.size());
  for (auto &slot : slots)
    packed.pointers.push_back(slot.data());
  for (TensorMapStorage &map : packed.maps)
    packed.pointers.push_back(map.bytes);
  return true;
}

/// Makes the tensor maps that `pack` checked, in their storage; false, with
/// the call's error and what it was given, where the driver refuses one.
bool encodeTensorMaps(const KernelMetadata &meta, PackedArgs &packed, std::string &error) {
  if (!meta.tensorMaps.empty() && !api.cuTensorMapEncodeTiled) {
    error = meta.kernel + " takes tensor maps, and this CUDA driver (libcuda.so.1) cannot make "
                          "them: it has no cuTensorMapEncodeTiled (CUDA 12.0 or newer has it)";
    return false;
  }
  for (size_t j = 0; j < meta.tensorMaps.size(); ++j) {
    const TensorMapEncoding &e = packed.encodings[j];
    CUresult result = api.cuTensorMapEncodeTiled(
        packed.maps[j].bytes, e.dataType, static_cast<uint32_t>(e.globalDim.size()),
        reinterpret_cast<void *>(e.address), e.globalDim.data(), e.globalStrides.data(),
        e.boxDim.data(), e.elementStrides.data(), e.interleave, e.swizzle, e.l2Promotion,
        e.oobFill);
    if (result != 0) {
      error = "cuTensorMapEncodeTiled (" + meta.kernel + " tensor_maps[" + std::to_string(j) +
              "] for argument '" + meta.params[meta.tensorMaps[j].param].name +
              "': " + toString(e) + "): " + errorName(result);
      return false;
    }
  }
  return true;
}

} // namespace

std::string checkArguments(const KernelMetadata &meta, const std::vector<Arg> &args) {
  PackedArgs packed;
  std::string error;
  pack(meta, args, packed, error);
  return error;
}

namespace {

/// Every element a tensor argument's shape and strides reach lies inside
/// the device allocation its address belongs to (from any allocator that
/// goes through the driver: cuMemAlloc, cudaMalloc, PyTorch's caching
/// allocator), so no launch reads or writes past its buffers.
bool checkAllocations(const KernelMetadata &meta, const std::vector<Arg> &args,
                      std::string &error) {
  for (size_t i = 0; i < args.size(); ++i) {
    const TensorArg *t = std::get_if<TensorArg>(&args[i]);
    if (!t || std::find(t->shape.begin(), t->shape.end(), 0) != t->shape.end())
      continue; // not a tensor, or no element to touch
    const int64_t elementBytes = static_cast<int64_t>(byteSize(meta.params[i].dtype));
    // Byte offsets of the lowest and highest elements (strides may be negative).
    __int128 low = 0, high = elementBytes;
    for (size_t d = 0; d < t->shape.size(); ++d) {
      __int128 reach = static_cast<__int128>(t->shape[d] - 1) * t->strides[d] * elementBytes;
      (reach < 0 ? low : high) += reach;
    }
    const __int128 first = static_cast<__int128>(t->address) + low;
    CUdeviceptr base = 0;
    size_t size = 0;
    if (first < 0 || first > static_cast<__int128>(UINT64_MAX) ||
        api.cuMemGetAddressRange(&base, &size, static_cast<CUdeviceptr>(first)) != 0)
      return argumentError(meta, i, "its first element (" + std::to_string(int64_t(low)) +
                                        " bytes from the address) is not in a device allocation",
                           error);
    const __int128 end = static_cast<__int128>(t->address) + high;
    if (end > static_cast<__int128>(base) + size) {
      std::ostringstream why;
      why << "its shape and strides reach " << int64_t(high) << " bytes from the address, "
          << int64_t(end - (static_cast<__int128>(base) + size))
          << " bytes past the end of its allocation (" << size << " bytes at 0x" << std::hex
          << base << ")";
      return argumentError(meta, i, why.str(), error);
    }
  }
  return true;
}

} // namespace

bool Device::launch(const Kernel &kernel, std::array<int64_t, 3> grid,
                    const std::vector<Arg> &args, std::string &error) {
  PackedArgs packed;
  if (!pack(kernel.meta, args, packed, error, grid) ||
      !checkAllocations(kernel.meta, args, error) || !encodeTensorMaps(kernel.meta, packed, error))
    return false;
  for (int64_t g : grid)
    if (g < 0 || g > INT32_MAX) {
      error = kernel.meta.kernel + ": grid (" + std::to_string(grid[0]) + ", " +
              std::to_string(grid[1]) + ", " + std::to_string(grid[2]) +
              ") must be in [0, 2^31)";
      return false;
    }
  if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0)
    return true; // no program (an empty batch, say): nothing to launch
  if (kernel.meta.persistent) {
    // The grid went in as arguments; programs loop over it (each dimension
    // is below 2^31, so the product fits in 128 bits).
    __int128 programs = static_cast<__int128>(grid[0]) * grid[1] * grid[2];
    if (programs > INT32_MAX) {
      error = kernel.meta.kernel + ": a persistent grid of more than 2^31 - 1 programs";
      return false;
    }
    grid = {std::min(static_cast<int64_t>(programs), std::max<int64_t>(kernel.residentPrograms, 1)),
            1, 1};
  }
  std::string context = kernel.meta.kernel + ", grid " + std::to_string(grid[0]) + "x" +
                        std::to_string(grid[1]) + "x" + std::to_string(grid[2]) + ", block " +
                        std::to_string(kernel.meta.threadsPerBlock) + ", shared " +
                        std::to_string(kernel.meta.sharedBytes);
  return check(api.cuLaunchKernel(kernel.function, static_cast<unsigned>(grid[0]),
                                  static_cast<unsigned>(grid[1]), static_cast<unsigned>(grid[2]),
                                  static_cast<unsigned>(kernel.meta.threadsPerBlock), 1, 1,
                                  static_cast<unsigned>(kernel.meta.sharedBytes), nullptr,
                                  packed.pointers.data(), nullptr),
               "cuLaunchKernel", context, error);
}

bool Device::synchronize(std::string &error) {
  return check(api.cuCtxSynchronize(), "cuCtxSynchronize", "after the kernel", error);
}

bool Device::time(const Kernel &kernel, std::array<int64_t, 3> grid, const std::vector<Arg> &args,
                  int repeats, float &milliseconds, std::string &error) {
  CUevent start = nullptr, stop = nullptr;
  if (!check(api.cuEventCreate(&start, 0), "cuEventCreate", "", error) ||
      !check(api.cuEventCreate(&stop, 0), "cuEventCreate", "", error))
    return false;
  bool ok = check(api.cuEventRecord(start, nullptr), "cuEventRecord", "", error);
  for (int i = 0; ok && i < repeats; ++i)
    ok = launch(kernel, grid, args, error);
  ok = ok && check(api.cuEventRecord(stop, nullptr), "cuEventRecord", "", error) &&
       check(api.cuEventSynchronize(stop), "cuEventSynchronize", "", error) &&
       check(api.cuEventElapsedTime(&milliseconds, start, stop), "cuEventElapsedTime", "", error);
  api.cuEventDestroy(start);
  api.cuEventDestroy(stop);
  return ok;
}

int64_t decodeSplits(int64_t programs, int64_t seqK, int64_t multiprocessors) {
  // About one program per SM: fewer leaves SMs idle, more adds runs to
  // combine without reading faster (H200, 132 SMs, B = 1, 8, 64 with 8 K/V
  // heads: 16, 2 and 1 splits were the fastest; bench/RESULTS.md, session
  // 11). Each run keeps at least 256 keys.
  constexpr int64_t kMinKeys = 256, kMaxSplits = 64;
  programs = std::max<int64_t>(programs, 1);
  const int64_t most = std::clamp<int64_t>(seqK / kMinKeys, 1, kMaxSplits);
  return std::clamp<int64_t>((multiprocessors + programs / 2) / programs, 1, most);
}

bool readFile(const std::string &path, std::string &out) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  std::ostringstream text;
  text << in.rdbuf();
  out = text.str();
  return true;
}

namespace {

using json::integerOf;

/// One entry of "params"; false (and why) when malformed.
bool parseParam(const json::Value &entry, KernelParam &param, std::string &error) {
  using namespace metadata;
  const json::Value *name = entry.get(kParamName), *kind = entry.get(kParamKind),
                    *dtype = entry.get(kParamDType), *rank = entry.get(kParamRank);
  std::optional<DType> type = dtype ? parseDType(dtype->string) : std::nullopt;
  std::optional<KernelParam::Kind> parsedKind = kind ? parseKind(kind->string) : std::nullopt;
  std::optional<int64_t> parsedRank = rank ? integerOf(*rank) : std::nullopt;
  if (!name || !name->isString() || !parsedKind || !type || !parsedRank || *parsedRank < 0) {
    error = "kernel metadata has a malformed parameter";
    return false;
  }
  param = KernelParam{name->string, *parsedKind, *type, static_cast<unsigned>(*parsedRank)};
  if (const json::Value *aligned = entry.get(kParamAligned))
    param.aligned = aligned->kind == json::Value::Kind::Bool && aligned->boolean;
  if (const json::Value *unit = entry.get(kParamUnitStride))
    param.unitStride = unit->kind == json::Value::Kind::Bool && unit->boolean;
  if (const json::Value *sizes = entry.get(kParamSizes)) {
    bool ok = sizes->kind == json::Value::Kind::Array && sizes->array.size() == param.rank &&
              param.kind == KernelParam::Kind::Tensor;
    for (size_t d = 0; ok && d < sizes->array.size(); ++d) {
      const json::Value &item = sizes->array[d];
      std::optional<int64_t> size = integerOf(item);
      ok = item.kind == json::Value::Kind::Null || (size && *size >= 0);
      param.sizes.push_back(size ? *size : -1);
    }
    if (!ok) {
      error = "kernel metadata: parameter '" + param.name +
              "' has malformed \"sizes\" (one "
              "non-negative integer or null per dimension of a tensor)";
      return false;
    }
  }
  if (const json::Value *sizesOf = entry.get(kParamSizesOf)) {
    bool ok = sizesOf->kind == json::Value::Kind::Array && sizesOf->array.size() == param.rank &&
              param.kind == KernelParam::Kind::Tensor;
    for (size_t d = 0; ok && d < sizesOf->array.size(); ++d) {
      const json::Value &item = sizesOf->array[d];
      KernelParam::SizeOf of;
      if (item.kind != json::Value::Kind::Null) {
        const json::Value *name = item.get(kSizeOfParam);
        std::optional<int64_t> axis = item.get(kSizeOfAxis) ? integerOf(*item.get(kSizeOfAxis))
                                                            : std::nullopt;
        ok = name && name->kind == json::Value::Kind::String && !name->string.empty() && axis &&
             *axis >= 0;
        if (ok)
          of = {name->string, static_cast<unsigned>(*axis)};
      }
      param.sizesOf.push_back(of);
    }
    if (!ok) {
      error = "kernel metadata: parameter '" + param.name +
              "' has malformed \"sizes_of\" (one null or {\"param\": name, \"axis\": "
              "dimension} per dimension of a tensor)";
      return false;
    }
  }
  return true;
}

/// Empty when every "sizes_of" entry names a tensor parameter and one of
/// its dimensions, else why not.
std::string checkSizesOf(const KernelSignature &params) {
  for (const KernelParam &p : params)
    for (const KernelParam::SizeOf &of : p.sizesOf) {
      if (of.param.empty())
        continue;
      auto other = std::find_if(params.begin(), params.end(),
                                [&](const KernelParam &q) { return q.name == of.param; });
      if (other == params.end() || other->kind != KernelParam::Kind::Tensor ||
          of.axis >= other->rank)
        return "kernel metadata: parameter '" + p.name + "' takes a size of '" + of.param +
               "' dimension " + std::to_string(of.axis) + ", which is not a tensor's dimension";
    }
  return "";
}

/// One entry of "grid", before it is checked against the parameters; empty
/// when well formed, else why not.
std::string parseGridDim(const json::Value &entry, GridDim &dim) {
  using namespace metadata;
  if (entry.kind != json::Value::Kind::Object)
    return "expected an object";
  for (const std::string &key : entry.keys)
    if (key != kGridConstant && key != kGridParam && key != kGridAxis && key != kGridDivisor &&
        key != kGridLess)
      return "unknown member '" + key + "'";
  const json::Value *constant = entry.get(kGridConstant), *param = entry.get(kGridParam),
                    *axis = entry.get(kGridAxis), *divisor = entry.get(kGridDivisor),
                    *less = entry.get(kGridLess);
  if (!constant == !param)
    return "give exactly one of 'constant' and 'param'";
  if (less) {
    std::optional<int64_t> value = integerOf(*less);
    if (!value)
      return "'less' must be an integer";
    dim.less = *value;
  }
  if (divisor) {
    std::optional<int64_t> value = integerOf(*divisor);
    if (!value)
      return "'divisor' must be an integer";
    dim.divisor = *value;
  }
  if (constant) {
    std::optional<int64_t> value = integerOf(*constant);
    if (!value)
      return "'constant' must be an integer";
    if (axis)
      return "'axis' needs 'param'";
    dim.kind = GridDim::Kind::Constant;
    dim.constant = *value;
    return "";
  }
  if (!param->isString())
    return "'param' must be a parameter's name";
  dim.param = param->string;
  dim.kind = axis ? GridDim::Kind::Shape : GridDim::Kind::Scalar;
  if (axis) {
    std::optional<int64_t> value = integerOf(*axis);
    if (!value)
      return "'axis' must be an integer";
    dim.axis = *value;
  }
  return "";
}

/// "grid": null or absent (none stated), or three dimensions that name the
/// kernel's parameters (checkGridRule).
bool parseGrid(const json::Value *value, const KernelSignature &params,
               std::optional<GridRule> &rule, std::string &error) {
  rule.reset();
  if (!value || value->kind == json::Value::Kind::Null)
    return true;
  auto fail = [&](const std::string &why) {
    error = "kernel metadata: " + why;
    return false;
  };
  if (value->isString())
    return fail("'grid' is a formula (\"" + value->string +
                "\"), as tilec wrote it before it wrote structured grids; recompile the kernel");
  if (!value->isArray() || value->array.size() != 3)
    return fail("'grid' must be null or an array of three dimensions, each {\"constant\": N} "
                "or {\"param\": NAME, \"axis\": I (tensors), \"divisor\": N}");
  GridRule parsed;
  for (size_t i = 0; i < parsed.size(); ++i)
    if (std::string why = parseGridDim(value->array[i], parsed[i]); !why.empty())
      return fail("grid[" + std::to_string(i) + "]: " + why);
  if (std::string why = checkGridRule(parsed, params); !why.empty())
    return fail(why);
  rule = parsed;
  return true;
}

/// One entry of "tensor_maps"; empty when it names a tensor parameter and
/// a map CUDA can make of it (checkTensorMap), else why not.
std::string parseTensorMap(const json::Value &entry, const KernelSignature &params,
                           TensorMapParam &map) {
  using namespace metadata;
  if (entry.kind != json::Value::Kind::Object)
    return "expected an object";
  for (const std::string &key : entry.keys)
    if (key != kMapParam && key != kMapBox && key != kMapSwizzle)
      return "unknown member '" + key + "'";
  const json::Value *param = entry.get(kMapParam), *box = entry.get(kMapBox),
                    *swizzle = entry.get(kMapSwizzle);
  if (!param || !param->isString())
    return "'param' must be a tensor parameter's name";
  map.param = params.size();
  for (size_t i = 0; i < params.size(); ++i)
    if (params[i].name == param->string)
      map.param = i;
  if (map.param == params.size())
    return "'" + param->string + "' is not a parameter of the kernel";
  if (!box || !box->isArray())
    return "'box' must be an array of integers";
  map.box.clear();
  for (const json::Value &dim : box->array) {
    std::optional<int64_t> value = integerOf(dim);
    if (!value)
      return "'box' must be an array of integers";
    map.box.push_back(*value);
  }
  std::optional<int64_t> bytes = swizzle ? integerOf(*swizzle) : std::nullopt;
  if (!bytes)
    return "'swizzle' must be an integer";
  map.swizzle = *bytes;
  return checkTensorMap(map, params);
}

/// "tensor_maps": absent or an array (possibly empty) of maps.
bool parseTensorMaps(const json::Value *value, const KernelSignature &params,
                     std::vector<TensorMapParam> &maps, std::string &error) {
  maps.clear();
  if (!value)
    return true;
  if (!value->isArray()) {
    error = "kernel metadata: 'tensor_maps' must be an array of "
            "{\"param\": NAME, \"box\": [N, ...], \"swizzle\": BYTES}";
    return false;
  }
  for (size_t i = 0; i < value->array.size(); ++i) {
    TensorMapParam map;
    if (std::string why = parseTensorMap(value->array[i], params, map); !why.empty()) {
      error = "kernel metadata: tensor_maps[" + std::to_string(i) + "]: " + why;
      return false;
    }
    maps.push_back(map);
  }
  return true;
}

} // namespace

bool parseMetadata(const std::string &text, KernelMetadata &meta, std::string &error) {
  using namespace metadata;
  std::optional<json::Value> doc = json::parse(text, error);
  if (!doc)
    return false;
  auto need = [&](const char *key, json::Value::Kind kind) -> const json::Value * {
    const json::Value *v = doc->get(key);
    if (!v || v->kind != kind) {
      error = std::string("kernel metadata lacks '") + key + "'";
      return nullptr;
    }
    return v;
  };
  const json::Value *kernel = need(kKernel, json::Value::Kind::String);
  const json::Value *arch = need(kArch, json::Value::Kind::String);
  const json::Value *warps = need(kNumWarps, json::Value::Kind::Number);
  const json::Value *threads = need(kThreadsPerBlock, json::Value::Kind::Number);
  const json::Value *shared = need(kSharedBytes, json::Value::Kind::Number);
  const json::Value *params = need(kParams, json::Value::Kind::Array);
  if (!kernel || !arch || !warps || !threads || !shared || !params)
    return false;
  meta.kernel = kernel->string;
  meta.arch = arch->string;
  meta.numWarps = static_cast<int64_t>(warps->number);
  meta.threadsPerBlock = static_cast<int64_t>(threads->number);
  meta.sharedBytes = static_cast<int64_t>(shared->number);
  meta.params.clear();
  for (const json::Value &entry : params->array) {
    KernelParam param{};
    if (!parseParam(entry, param, error))
      return false;
    meta.params.push_back(param);
  }
  if (error = checkSizesOf(meta.params); !error.empty())
    return false;
  meta.functionArgs.clear();
  if (const json::Value *args = doc->get(kFunctionArgs))
    for (const json::Value &a : args->array)
      meta.functionArgs.push_back(a.string);
  const json::Value *persistent = doc->get(kPersistent);
  meta.persistent = persistent && persistent->kind == json::Value::Kind::Bool && persistent->boolean;
  const json::Value *counter = doc->get(kTileCounter);
  meta.tileCounter = counter && counter->kind == json::Value::Kind::Bool && counter->boolean;
  if (meta.tileCounter && !meta.persistent) {
    error = "\"tile_counter\" needs \"persistent\"";
    return false;
  }
  return parseGrid(doc->get(kGrid), meta.params, meta.grid, error) &&
         parseTensorMaps(doc->get(kTensorMaps), meta.params, meta.tensorMaps, error);
}

std::optional<std::array<int64_t, 3>> launchGrid(const KernelMetadata &meta,
                                                 const std::vector<Arg> &args,
                                                 std::string &error) {
  if (!meta.grid) {
    error = meta.kernel + ": the metadata states no launch grid";
    return std::nullopt;
  }
  error = checkGridRule(*meta.grid, meta.params);
  if (error.empty())
    error = checkArguments(meta, args);
  if (!error.empty()) {
    error = meta.kernel + ": " + error;
    return std::nullopt;
  }
  std::array<int64_t, 3> grid{};
  for (size_t i = 0; i < grid.size(); ++i) {
    const GridDim &dim = (*meta.grid)[i];
    int64_t extent = dim.constant;
    if (dim.kind != GridDim::Kind::Constant) {
      size_t index = 0;
      while (meta.params[index].name != dim.param)
        ++index;
      extent = dim.kind == GridDim::Kind::Shape
                   ? std::get<TensorArg>(args[index]).shape[dim.axis]
                   : static_cast<int64_t>(std::get<double>(args[index]));
    }
    extent = std::max<int64_t>(extent - dim.less, 0);
    grid[i] = (extent + dim.divisor - 1) / dim.divisor;
  }
  return grid;
}

} // namespace tilec::rt
