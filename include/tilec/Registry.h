//===- Registry.h - named, parameterized kernels (generators) ---*- C++ -*-===//
//
// A DSL kernel registers under a name with typed parameters (head dim,
// causal, block sizes...). The `tilec` driver lists and builds registered
// kernels; a user's own program that registers kernels and links the
// driver's main gets the same command line (Halide's generator model):
//
//   static tilec::RegisterKernel reg({
//       .name = "vector_add", .summary = "out = x + y",
//       .params = {{"block", ParamSpec::Type::Int, "1024", "elements per program"}},
//       .build = [](dsl::KernelBuilder &k, const Params &p) { ... }});
//
// A kernel may also describe how to run it on the CPU interpreter (`plan`):
// random inputs for given problem sizes, the launch, and the expected outputs
// from a double-precision reference.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_REGISTRY_H
#define TILEC_REGISTRY_H

#include "tilec/DSL/Types.h"
#include "tilec/Interpreter/Interpreter.h"
#include "tilec/Runtime/Metadata.h"

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tilec {

namespace dsl {
class KernelBuilder;
} // namespace dsl

/// A typed parameter that a kernel accepts.
struct ParamSpec {
  enum class Type { Int, Bool, Float, Choice };
  std::string name;
  Type type = Type::Int;
  std::string defaultValue;
  std::string help;
  std::vector<std::string> choices; ///< Choice only
  /// Int only: inclusive bounds.
  std::optional<int64_t> min, max;
  /// Int only: a value other than 0 must be a power of two (tile sizes:
  /// the GPU lowering's layouts are built on them).
  bool powerOfTwo = false;
  /// Int only: a value must be a multiple of this (0: any; head dims: 8,
  /// rows of 16 bytes).
  int64_t multipleOf = 0;

  /// "int", "bool", "float" or "one of a|b|c".
  std::string typeName() const;
  /// Empty when `value` is acceptable, otherwise why not.
  std::string check(const std::string &value) const;
};

/// What a kernel is compiled for, as far as its default schedule cares.
struct TargetInfo {
  std::string arch = "sm_80";
  /// Dots whose operands allow it run as wgmma (sm_90a; tilec --wgmma).
  bool wgmma = false;
  /// With wgmma: rings may be filled by TMA (KernelDef::sm90Pipeline), which
  /// the command line has not ruled out (--lowering=tile-to-llvm,
  /// --tma=false, --assume-aligned=false, --pipeline-stages below 2).
  bool tma = false;
};

/// Values of a kernel's parameters, by name; every parameter has a value
/// (its default unless set). Also carries the target (set by the driver from
/// --arch and --wgmma), which a kernel's default schedule may depend on.
class Params {
public:
  Params() = default;
  /// All defaults of `specs`.
  explicit Params(const std::vector<ParamSpec> &specs);

  /// Sets `name` after checking it against `specs`; returns the error, or "".
  std::string set(const std::vector<ParamSpec> &specs, const std::string &name,
                  const std::string &value);
  /// Parses `key=value`; returns the error, or "".
  std::string setAssignment(const std::vector<ParamSpec> &specs, const std::string &assignment);

  int64_t getInt(const std::string &name) const;
  bool getBool(const std::string &name) const;
  double getFloat(const std::string &name) const;
  const std::string &get(const std::string &name) const;
  const std::map<std::string, std::string> &all() const { return values; }

  const TargetInfo &target() const { return targetInfo; }
  void setTarget(TargetInfo target) { targetInfo = std::move(target); }

private:
  std::map<std::string, std::string> values;
  TargetInfo targetInfo;
};

/// A run of a kernel on the CPU interpreter: the memory, the launch and what
/// each output buffer should hold.
struct RunPlan {
  std::vector<HostBuffer> memory;
  std::vector<ArgBinding> args;
  std::array<int64_t, 3> grid{1, 1, 1};
  struct Expected {
    int buffer;
    std::vector<double> values;
  };
  std::vector<Expected> expected;
  /// Largest acceptable normalized error (see compareOutputs).
  double tolerance = 1e-2;
  /// False when outputs are sums of atomic adds (their order, so their f32
  /// rounding, differs from launch to launch).
  bool repeatable = true;
};

/// A kernel's choice of lowering on sm_90a, where wgmma and aligned tensors
/// allow more than the target's defaults.
enum class Sm90Pipeline {
  /// The target's defaults (tile-to-llvm, cp.async rings).
  Default,
  /// --lowering=tilegpu --tma: rings filled by TMA, issued by the threads
  /// that compute.
  TMA,
  /// ... --warp-specialize --ping-pong: by a producer warpgroup, the
  /// consumer warpgroups (two or more) taking turns.
  WarpSpecialized,
  /// ... --warp-specialize: by a producer warpgroup, the consumer
  /// warpgroups running side by side (no ping-pong).
  ProducerWarpgroup,
};

struct KernelDef {
  std::string name;
  std::string summary;
  /// Compile-time parameters (`--set key=value`).
  std::vector<ParamSpec> params;
  std::function<void(dsl::KernelBuilder &, const Params &)> build;
  /// Runtime problem sizes for CPU runs (`--size key=value`), and the plan.
  std::vector<ParamSpec> sizes;
  std::function<RunPlan(const Params &params, const Params &sizes, uint64_t seed)> plan;
  /// What is wrong with `sizes` for these parameters beyond each size's own
  /// bounds (query heads a GQA group does not divide, say), or "". The
  /// driver asks before planning a run.
  std::function<std::string(const Params &params, const Params &sizes)> checkSizes;
  /// The launch grid as the launch metadata states it, in terms of the
  /// parameters' shapes and scalars, e.g. {GridDim::shape("q", 1, 64),
  /// GridDim::shape("q", 0), GridDim::fixed(1)} for
  /// [cdiv(q.shape[1], 64), q.shape[0], 1]. The driver checks it against
  /// the kernel's signature.
  std::function<GridRule(const Params &params)> grid;
  /// Warps per program that suit these parameters, used when the command line
  /// does not say (--num-warps); 4 when absent.
  std::function<int64_t(const Params &params)> numWarps;
  /// The kernel's tensors always have 16-byte aligned, contiguous rows (as
  /// attention's [B·H, N, d] with d a multiple of 8): compile with
  /// --assume-aligned unless the command line says otherwise. The runtime
  /// still checks every launch.
  bool alignedByDefault = false;
  /// Whether loop-invariant dot A operands stay in shared memory
  /// (--a-in-shared) for these parameters, used when the command line does
  /// not say; off when absent.
  std::function<bool(const Params &params)> aInShared;
  /// Shared-memory slots for streamed loads (--pipeline-stages) for these
  /// parameters, used when the command line does not say; 2 when absent.
  std::function<int64_t(const Params &params)> pipelineStages;
  /// How these parameters run on sm_90a (with wgmma and aligned tensors)
  /// when the command line does not say (--lowering, --tma,
  /// --warp-specialize, --ping-pong); Sm90Pipeline::Default when absent.
  std::function<Sm90Pipeline(const Params &params)> sm90Pipeline;
  /// Whether these parameters run as a persistent grid (--persistent) when
  /// the command line does not say; off when absent.
  std::function<bool(const Params &params)> persistent;
  /// Whether these parameters, where they run as a persistent grid by
  /// default (persistent above) on a warp-specialized schedule, claim their
  /// tiles from a counter (--tile-counter) when the command line does not
  /// say; off when absent.
  std::function<bool(const Params &params)> tileCounter;
  /// Slots of the per-tile rings of the blocks a tile reads from its start
  /// (--tile-slots) for these parameters, where they run as a persistent
  /// grid by default on a warp-specialized schedule, when the command line
  /// does not say; 1 when absent.
  std::function<int64_t(const Params &params)> tileSlots;
};

/// All registered kernels, by name.
class Registry {
public:
  static Registry &global();
  /// Adds `def`; a second kernel of the same name is reported and ignored.
  void add(KernelDef def);
  const KernelDef *find(const std::string &name) const;
  std::vector<const KernelDef *> all() const;

private:
  std::map<std::string, KernelDef> kernels;
};

/// Registers a kernel during static initialization.
struct RegisterKernel {
  explicit RegisterKernel(KernelDef def) { Registry::global().add(std::move(def)); }
};

} // namespace tilec

#endif // TILEC_REGISTRY_H
