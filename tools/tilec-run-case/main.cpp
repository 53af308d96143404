//===- main.cpp - tilec-run-case: run a kernel case on the GPU and check it ===//
//
// A case is a directory written by `tilec --kernel=... --export-case=DIR`:
// the PTX and its launch metadata, the input buffers as the device stores
// them, the launch (grid and arguments), and the expected outputs from the
// double-precision reference. This tool needs only the CUDA driver, so it
// builds without LLVM on the GPU machine.
//
//   tilec-run-case DIR...            check each case (each in its own process)
//   tilec-run-case --time=N DIR      also time N back-to-back launches
//
// Exit: 0 all passed, 1 a failure, 77 no GPU (the reason is printed).
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Json.h"
#include "tilec/Runtime/Metadata.h"
#include "tilec/Runtime/Runtime.h"
#include "tilec/Support/Numeric.h"

#include <algorithm>
#include <cstdio>
#include <dirent.h>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace tilec;

namespace {

constexpr int kSkip = 77;

int fail(const std::string &dir, const std::string &message) {
  std::fprintf(stderr, "tilec-run-case: %s: %s\n", dir.c_str(), message.c_str());
  return 1;
}

std::vector<int64_t> ints(const json::Value *array) {
  std::vector<int64_t> out;
  if (array)
    for (const json::Value &v : array->array)
      out.push_back(static_cast<int64_t>(v.number));
  return out;
}

int runCase(const std::string &dir, int timeRepeats) {
  std::string text, error;
  if (!rt::readFile(dir + "/case.json", text))
    return fail(dir, "no case.json (write one with tilec --export-case=DIR)");
  std::optional<json::Value> doc = json::parse(text, error);
  if (!doc)
    return fail(dir, "case.json: " + error);

  // What can be checked without a GPU comes first.
  std::string ptx, metaText;
  const json::Value *ptxName = doc->get(casefile::kPtx), *metaName = doc->get(casefile::kMetadata);
  if (!ptxName || !metaName || !rt::readFile(dir + "/" + ptxName->string, ptx) ||
      !rt::readFile(dir + "/" + metaName->string, metaText))
    return fail(dir, "cannot read the PTX or metadata named in case.json");
  rt::KernelMetadata meta;
  if (!rt::parseMetadata(metaText, meta, error))
    return fail(dir, metaName->string + ": " + error);
  std::vector<int64_t> gridList = ints(doc->get(casefile::kGrid));
  if (gridList.size() != 3)
    return fail(dir, "case.json needs a grid of three numbers");
  std::array<int64_t, 3> grid{gridList[0], gridList[1], gridList[2]};

  rt::Device *gpu = rt::Device::open(error);
  if (!gpu) {
    std::printf("SKIP %s: %s\n", dir.c_str(), error.c_str());
    return kSkip;
  }
  rt::Kernel kernel;
  if (!gpu->load(ptx, meta, kernel, error))
    return fail(dir, error);

  // Buffers: upload inputs (outputs start as their sentinel contents).
  struct Buffer {
    std::string name;
    DType dtype;
    uint64_t address = 0;
    size_t bytes = 0;
    std::string expectedFile;
  };
  std::vector<Buffer> buffers;
  const json::Value *bufferList = doc->get(casefile::kBuffers);
  if (!bufferList)
    return fail(dir, "case.json lists no buffers");
  for (const json::Value &b : bufferList->array) {
    Buffer buffer;
    buffer.name = b.get(casefile::kBufferName) ? b.get(casefile::kBufferName)->string : "?";
    std::optional<DType> dtype = b.get(casefile::kBufferDType) ? parseDType(b.get(casefile::kBufferDType)->string) : std::nullopt;
    if (!dtype)
      return fail(dir, "buffer '" + buffer.name + "' has no valid dtype");
    buffer.dtype = *dtype;
    std::string data;
    if (!b.get(casefile::kBufferInput) ||
        !rt::readFile(dir + "/" + b.get(casefile::kBufferInput)->string, data))
      return fail(dir, "cannot read the contents of buffer '" + buffer.name + "'");
    buffer.bytes = data.size();
    if (!gpu->alloc(buffer.bytes, buffer.address, error) ||
        !gpu->copyToDevice(buffer.address, data.data(), data.size(), error))
      return fail(dir, error);
    if (const json::Value *e = b.get(casefile::kBufferExpected); e && e->isString())
      buffer.expectedFile = e->string;
    buffers.push_back(buffer);
  }

  const json::Value *argList = doc->get(casefile::kArgs);
  if (!argList || !argList->isArray())
    return fail(dir, "case.json lists no arguments");
  std::vector<rt::Arg> args;
  for (const json::Value &a : argList->array) {
    const json::Value *offsetValue = a.get(casefile::kArgOffset);
    int64_t offset = offsetValue ? static_cast<int64_t>(offsetValue->number) : 0;
    const json::Value *tensor = a.get(casefile::kArgTensor),
                      *pointer = a.get(casefile::kArgPointer), *scalar = a.get(casefile::kArgScalar);
    if (scalar) {
      args.push_back(scalar->number);
      continue;
    }
    const json::Value *index = tensor ? tensor : pointer;
    if (!index)
      return fail(dir, "an argument in case.json is neither tensor, pointer nor scalar");
    if (!index->isNumber() || index->number < 0 || index->number >= static_cast<double>(buffers.size()))
      return fail(dir, "an argument in case.json names no buffer of the case");
    const Buffer &buffer = buffers[static_cast<size_t>(index->number)];
    uint64_t address = buffer.address + static_cast<uint64_t>(offset) * byteSize(buffer.dtype);
    if (tensor)
      args.push_back(rt::TensorArg{address, ints(a.get(casefile::kArgShape)),
                                   ints(a.get(casefile::kArgStrides))});
    else
      args.push_back(rt::PointerArg{address});
  }
  if (meta.grid) {
    std::optional<std::array<int64_t, 3>> stated = rt::launchGrid(meta, args, error);
    if (!stated)
      return fail(dir, error);
    if (*stated != grid)
      return fail(dir, "case.json's grid (" + std::to_string(grid[0]) + ", " +
                           std::to_string(grid[1]) + ", " + std::to_string(grid[2]) +
                           ") is not the metadata's " + toString(*meta.grid) + " = (" +
                           std::to_string((*stated)[0]) + ", " + std::to_string((*stated)[1]) +
                           ", " + std::to_string((*stated)[2]) + ") for these arguments");
  }

  if (!gpu->launch(kernel, grid, args, error) || !gpu->synchronize(error))
    return fail(dir, error);

  double tolerance = doc->get(casefile::kTolerance) ? doc->get(casefile::kTolerance)->number : 1e-2;
  bool ok = true;
  for (const Buffer &buffer : buffers) {
    if (buffer.expectedFile.empty())
      continue;
    std::vector<uint8_t> bytes(buffer.bytes);
    if (!gpu->copyToHost(bytes.data(), buffer.address, buffer.bytes, error))
      return fail(dir, error);
    std::string expectedData;
    if (!rt::readFile(dir + "/" + buffer.expectedFile, expectedData))
      return fail(dir, "cannot read " + buffer.expectedFile);
    std::vector<double> expected(expectedData.size() / sizeof(double));
    std::memcpy(expected.data(), expectedData.data(), expected.size() * sizeof(double));
    Comparison cmp = compareOutputs(decode(buffer.dtype, bytes), expected);
    bool pass = cmp.within(tolerance);
    ok = ok && pass;
    std::printf("%s %s %-5s max |error| %.3g, normalized %.3g (tolerance %.3g), NaN %lld, "
                "inf mismatches %lld, worst element %lld\n",
                pass ? "PASS" : "FAIL", dir.c_str(), buffer.name.c_str(), cmp.maxAbsError,
                cmp.normalizedError, tolerance, static_cast<long long>(cmp.nanCount),
                static_cast<long long>(cmp.infMismatches),
                static_cast<long long>(cmp.worstIndex));
  }
  if (timeRepeats > 0) {
    float ms = 0;
    if (!gpu->launch(kernel, grid, args, error) || !gpu->synchronize(error) ||
        !gpu->time(kernel, grid, args, timeRepeats, ms, error))
      return fail(dir, error);
    std::printf("TIME %s %.4f ms per launch (%d launches)\n", dir.c_str(), ms / timeRepeats,
                timeRepeats);
  }
  for (const Buffer &buffer : buffers)
    gpu->free(buffer.address, error);
  return ok ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  int timeRepeats = 0;
  std::vector<std::string> dirs;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--time=", 0) == 0) {
      timeRepeats = std::atoi(arg.c_str() + 7);
    } else if (arg.rfind("--cases-in=", 0) == 0) {
      std::string root = arg.substr(11);
      std::vector<std::string> found;
      if (DIR *d = opendir(root.c_str())) {
        while (dirent *entry = readdir(d)) {
          std::string path = root + "/" + entry->d_name, probe;
          if (entry->d_name[0] != '.' && rt::readFile(path + "/case.json", probe))
            found.push_back(path);
        }
        closedir(d);
      }
      if (found.empty()) {
        std::printf("SKIP: no kernel cases in %s (make them with scripts/gpu-cases.sh on a "
                    "machine with LLVM)\n",
                    root.c_str());
        return kSkip;
      }
      std::sort(found.begin(), found.end());
      dirs.insert(dirs.end(), found.begin(), found.end());
    }
    else if (arg == "--help" || arg == "-h") {
      std::printf("usage: tilec-run-case [--time=N] CASE_DIR...\n"
                  "       tilec-run-case [--time=N] --cases-in=DIR   (every case under DIR)\n"
                  "Runs each case written by `tilec --export-case=DIR` on GPU 0 and checks\n"
                  "its outputs against the reference. Exit 0: all pass, 1: a failure,\n"
                  "77: no GPU here (the reason is printed).\n");
      return 0;
    } else
      dirs.push_back(arg);
  }
  if (dirs.empty()) {
    std::fprintf(stderr, "tilec-run-case: give one or more case directories (see --help)\n");
    return 1;
  }
  if (dirs.size() == 1)
    return runCase(dirs[0], timeRepeats);
  // Several cases: each in its own process, so a fault that poisons the CUDA
  // context fails that case only.
  int failures = 0, skips = 0;
  for (const std::string &dir : dirs) {
    std::fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
      int code = runCase(dir, timeRepeats);
      std::fflush(stdout);
      std::fflush(stderr);
      _exit(code);
    }
    int status = 0;
    waitpid(child, &status, 0);
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
    if (!WIFEXITED(status))
      std::printf("FAIL %s: crashed (signal %d)\n", dir.c_str(), WTERMSIG(status));
    failures += code != 0 && code != kSkip;
    skips += code == kSkip;
  }
  std::printf("%zu cases: %zu passed, %d failed, %d skipped\n", dirs.size(),
              dirs.size() - failures - skips, failures, skips);
  if (failures)
    return 1;
  return skips == static_cast<int>(dirs.size()) ? kSkip : 0;
}
