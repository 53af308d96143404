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
//   tilec-run-case --repeatable DIR  also launch again: outputs bitwise equal
//   tilec-run-case --short-by-one=BUFFER DIR
//                                    the runtime must refuse the launch when
//                                    BUFFER's device allocation is one
//                                    element short (passes when it does)
//
// Exit: 0 all passed, 1 a failure, 77 no GPU (the reason is printed).
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Json.h"
#include "tilec/Runtime/Metadata.h"
#include "tilec/Runtime/Runtime.h"
#include "tilec/Support/Numeric.h"

#include <algorithm>
#include <climits>
#include <cmath>
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

/// `fail` for the checks that return whether the case is good.
bool reject(const std::string &dir, const std::string &message) {
  fail(dir, message);
  return false;
}

/// `value` (which may be absent) as an integer (json::integerOf).
std::optional<int64_t> integer(const json::Value *value) {
  return value ? json::integerOf(*value) : std::nullopt;
}

/// `value` as a list of integers; none when it is absent, not an array, or
/// holds anything else.
std::optional<std::vector<int64_t>> ints(const json::Value *value) {
  if (!value || !value->isArray())
    return std::nullopt;
  std::vector<int64_t> out;
  for (const json::Value &v : value->array) {
    std::optional<int64_t> i = integer(&v);
    if (!i)
      return std::nullopt;
    out.push_back(*i);
  }
  return out;
}

/// A buffer of the case, read on the host.
struct Buffer {
  std::string name;
  DType dtype;
  std::string input; ///< its device bytes
  std::string expectedFile;
  uint64_t address = 0;
  int64_t elements() const { return static_cast<int64_t>(input.size() / byteSize(dtype)); }
};

/// An argument of the case: a scalar, or a tensor / pointer into a buffer.
struct Argument {
  enum class Kind { Scalar, Tensor, Pointer } kind = Kind::Scalar;
  double scalar = 0;
  size_t buffer = 0;
  int64_t offset = 0;
  std::vector<int64_t> shape, strides;
};

/// Everything case.json says, checked before any GPU work: the buffers
/// hold what the arguments reach, the expected outputs can fail.
struct Case {
  std::string ptx;
  rt::KernelMetadata meta;
  std::array<int64_t, 3> grid{};
  std::vector<Buffer> buffers;
  std::vector<Argument> args;
  double tolerance = 1e-2;
  /// False: outputs are sums of atomic adds (see casefile::kRepeatable).
  bool repeatable = true;
};

/// The expected values of `buffer` (doubles in its expected file).
bool readExpected(const std::string &dir, const Buffer &buffer, std::vector<double> &expected) {
  std::string data;
  if (!rt::readFile(dir + "/" + buffer.expectedFile, data))
    return false;
  expected.resize(data.size() / sizeof(double));
  std::memcpy(expected.data(), data.data(), expected.size() * sizeof(double));
  return true;
}

/// Why `arg` reaches outside its buffer (or has a bad shape), or nothing.
std::optional<std::string> outOfBuffer(const Argument &arg, const Buffer &buffer) {
  if (arg.offset < 0 || arg.offset > buffer.elements())
    return "offset " + std::to_string(arg.offset) + " is outside buffer '" + buffer.name +
           "' of " + std::to_string(buffer.elements()) + " elements";
  if (arg.kind != Argument::Kind::Tensor)
    return std::nullopt;
  if (arg.shape.size() != arg.strides.size())
    return "shape and strides have different ranks";
  int64_t last = arg.offset; // the furthest element it may touch
  for (size_t d = 0; d < arg.shape.size(); ++d) {
    if (arg.shape[d] < 0 || arg.strides[d] < 0)
      return "negative sizes or strides are not taken";
    if (arg.shape[d] == 0)
      return std::nullopt; // an empty tensor touches nothing
    if (arg.strides[d] > 0 && arg.shape[d] - 1 > (INT64_MAX - last) / arg.strides[d])
      return "its extent overflows 64 bits";
    last += (arg.shape[d] - 1) * arg.strides[d];
  }
  if (last >= buffer.elements())
    return "it reaches element " + std::to_string(last) + " of buffer '" + buffer.name +
           "', which has " + std::to_string(buffer.elements());
  return std::nullopt;
}

/// Reads and checks DIR's case; false after printing why.
bool readCase(const std::string &dir, Case &c) {
  std::string text, error;
  if (!rt::readFile(dir + "/case.json", text))
    return reject(dir, "no case.json (write one with tilec --export-case=DIR)");
  std::optional<json::Value> doc = json::parse(text, error);
  if (!doc)
    return reject(dir, "case.json: " + error);
  if (doc->kind != json::Value::Kind::Object)
    return reject(dir, "case.json is not an object");
  std::string metaText;
  const json::Value *ptxName = doc->get(casefile::kPtx), *metaName = doc->get(casefile::kMetadata);
  if (!ptxName || !metaName || !ptxName->isString() || !metaName->isString() ||
      !rt::readFile(dir + "/" + ptxName->string, c.ptx) ||
      !rt::readFile(dir + "/" + metaName->string, metaText))
    return reject(dir, "cannot read the PTX or metadata named in case.json");
  if (!rt::parseMetadata(metaText, c.meta, error))
    return reject(dir, metaName->string + ": " + error);
  std::optional<std::vector<int64_t>> grid = ints(doc->get(casefile::kGrid));
  if (!grid || grid->size() != 3)
    return reject(dir, "case.json needs a grid of three integers");
  c.grid = {(*grid)[0], (*grid)[1], (*grid)[2]};
  if (const json::Value *t = doc->get(casefile::kTolerance)) {
    if (!t->isNumber() || !std::isfinite(t->number) || t->number < 0)
      return reject(dir, "the tolerance must be a finite number >= 0");
    c.tolerance = t->number;
  }
  if (const json::Value *r = doc->get(casefile::kRepeatable)) {
    if (r->kind != json::Value::Kind::Bool)
      return reject(dir, "'repeatable' must be true or false");
    c.repeatable = r->boolean;
  }

  const json::Value *bufferList = doc->get(casefile::kBuffers);
  if (!bufferList || !bufferList->isArray())
    return reject(dir, "case.json lists no buffers");
  for (const json::Value &b : bufferList->array) {
    Buffer buffer;
    const json::Value *name = b.get(casefile::kBufferName), *dtype = b.get(casefile::kBufferDType),
                      *input = b.get(casefile::kBufferInput),
                      *expected = b.get(casefile::kBufferExpected);
    buffer.name = name && name->isString() ? name->string : "?";
    std::optional<DType> type = dtype && dtype->isString() ? parseDType(dtype->string) : std::nullopt;
    if (!type)
      return reject(dir, "buffer '" + buffer.name + "' has no valid dtype");
    buffer.dtype = *type;
    if (!input || !input->isString() || !rt::readFile(dir + "/" + input->string, buffer.input))
      return reject(dir, "cannot read the contents of buffer '" + buffer.name + "'");
    if (buffer.input.size() % byteSize(buffer.dtype))
      return reject(dir, "buffer '" + buffer.name + "' is not a whole number of elements");
    if (expected && expected->isString()) {
      // The reference must be able to fail the run: one value per element,
      // not all NaN (which compares equal to a NaN output).
      buffer.expectedFile = expected->string;
      std::string values;
      if (!rt::readFile(dir + "/" + buffer.expectedFile, values))
        return reject(dir, "cannot read " + buffer.expectedFile);
      if (values.size() != static_cast<size_t>(buffer.elements()) * sizeof(double))
        return reject(dir, buffer.expectedFile + " holds " + std::to_string(values.size() / 8) +
                               " values for the " + std::to_string(buffer.elements()) +
                               " elements of buffer '" + buffer.name + "'");
      std::vector<double> numbers(values.size() / sizeof(double));
      std::memcpy(numbers.data(), values.data(), values.size());
      if (!numbers.empty() && std::all_of(numbers.begin(), numbers.end(),
                                          [](double v) { return std::isnan(v); }))
        return reject(dir, "the expected values of buffer '" + buffer.name +
                               "' are all NaN: the check could not fail");
    }
    c.buffers.push_back(std::move(buffer));
  }

  const json::Value *argList = doc->get(casefile::kArgs);
  if (!argList || !argList->isArray())
    return reject(dir, "case.json lists no arguments");
  for (size_t i = 0; i < argList->array.size(); ++i) {
    const json::Value &a = argList->array[i];
    std::string where = "argument " + std::to_string(i) + ": ";
    Argument arg;
    const json::Value *tensor = a.get(casefile::kArgTensor),
                      *pointer = a.get(casefile::kArgPointer), *scalar = a.get(casefile::kArgScalar);
    if (scalar) {
      if (!scalar->isNumber())
        return reject(dir, where + "the scalar is not a number");
      arg.scalar = scalar->number;
      c.args.push_back(arg);
      continue;
    }
    const json::Value *index = tensor ? tensor : pointer;
    if (!index)
      return reject(dir, where + "neither tensor, pointer nor scalar");
    std::optional<int64_t> buffer = integer(index);
    if (!buffer || *buffer < 0 || *buffer >= static_cast<int64_t>(c.buffers.size()))
      return reject(dir, where + "names no buffer of the case");
    arg.kind = tensor ? Argument::Kind::Tensor : Argument::Kind::Pointer;
    arg.buffer = static_cast<size_t>(*buffer);
    if (const json::Value *offset = a.get(casefile::kArgOffset)) {
      std::optional<int64_t> value = integer(offset);
      if (!value)
        return reject(dir, where + "the offset is not an integer");
      arg.offset = *value;
    }
    if (tensor) {
      std::optional<std::vector<int64_t>> shape = ints(a.get(casefile::kArgShape)),
                                          strides = ints(a.get(casefile::kArgStrides));
      if (!shape || !strides)
        return reject(dir, where + "a tensor needs integer shape and strides");
      arg.shape = *shape;
      arg.strides = *strides;
    }
    if (std::optional<std::string> why = outOfBuffer(arg, c.buffers[arg.buffer]))
      return reject(dir, where + *why);
    c.args.push_back(std::move(arg));
  }
  return true;
}

/// Options that apply to every case of a run.
struct RunOptions {
  int timeRepeats = 0;
  bool repeatable = false;
  /// The buffer to allocate one element short on the device (empty: none).
  std::string shortBuffer;
};

int runCase(const std::string &dir, const RunOptions &options) {
  const int timeRepeats = options.timeRepeats;
  const bool repeatable = options.repeatable;
  // What can be checked without a GPU comes first.
  Case c;
  if (!readCase(dir, c))
    return 1;
  std::string error;
  rt::Device *gpu = rt::Device::open(error);
  if (!gpu) {
    std::printf("SKIP %s: %s\n", dir.c_str(), error.c_str());
    return kSkip;
  }
  rt::Kernel kernel;
  if (!gpu->load(c.ptx, c.meta, kernel, error))
    return fail(dir, error);

  // Buffers: upload inputs (outputs start as their sentinel contents).
  bool shortened = false;
  for (Buffer &buffer : c.buffers) {
    size_t bytes = buffer.input.size();
    if (buffer.name == options.shortBuffer && bytes >= byteSize(buffer.dtype)) {
      bytes -= byteSize(buffer.dtype);
      shortened = true;
    }
    if (!gpu->alloc(bytes, buffer.address, error) ||
        !gpu->copyToDevice(buffer.address, buffer.input.data(), bytes, error))
      return fail(dir, error);
  }
  if (!options.shortBuffer.empty() && !shortened)
    return fail(dir, "--short-by-one: the case has no buffer '" + options.shortBuffer +
                         "' of at least one element");
  std::vector<rt::Arg> args;
  for (const Argument &arg : c.args) {
    const Buffer &buffer = c.buffers[arg.buffer];
    uint64_t address = buffer.address + static_cast<uint64_t>(arg.offset) * byteSize(buffer.dtype);
    if (arg.kind == Argument::Kind::Scalar)
      args.push_back(arg.scalar);
    else if (arg.kind == Argument::Kind::Tensor)
      args.push_back(rt::TensorArg{address, arg.shape, arg.strides});
    else
      args.push_back(rt::PointerArg{address});
  }
  const std::array<int64_t, 3> &grid = c.grid;
  const rt::KernelMetadata &meta = c.meta;
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

  if (shortened) {
    if (gpu->launch(kernel, grid, args, error)) {
      gpu->synchronize(error);
      return fail(dir, "launched with buffer '" + options.shortBuffer +
                           "' one element short: the runtime should have refused it");
    }
    std::printf("PASS %s: the launch with '%s' one element short was refused: %s\n",
                dir.c_str(), options.shortBuffer.c_str(), error.c_str());
    return 0;
  }
  if (!gpu->launch(kernel, grid, args, error) || !gpu->synchronize(error))
    return fail(dir, error);

  bool ok = true;
  std::vector<std::vector<uint8_t>> outputs; // of the buffers with expected values, in order
  for (const Buffer &buffer : c.buffers) {
    if (buffer.expectedFile.empty())
      continue;
    std::vector<uint8_t> &bytes = outputs.emplace_back(buffer.input.size());
    if (!gpu->copyToHost(bytes.data(), buffer.address, bytes.size(), error))
      return fail(dir, error);
    std::vector<double> expected;
    if (!readExpected(dir, buffer, expected))
      return fail(dir, "cannot read " + buffer.expectedFile);
    Comparison cmp = compareOutputs(decode(buffer.dtype, bytes), expected);
    bool pass = cmp.within(c.tolerance);
    ok = ok && pass;
    std::printf("%s %s %-5s max |error| %.3g, normalized %.3g (tolerance %.3g), NaN %lld, "
                "inf mismatches %lld, worst element %lld\n",
                pass ? "PASS" : "FAIL", dir.c_str(), buffer.name.c_str(), cmp.maxAbsError,
                cmp.normalizedError, c.tolerance, static_cast<long long>(cmp.nanCount),
                static_cast<long long>(cmp.infMismatches),
                static_cast<long long>(cmp.worstIndex));
  }
  if (repeatable) {
    // Outputs reset to what the case stored, a second launch, the same bits.
    for (const Buffer &buffer : c.buffers)
      if (!buffer.expectedFile.empty() &&
          !gpu->copyToDevice(buffer.address, buffer.input.data(), buffer.input.size(), error))
        return fail(dir, error);
    if (!gpu->launch(kernel, grid, args, error) || !gpu->synchronize(error))
      return fail(dir, error);
    size_t index = 0;
    for (const Buffer &buffer : c.buffers) {
      if (buffer.expectedFile.empty())
        continue;
      std::vector<uint8_t> again(buffer.input.size());
      if (!gpu->copyToHost(again.data(), buffer.address, again.size(), error))
        return fail(dir, error);
      bool same = again == outputs[index++];
      if (!c.repeatable) {
        // Atomic adds in another order: the second launch is checked
        // against the expected values again instead.
        std::vector<double> expected;
        if (!readExpected(dir, buffer, expected))
          return fail(dir, "cannot read " + buffer.expectedFile);
        bool pass = compareOutputs(decode(buffer.dtype, again), expected).within(c.tolerance);
        ok = ok && pass;
        std::printf("%s %s %-5s second launch %s (atomic adds: %s)\n", pass ? "PASS" : "FAIL",
                    dir.c_str(), buffer.name.c_str(),
                    pass ? "within tolerance" : "outside tolerance",
                    same ? "bitwise equal this time" : "not bitwise repeatable by design");
        continue;
      }
      ok = ok && same;
      std::printf("%s %s %-5s %s\n", same ? "PASS" : "FAIL", dir.c_str(), buffer.name.c_str(),
                  same ? "bitwise equal in a second launch" : "differs in a second launch");
    }
  }
  if (timeRepeats > 0) {
    float ms = 0;
    if (!gpu->launch(kernel, grid, args, error) || !gpu->synchronize(error) ||
        !gpu->time(kernel, grid, args, timeRepeats, ms, error))
      return fail(dir, error);
    std::printf("TIME %s %.4f ms per launch (%d launches)\n", dir.c_str(), ms / timeRepeats,
                timeRepeats);
  }
  for (const Buffer &buffer : c.buffers)
    gpu->free(buffer.address, error);
  return ok ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  RunOptions options;
  std::vector<std::string> dirs;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--time=", 0) == 0) {
      options.timeRepeats = std::atoi(arg.c_str() + 7);
    } else if (arg == "--repeatable") {
      options.repeatable = true;
    } else if (arg.rfind("--short-by-one=", 0) == 0) {
      options.shortBuffer = arg.substr(15);
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
      std::printf("usage: tilec-run-case [--time=N] [--repeatable] CASE_DIR...\n"
                  "       tilec-run-case [--time=N] [--repeatable] --cases-in=DIR   (every case "
                  "under DIR)\n"
                  "Runs each case written by `tilec --export-case=DIR` on GPU 0 and checks\n"
                  "its outputs against the reference. --time=N also times N launches;\n"
                  "--repeatable launches again and requires bitwise equal outputs.\n"
                  "--short-by-one=BUFFER allocates BUFFER one element short and passes when\n"
                  "the runtime refuses the launch (its bounds check, on a real GPU).\n"
                  "Exit 0: all pass, 1: a failure, 77: no GPU here (the reason is printed).\n");
      return 0;
    } else
      dirs.push_back(arg);
  }
  if (dirs.empty()) {
    std::fprintf(stderr, "tilec-run-case: give one or more case directories (see --help)\n");
    return 1;
  }
  if (dirs.size() == 1)
    return runCase(dirs[0], options);
  // Several cases: each in its own process, so a fault that poisons the CUDA
  // context fails that case only.
  int failures = 0, skips = 0;
  for (const std::string &dir : dirs) {
    std::fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
      int code = runCase(dir, options);
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
