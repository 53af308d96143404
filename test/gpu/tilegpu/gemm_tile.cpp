//===- gemm_tile.cpp - tilegpu-gemm-tile: run a tilegpu GEMM tile on the GPU ===//
//
// Runs a hand-lowered PTX kernel made from the tilegpu dialect (TMA loads with
// 128B swizzle, wgmma, TMA store) on GPU 0 and checks its numbers against a
// double-precision reference. Needs only the CUDA driver (libcuda.so.1, opened
// with dlopen) and the toolkit's cuda.h for the types: it builds without LLVM
// on the GPU machine (TILEC_ENABLE_MLIR=OFF).
//
// Expected input files (written on the CPU machine, after scripts/gpu-cases.sh
// has made the cases directory, which that script wipes first):
//   gpu-cases/tilegpu/gemm_tile.ptx    the PTX (entry `kernel`, sm_90a)
//   gpu-cases/tilegpu/gemm_tile.smem   dynamic shared-memory bytes, one integer
// ctest (gpu.tilegpu_gemm_tile, label gpu) and scripts/gpu-check.sh run it on
// ${TILEC_GPU_CASES}/tilegpu/ (default gpu-cases/ at the repository root).
//
// The kernel: `.entry kernel(.param .align 64 .b8 a[128], .param .align 64
// .b8 b[128], .param .align 64 .b8 c[128])`, three __grid_constant__
// CUtensorMaps (A, B, C) by value; grid (1,1,1), block (256,1,1). It computes
// C = A * B^T for one 64x64 tile: A, B bf16 64x64 row-major (128 bytes a row),
// C f32 64x64 row-major (256 bytes a row).
//   A, B maps: BFLOAT16, rank 2, globalDim {64 cols, 64 rows}, globalStrides
//              {128} bytes, boxDim {64, 64}, elementStrides {1, 1},
//              INTERLEAVE_NONE, SWIZZLE_128B, L2_PROMOTION_NONE, OOB_FILL_NONE.
//   C map:     FLOAT32, globalDim {64, 64}, globalStrides {256}, boxDim
//              {64, 64}, SWIZZLE_NONE, otherwise the same.
//
// With --pv the kernel computes, in the same interface, attention's two dots
// on one tile and a row statistic: S = A * B^T, P = bf16(S), C = (P * B) /
// rowmax(S) (B read as V, K x N); the reference rounds S (double, then f32)
// to bf16 the same way
// (gpu-cases/tilegpu/pv_tile.{ptx,smem}, test/gpu/tilegpu/pv_tile.mlir).
//
//   tilegpu-gemm-tile [--pv] [--dump] [--skip-missing] [--kernel=NAME] PTX SMEM
//     SMEM: the dynamic shared-memory bytes, an integer or @FILE (a file
//           holding one integer, e.g. @gpu-cases/tilegpu/gemm_tile.smem).
//     --skip-missing: a missing PTX or SMEM file is a skip (exit 77), not a
//           usage error (for ctest).
//     --dump: also print a few elements of C and the reference, and the JIT
//           info log.
//
// Exit: 0 PASS, 1 FAIL (wrong numbers), 2 usage error or CUDA error (the
// failing call and the CUDA error name are printed), 77 no GPU / no driver or
// (with --skip-missing) no input files; the reason is printed.
//
//===----------------------------------------------------------------------===//

#include <cuda.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <vector>

namespace {

constexpr int kPass = 0, kFail = 1, kError = 2, kSkip = 77;
constexpr int kRows = 64, kCols = 64; // A, B: 64x64 (rows x K); C: 64x64
constexpr unsigned kThreads = 256;

// Driver entry points, typed from cuda.h's declarations. cuda.h maps some names
// to versioned symbols (cuMemAlloc -> cuMemAlloc_v2, ...): decltype follows the
// macro, and dlsym is given the versioned symbol name explicitly.
struct Api {
  decltype(&::cuInit) init = nullptr;
  decltype(&::cuDeviceGet) deviceGet = nullptr;
  decltype(&::cuDeviceGetName) deviceGetName = nullptr;
  decltype(&::cuDeviceGetAttribute) deviceGetAttribute = nullptr;
  decltype(&::cuDevicePrimaryCtxRetain) primaryCtxRetain = nullptr;
  decltype(&::cuCtxSetCurrent) ctxSetCurrent = nullptr;
  decltype(&::cuCtxSynchronize) ctxSynchronize = nullptr;
  decltype(&::cuModuleLoadDataEx) moduleLoadDataEx = nullptr;
  decltype(&::cuModuleGetFunction) moduleGetFunction = nullptr;
  decltype(&::cuFuncSetAttribute) funcSetAttribute = nullptr;
  decltype(&::cuFuncGetParamInfo) funcGetParamInfo = nullptr; // optional (CUDA 12.4+)
  decltype(&::cuMemAlloc) memAlloc = nullptr;
  decltype(&::cuMemFree) memFree = nullptr;
  decltype(&::cuMemcpyHtoD) memcpyHtoD = nullptr;
  decltype(&::cuMemcpyDtoH) memcpyDtoH = nullptr;
  decltype(&::cuLaunchKernel) launchKernel = nullptr;
  decltype(&::cuTensorMapEncodeTiled) tensorMapEncodeTiled = nullptr;
  decltype(&::cuGetErrorName) getErrorName = nullptr;
  decltype(&::cuGetErrorString) getErrorString = nullptr;
};
Api api;

std::string errorName(CUresult result) {
  const char *name = nullptr, *text = nullptr;
  if (api.getErrorName)
    api.getErrorName(result, &name);
  if (api.getErrorString)
    api.getErrorString(result, &text);
  std::string out = name ? name : "CUDA error " + std::to_string(static_cast<int>(result));
  if (text)
    out += std::string(" (") + text + ")";
  return out;
}

/// Thrown-free error path: print "tilegpu-gemm-tile: CALL: ERROR" and exit 2.
[[noreturn]] void cudaFail(const char *call, CUresult result, const std::string &context = "") {
  std::fprintf(stderr, "tilegpu-gemm-tile: %s%s: %s\n", call,
               context.empty() ? "" : (" (" + context + ")").c_str(), errorName(result).c_str());
  std::exit(kError);
}

void check(CUresult result, const char *call, const std::string &context = "") {
  if (result != CUDA_SUCCESS)
    cudaFail(call, result, context);
}

template <typename Fn> bool resolve(void *lib, Fn &fn, const char *symbol) {
  fn = reinterpret_cast<Fn>(dlsym(lib, symbol));
  return fn != nullptr;
}

/// Loads libcuda.so.1 and its entry points. Returns false (with the reason) if
/// there is no driver; a driver lacking an entry point is an error (exit 2).
bool loadDriver(std::string &reason) {
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *why = dlerror();
    reason = std::string("cannot load the CUDA driver (libcuda.so.1): ") + (why ? why : "?");
    return false;
  }
  struct Entry {
    bool ok;
    const char *symbol;
  };
  const Entry entries[] = {
      {resolve(lib, api.init, "cuInit"), "cuInit"},
      {resolve(lib, api.deviceGet, "cuDeviceGet"), "cuDeviceGet"},
      {resolve(lib, api.deviceGetName, "cuDeviceGetName"), "cuDeviceGetName"},
      {resolve(lib, api.deviceGetAttribute, "cuDeviceGetAttribute"), "cuDeviceGetAttribute"},
      {resolve(lib, api.primaryCtxRetain, "cuDevicePrimaryCtxRetain"), "cuDevicePrimaryCtxRetain"},
      {resolve(lib, api.ctxSetCurrent, "cuCtxSetCurrent"), "cuCtxSetCurrent"},
      {resolve(lib, api.ctxSynchronize, "cuCtxSynchronize"), "cuCtxSynchronize"},
      {resolve(lib, api.moduleLoadDataEx, "cuModuleLoadDataEx"), "cuModuleLoadDataEx"},
      {resolve(lib, api.moduleGetFunction, "cuModuleGetFunction"), "cuModuleGetFunction"},
      {resolve(lib, api.funcSetAttribute, "cuFuncSetAttribute"), "cuFuncSetAttribute"},
      {resolve(lib, api.memAlloc, "cuMemAlloc_v2"), "cuMemAlloc_v2"},
      {resolve(lib, api.memFree, "cuMemFree_v2"), "cuMemFree_v2"},
      {resolve(lib, api.memcpyHtoD, "cuMemcpyHtoD_v2"), "cuMemcpyHtoD_v2"},
      {resolve(lib, api.memcpyDtoH, "cuMemcpyDtoH_v2"), "cuMemcpyDtoH_v2"},
      {resolve(lib, api.launchKernel, "cuLaunchKernel"), "cuLaunchKernel"},
      {resolve(lib, api.tensorMapEncodeTiled, "cuTensorMapEncodeTiled"), "cuTensorMapEncodeTiled"},
      {resolve(lib, api.getErrorName, "cuGetErrorName"), "cuGetErrorName"},
      {resolve(lib, api.getErrorString, "cuGetErrorString"), "cuGetErrorString"},
  };
  for (const Entry &e : entries)
    if (!e.ok) {
      std::fprintf(stderr, "tilegpu-gemm-tile: libcuda.so.1 has no %s (driver too old?)\n",
                   e.symbol);
      std::exit(kError);
    }
  resolve(lib, api.funcGetParamInfo, "cuFuncGetParamInfo"); // optional
  return true;
}

[[noreturn]] void usage(const std::string &message) {
  std::fprintf(stderr,
               "tilegpu-gemm-tile: %s\n"
               "usage: tilegpu-gemm-tile [--dump] [--skip-missing] [--kernel=NAME] PTX SMEM\n"
               "  PTX   the kernel's PTX (e.g. gpu-cases/tilegpu/gemm_tile.ptx)\n"
               "  SMEM  dynamic shared-memory bytes: an integer, or @FILE holding one\n"
               "        (e.g. @gpu-cases/tilegpu/gemm_tile.smem)\n",
               message.c_str());
  std::exit(kError);
}

bool fileExists(const std::string &path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool readFile(const std::string &path, std::string &text) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  std::ostringstream s;
  s << in.rdbuf();
  if (in.bad())
    return false;
  text = s.str();
  return true;
}

/// Parses a whole non-negative integer (surrounding whitespace allowed).
bool parseBytes(const std::string &text, unsigned &value) {
  const char *begin = text.c_str();
  while (*begin == ' ' || *begin == '\t' || *begin == '\n' || *begin == '\r')
    ++begin;
  if (*begin < '0' || *begin > '9')
    return false;
  errno = 0;
  char *end = nullptr;
  unsigned long long v = std::strtoull(begin, &end, 10);
  while (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r')
    ++end;
  if (errno || *end != '\0' || v > 0x7fffffffull)
    return false;
  value = static_cast<unsigned>(v);
  return true;
}

// bf16 <-> f32, round to nearest even (NaN kept a quiet NaN).
uint16_t toBf16(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  if ((bits & 0x7fffffffu) > 0x7f800000u)
    return static_cast<uint16_t>((bits >> 16) | 0x40u);
  bits += 0x7fffu + ((bits >> 16) & 1u);
  return static_cast<uint16_t>(bits >> 16);
}

float fromBf16(uint16_t h) {
  uint32_t bits = static_cast<uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

/// Random bf16 in [-1, 1] from a fixed-seed mt19937 (whose output the standard
/// fixes, so the inputs are the same with any standard library).
void fillRandom(std::mt19937 &rng, std::vector<uint16_t> &bits, std::vector<double> &values) {
  for (size_t i = 0; i < bits.size(); ++i) {
    float u = static_cast<float>(rng() >> 8) * (1.0f / 16777216.0f); // [0, 1)
    bits[i] = toBf16(2.0f * u - 1.0f);
    values[i] = fromBf16(bits[i]);
  }
}

/// A rank-2 tiled tensor map over a rows x cols row-major matrix, one box the
/// whole matrix.
CUtensorMap encode(CUtensorMapDataType type, size_t elementBytes, CUdeviceptr address,
                   CUtensorMapSwizzle swizzle, const char *what) {
  CUtensorMap map; // the type is 64-byte (CUDA 13: 128-byte) aligned
  std::memset(&map, 0, sizeof map);
  const cuuint64_t globalDim[2] = {kCols, kRows};                      // innermost first
  const cuuint64_t globalStrides[1] = {kCols * elementBytes};          // bytes, dims 1..
  const cuuint32_t boxDim[2] = {kCols, kRows};
  const cuuint32_t elementStrides[2] = {1, 1};
  check(api.tensorMapEncodeTiled(&map, type, 2, reinterpret_cast<void *>(address), globalDim,
                                 globalStrides, boxDim, elementStrides,
                                 CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
                                 CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                 CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
        "cuTensorMapEncodeTiled", what);
  return map;
}

} // namespace

int main(int argc, char **argv) {
  bool dump = false, skipMissing = false, pv = false;
  std::string kernelName = "kernel";
  std::vector<std::string> positional;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--dump")
      dump = true;
    else if (arg == "--pv")
      pv = true;
    else if (arg == "--skip-missing")
      skipMissing = true;
    else if (arg.rfind("--kernel=", 0) == 0)
      kernelName = arg.substr(9);
    else if (arg == "--help" || arg == "-h") {
      std::printf("usage: tilegpu-gemm-tile [--pv] [--dump] [--skip-missing] [--kernel=NAME] "
                  "PTX SMEM\n"
                  "Runs a tilegpu 64x64 C = A*B^T tile kernel (three tensor maps) on GPU 0\n"
                  "and checks it against a double-precision reference; with --pv the kernel\n"
                  "computes C = bf16(A*B^T)*B / rowmax(A*B^T) (attention's S, P*V, a row\n"
                  "statistic).\n"
                  "Exit 0: PASS, 1: FAIL, 2: usage or CUDA error, 77: skipped (reason printed).\n");
      return kPass;
    } else if (arg.size() > 1 && arg[0] == '-' && arg[1] == '-')
      usage("unknown option " + arg);
    else
      positional.push_back(arg);
  }
  if (positional.size() != 2)
    usage("give the PTX file and the dynamic shared-memory bytes");
  const std::string ptxPath = positional[0], smemArg = positional[1];
  const char *tileName = pv ? "pv" : "gemm";

  // Inputs first: what can be checked without a GPU.
  if (skipMissing && !fileExists(ptxPath)) {
    std::printf("SKIP tilegpu %s tile: no PTX at %s (write it on the CPU machine into the "
                "cases directory, after scripts/gpu-cases.sh)\n",
                tileName, ptxPath.c_str());
    return kSkip;
  }
  std::string ptx;
  if (!readFile(ptxPath, ptx))
    usage("cannot read the PTX file " + ptxPath);
  if (ptx.find(".entry") == std::string::npos)
    usage(ptxPath + " has no .entry: not PTX?");
  unsigned smemBytes = 0;
  if (!smemArg.empty() && smemArg[0] == '@') {
    std::string smemPath = smemArg.substr(1), text;
    if (skipMissing && !fileExists(smemPath)) {
      std::printf("SKIP tilegpu %s tile: no shared-memory size file at %s\n", tileName,
                  smemPath.c_str());
      return kSkip;
    }
    if (!readFile(smemPath, text))
      usage("cannot read the shared-memory size file " + smemPath);
    if (!parseBytes(text, smemBytes))
      usage(smemPath + " must hold one non-negative integer (bytes), not '" + text + "'");
  } else if (!parseBytes(smemArg, smemBytes)) {
    usage("the shared-memory bytes must be a non-negative integer or @FILE, not '" + smemArg +
          "'");
  }

  // The driver and GPU 0. No driver or no device: skip.
  std::string reason;
  if (!loadDriver(reason)) {
    std::printf("SKIP tilegpu %s tile: %s\n", tileName, reason.c_str());
    return kSkip;
  }
  if (CUresult r = api.init(0); r != CUDA_SUCCESS) {
    if (r == CUDA_ERROR_NO_DEVICE) {
      std::printf("SKIP tilegpu %s tile: cuInit: %s\n", tileName, errorName(r).c_str());
      return kSkip;
    }
    cudaFail("cuInit", r);
  }
  CUdevice device = 0;
  check(api.deviceGet(&device, 0), "cuDeviceGet", "device 0");
  CUcontext context = nullptr;
  check(api.primaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain");
  check(api.ctxSetCurrent(context), "cuCtxSetCurrent");
  char deviceName[256] = {0};
  api.deviceGetName(deviceName, sizeof deviceName, device);
  int major = 0, minor = 0;
  api.deviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
  api.deviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);
  if (dump)
    std::printf("device: %s (sm_%d%d), dynamic shared memory %u bytes\n", deviceName, major,
                minor, smemBytes);

  // JIT the PTX; on failure print the JIT error log.
  static char errorLog[64 * 1024], infoLog[64 * 1024];
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
  void *optionValues[] = {errorLog, reinterpret_cast<void *>(uintptr_t{sizeof errorLog}),
                          infoLog, reinterpret_cast<void *>(uintptr_t{sizeof infoLog})};
  CUmodule module = nullptr;
  if (CUresult r = api.moduleLoadDataEx(&module, ptx.c_str(), 4, options, optionValues);
      r != CUDA_SUCCESS) {
    std::fprintf(stderr, "tilegpu-gemm-tile: cuModuleLoadDataEx (%s): %s\n", ptxPath.c_str(),
                 errorName(r).c_str());
    errorLog[sizeof errorLog - 1] = '\0';
    if (errorLog[0])
      std::fprintf(stderr, "JIT error log:\n%s\n", errorLog);
    return kError;
  }
  infoLog[sizeof infoLog - 1] = '\0';
  if (dump && infoLog[0])
    std::printf("JIT info log:\n%s\n", infoLog);
  CUfunction function = nullptr;
  check(api.moduleGetFunction(&function, module, kernelName.c_str()), "cuModuleGetFunction",
        kernelName);

  // The parameters, where the driver can say: three 128-byte tensor maps.
  if (api.funcGetParamInfo) {
    for (size_t i = 0; i < 3; ++i) {
      size_t offset = 0, size = 0;
      if (CUresult r = api.funcGetParamInfo(function, i, &offset, &size); r != CUDA_SUCCESS) {
        std::fprintf(stderr,
                     "tilegpu-gemm-tile: cuFuncGetParamInfo (parameter %zu): %s; the kernel "
                     "must take three 128-byte tensor maps\n",
                     i, errorName(r).c_str());
        return kError;
      }
      if (size != sizeof(CUtensorMap)) {
        std::fprintf(stderr,
                     "tilegpu-gemm-tile: kernel parameter %zu is %zu bytes at offset %zu; "
                     "expected a %zu-byte tensor map\n",
                     i, size, offset, sizeof(CUtensorMap));
        return kError;
      }
    }
    // (No probe for a fourth parameter: its expected INVALID_VALUE would show
    // up as an API error under compute-sanitizer.)
  }
  if (smemBytes > 48 * 1024)
    check(api.funcSetAttribute(function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                               static_cast<int>(smemBytes)),
          "cuFuncSetAttribute",
          "MAX_DYNAMIC_SHARED_SIZE_BYTES " + std::to_string(smemBytes));

  // Inputs: bf16 in [-1, 1], fixed seed; C preset to NaN (0xFF bytes).
  const size_t n = static_cast<size_t>(kRows) * kCols;
  std::vector<uint16_t> aBits(n), bBits(n);
  std::vector<double> a(n), b(n);
  std::mt19937 rng(20261129u);
  fillRandom(rng, aBits, a);
  fillRandom(rng, bBits, b);
  std::vector<float> c(n);
  std::memset(c.data(), 0xff, n * sizeof(float));

  CUdeviceptr dA = 0, dB = 0, dC = 0;
  check(api.memAlloc(&dA, n * 2), "cuMemAlloc", "A");
  check(api.memAlloc(&dB, n * 2), "cuMemAlloc", "B");
  check(api.memAlloc(&dC, n * 4), "cuMemAlloc", "C");
  check(api.memcpyHtoD(dA, aBits.data(), n * 2), "cuMemcpyHtoD", "A");
  check(api.memcpyHtoD(dB, bBits.data(), n * 2), "cuMemcpyHtoD", "B");
  check(api.memcpyHtoD(dC, c.data(), n * 4), "cuMemcpyHtoD", "C");

  CUtensorMap maps[3] = {
      encode(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, dA, CU_TENSOR_MAP_SWIZZLE_128B, "A"),
      encode(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, dB, CU_TENSOR_MAP_SWIZZLE_128B, "B"),
      encode(CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, dC, CU_TENSOR_MAP_SWIZZLE_NONE, "C"),
  };
  void *params[3] = {&maps[0], &maps[1], &maps[2]};
  check(api.launchKernel(function, 1, 1, 1, kThreads, 1, 1, smemBytes, nullptr, params, nullptr),
        "cuLaunchKernel", "grid (1,1,1), block (256,1,1), " + std::to_string(smemBytes) +
                              " bytes dynamic shared memory");
  check(api.ctxSynchronize(), "cuCtxSynchronize", "after the launch");
  check(api.memcpyDtoH(c.data(), dC, n * 4), "cuMemcpyDtoH", "C");

  // Reference: C[i][j] = sum_k A[i][k] * B[j][k] in double over the bf16 values;
  // with --pv, C = bf16(that) * B.
  std::vector<double> ref(n, 0.0);
  for (int i = 0; i < kRows; ++i)
    for (int j = 0; j < kRows; ++j) {
      double sum = 0.0;
      for (int k = 0; k < kCols; ++k)
        sum += a[i * kCols + k] * b[j * kCols + k];
      ref[i * kRows + j] = sum;
    }
  // P rounds like the GPU's (f32 sum, then bf16), except where the f32 sums
  // differ in their last bit across a bf16 rounding boundary: the tolerance
  // below covers one bf16 step of one P element.
  double tolerance = 1e-3;
  if (pv) {
    std::vector<double> s = ref;
    for (int i = 0; i < kRows; ++i) {
      double rowMax = s[i * kRows];
      for (int k = 1; k < kRows; ++k)
        rowMax = std::max(rowMax, s[i * kRows + k]);
      for (int j = 0; j < kCols; ++j) {
        double sum = 0.0;
        for (int k = 0; k < kRows; ++k)
          sum += fromBf16(toBf16(static_cast<float>(s[i * kRows + k]))) * b[k * kCols + j];
        ref[i * kCols + j] = sum / rowMax;
      }
    }
    tolerance = 2e-2;
  }

  if (dump) {
    const int picks[][2] = {{0, 0}, {0, 1}, {1, 0}, {7, 8}, {31, 32}, {63, 0}, {0, 63}, {63, 63}};
    for (const auto &p : picks)
      std::printf("C[%d][%d] = %.7g (want %.7g)\n", p[0], p[1],
                  static_cast<double>(c[p[0] * kRows + p[1]]), ref[p[0] * kRows + p[1]]);
  }

  double maxError = 0.0;
  int mismatches = 0;
  std::string firstMismatches;
  for (int i = 0; i < kRows; ++i)
    for (int j = 0; j < kRows; ++j) {
      double got = c[i * kRows + j], want = ref[i * kRows + j];
      double error = std::fabs(got - want);
      // Written so that a NaN (an element the kernel did not write) fails.
      if (!(error <= tolerance + tolerance * std::fabs(want))) {
        if (mismatches < 5) {
          char line[160];
          std::snprintf(line, sizeof line, "  (%d, %d): got %.7g, want %.7g\n", i, j, got, want);
          firstMismatches += line;
        }
        ++mismatches;
      } else if (error > maxError) {
        maxError = error;
      }
    }
  api.memFree(dA);
  api.memFree(dB);
  api.memFree(dC);
  if (mismatches) {
    std::printf("tilegpu %s tile: FAIL (%d of %zu elements wrong; first ones:)\n%s", tileName,
                mismatches, n, firstMismatches.c_str());
    return kFail;
  }
  std::printf("tilegpu %s tile: PASS (max abs error %.3g)\n", tileName, maxError);
  return kPass;
}
