//===- Driver.cpp - the tilec command line --------------------------------===//
//
// `tilec` builds a registered DSL kernel (or reads a tile-dialect file),
// prints its IR, or runs it on the CPU interpreter. A user's own generator
// program links this driver (tilec_driver_main) and gets the same flags.
//
//===----------------------------------------------------------------------===//

#include "tilec/Driver/Driver.h"

#include "tilec/DSL/DSL.h"
#include "tilec/Dialect/Tile/Tile.h"
#include "tilec/InitAll.h"
#include "tilec/Interpreter/Interpreter.h"
#include "tilec/Passes.h"
#include "tilec/Registry.h"
#include "tilec/Runtime/Metadata.h"
#include "tilec/Support/InputCheck.h"
#include "tilec/Support/Numeric.h"
#include "tilec/Target/PTX.h"
#include "tilec/Target/Pipeline.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <climits>
#include <set>
#include <cstdio>

using namespace mlir;
namespace cl = llvm::cl;

namespace tilec {
namespace {

cl::OptionCategory category("tilec options");

cl::opt<std::string> inputFile(cl::Positional, cl::desc("[input.mlir]"), cl::init(""),
                               cl::cat(category));
cl::opt<std::string> kernelName("kernel",
                                cl::desc("Build the registered DSL kernel NAME "
                                         "(see --list-kernels)"),
                                cl::value_desc("NAME"), cl::init(""), cl::cat(category));
cl::list<std::string> settings("set",
                               cl::desc("Set a kernel parameter (repeatable): --set head_dim=128"),
                               cl::value_desc("key=value"), cl::cat(category));
cl::opt<bool> listKernels("list-kernels",
                          cl::desc("List the registered kernels and their parameters"),
                          cl::init(false), cl::cat(category));

enum class Emit { Tile, Gpu, Llvm, LlvmIR, Ptx, Cubin };
cl::opt<Emit> emit(
    "emit", cl::desc("What to produce (each is one stage further down the pipeline)"),
    cl::init(Emit::Tile),
    cl::values(clEnumValN(Emit::Tile, "tile", "tile-dialect IR (canonicalized unless --raw)"),
               clEnumValN(Emit::Gpu, "gpu", "tile IR with the distributed layout of every tile"),
               clEnumValN(Emit::Llvm, "llvm", "per-thread code in the LLVM + NVVM dialects"),
               clEnumValN(Emit::LlvmIR, "llvm-ir", "LLVM IR after O3, for NVPTX"),
               clEnumValN(Emit::Ptx, "ptx", "PTX, plus launch metadata (<output>.json)"),
               clEnumValN(Emit::Cubin, "cubin",
                          "a cubin from ptxas (CUDA toolkit), plus PTX and metadata; "
                          "prints registers, spills and shared memory")),
    cl::cat(category));
cl::opt<std::string> arch("arch", cl::desc("GPU architecture: sm_80 or sm_90a"),
                          cl::init("sm_80"), cl::cat(category));
cl::opt<int64_t> numWarps("num-warps",
                          cl::desc("Warps per program (threads per block / 32); default: the "
                                   "kernel's choice for its parameters, else 4"),
                          cl::init(4), cl::cat(category));
cl::opt<bool> prefetchLoads("prefetch-loads",
                            cl::desc("Load loop blocks one iteration ahead (tile-prefetch-loads; "
                                     "off by default: slower today, see bench/RESULTS.md)"),
                            cl::init(false), cl::cat(category));
cl::opt<bool> assumeAligned(
    "assume-aligned",
    cl::desc("Block accesses that can use 16-byte vectors use them with no scalar fallback; "
             "their tensors are marked \"aligned\" in the metadata (contiguous, 16-byte "
             "aligned base, other strides and last size multiples of 16 bytes) and the "
             "runtime checks that at launch. Default: the kernel's choice (on for the "
             "attention kernels, whose rows are d elements); --assume-aligned=false forces "
             "the general path"),
    cl::init(false), cl::cat(category));
cl::opt<int64_t> pipelineStages(
    "pipeline-stages",
    cl::desc("Shared-memory slots for each loop block load that only feeds a dot's B operand "
             "(K and V in attention): copied by cp.async stages-1 iterations ahead. Needs "
             "--assume-aligned; 0 or 1: load through registers instead. Default: the "
             "kernel's choice, else 2"),
    cl::init(2), cl::cat(category));
cl::opt<bool> aInShared(
    "a-in-shared",
    cl::desc("Keep loop-invariant A operands of dots (Q in attention) in shared memory and "
             "read them per fragment with ldmatrix, freeing their registers for the loop. "
             "Default: the kernel's choice (attention: on at d = 128)"),
    cl::init(false), cl::cat(category));
cl::opt<int64_t> minBlocksPerSM(
    "min-blocks-per-sm",
    cl::desc("Programs that must fit on one SM at once (.minnctapersm): caps the registers "
             "per thread at 64K / (threads per program x N); 0: no cap. Default: the "
             "kernel's choice"),
    cl::init(0), cl::cat(category));
cl::opt<bool> wgmma(
    "wgmma",
    cl::desc("sm_90a: run dots as warpgroup wgmma.mma_async where they fit (4 warps, M a "
             "multiple of 64, B streamed through shared memory: K and V in attention); "
             "the rest stays mma.sync. Default: on for sm_90a; --wgmma=false keeps "
             "mma.sync everywhere"),
    cl::init(true), cl::cat(category));
cl::opt<bool> tma(
    "tma",
    cl::desc("sm_90a with --lowering=tilegpu: fill the shared-memory rings that feed wgmma "
             "(K and V in attention) by TMA onto mbarriers instead of cp.async; the runtime "
             "makes the tensor maps from the tensor arguments (metadata \"tensor_maps\"). "
             "Default: off"),
    cl::init(false), cl::cat(category));
cl::opt<bool> warpSpecialize(
    "warp-specialize",
    cl::desc("With --tma: one more warpgroup (a producer, few registers) issues every TMA copy "
             "into the rings as slots free up (full/empty mbarriers); the kernel's "
             "--num-warps warps only compute. Default: off"),
    cl::init(false), cl::cat(category));
cl::opt<bool> pingPong(
    "ping-pong",
    cl::desc("With --warp-specialize and two or more consumer warpgroups (--num-warps=8): "
             "they take turns issuing each iteration's first dots on named barriers, so one "
             "warpgroup's softmax runs while the other's dots execute. Default: off"),
    cl::init(false), cl::cat(category));
cl::opt<bool> persistentGrid(
    "persistent",
    cl::desc("Programs loop over the kernel's grid (tile-persistent-grid): the runtime "
             "launches only as many as fit on the GPU at once (metadata \"persistent\") and "
             "passes the grid; with --warp-specialize the producer fills the next tile's "
             "rings during this one's epilogue. Default: off"),
    cl::init(false), cl::cat(category));
cl::opt<bool> tileCounter(
    "tile-counter",
    cl::desc("With --persistent and --warp-specialize: programs claim their tiles from a "
             "global counter as they come free (tilegpu-claim-tiles; FlashAttention-3's "
             "scheduler) instead of taking them in a static order. The counter belongs to "
             "the loaded module: launches of one kernel must not overlap. Default: off"),
    cl::init(false), cl::cat(category));
cl::opt<int64_t> tileSlots(
    "tile-slots",
    cl::desc("With --persistent and --warp-specialize: shared-memory slots (1 or 2) for the "
             "blocks a tile reads from its start (attention's Q). With 2 the producer loads "
             "the next tile's Q while the consumers work on this one. Default: 1"),
    cl::init(1), cl::cat(category));
cl::opt<int64_t> exp2OnFma(
    "exp2-on-fma",
    cl::desc("With --lowering=tilegpu: one in N of the online softmax's exp2 on each thread "
             "by a cubic polynomial on the FMA pipes (relative error 1e-4) instead of "
             "MUFU.EX2, whose throughput (16 a clock per SM) matches the tensor cores' at "
             "d = 64; 0: none. Default: 0 (measured slower at every N on the H100: "
             "bench/RESULTS.md, session 32)"),
    cl::init(0), cl::cat(category));
cl::opt<bool> waitBeforeNextDot(
    "wait-before-next-dot",
    cl::desc("With --lowering=tilegpu: each wgmma wait stays before the next wgmma's issue "
             "instead of sinking past it (with the attention template's overlap, P·V then "
             "issues once Q·Kᵀ is done, and ptxas keeps the softmax before P·V's wait; "
             "without it ptxas moves that wait above the softmax). Default: off (2-14 % "
             "slower on the H100: bench/RESULTS.md, session 34)"),
    cl::init(false), cl::cat(category));
cl::opt<bool> keepWorkAboveWaits(
    "keep-work-above-waits",
    cl::desc("With --lowering=tilegpu: each wgmma wait keeps the softmax's row sums that the "
             "loop carries computed before it in ptxas's schedule as well (a store of them "
             "under a predicate no launch makes true), so the overlapped softmax runs beside "
             "P·V instead of after its wait; ptxas otherwise schedules the wait as early as "
             "its registers allow. Default: off (d = 192 +1 to +7 %, d = 128 -1 to -7 % on the "
             "H100: bench/RESULTS.md, session 48)"),
    cl::init(false), cl::cat(category));
cl::opt<int64_t> f32StagingBytes(
    "f32-staging-bytes",
    cl::desc("With --lowering=tilegpu and --tma: the column-block bytes (swizzle, TMA box row) "
             "of the shared buffer that stages an f32 tile for a TMA store or reduction (the "
             "fused backward's dQ): 128, or 32, where each warp's stores of an accumulator's "
             "column pairs meet no bank conflict (ncu: 4 wavefronts a store at 128, ideal 2). "
             "Default: 128 (32 is 4-8 % slower in the fused d = 128 backward on the H100: "
             "bench/RESULTS.md, session 51)"),
    cl::init(128), cl::cat(category));
cl::opt<std::string> lowering(
    "lowering",
    cl::desc("How tilegpu IR becomes per-thread code: tile-to-llvm or tilegpu "
             "(tilegpu-lower-dots, tilegpu-pipeline-streams, barriers, allocation and the "
             "op-by-op convert-tilegpu-to-nvvm; an op it cannot lower is refused by name). "
             "Both compile every registered kernel. Default: the kernel's schedule (on "
             "sm_90a the attention forward and some backward kernels take tilegpu with "
             "TMA rings), else tile-to-llvm"),
    cl::init("tile-to-llvm"), cl::cat(category));
/// Whether dots run as wgmma where they fit (--wgmma, on sm_90a only).
bool useWgmma() { return wgmma && arch == "sm_90a"; }
cl::opt<std::string> dumpDir("dump-ir-dir",
                             cl::desc("Write the IR after every GPU pipeline pass into DIR"),
                             cl::value_desc("DIR"), cl::init(""), cl::cat(category));
cl::opt<bool> passTiming("pass-timing",
                         cl::desc("Report the time of every pass and of each stage"),
                         cl::init(false), cl::cat(category));
cl::opt<bool> printPipeline(
    "print-pipeline",
    cl::desc("Print, instead of the --emit stage's output, the tilec-opt command that runs "
             "its MLIR passes with every option resolved (the kernel's schedule defaults, "
             "wgmma for the arch): tile: canonicalize and cse; gpu: "
             "--tilec-annotate-pipeline; llvm, llvm-ir, ptx, cubin: --tilec-gpu-pipeline "
             "(LLVM IR, O3 and NVPTX follow in process). Its input is the kernel's "
             "--emit=tile --raw IR (or --emit=tile), or the input file"),
    cl::init(false), cl::cat(category));
cl::opt<bool> raw("raw", cl::desc("Print the IR exactly as built, without canonicalize/cse"),
                  cl::init(false), cl::cat(category));
cl::opt<std::string> outputFile("o", cl::desc("Output file ('-' for stdout)"),
                                cl::value_desc("file"), cl::init("-"), cl::cat(category));

enum class RunOn { None, Cpu };
cl::opt<RunOn> runOn("run", cl::desc("Run the kernel instead of printing it"),
                     cl::init(RunOn::None),
                     cl::values(clEnumValN(RunOn::Cpu, "cpu",
                                           "on the CPU interpreter, with random inputs, "
                                           "checked against the kernel's reference")),
                     cl::cat(category));
cl::list<std::string> sizes("size",
                            cl::desc("Problem size for --run (repeatable): --size seq_q=300"),
                            cl::value_desc("key=value"), cl::cat(category));
cl::opt<std::string> exportCase(
    "export-case",
    cl::desc("Compile the kernel to PTX and write DIR/case.json with its metadata, random "
             "inputs (--size, --seed) and the reference's outputs, for tilec-run-case"),
    cl::value_desc("DIR"), cl::init(""), cl::cat(category));
cl::opt<uint64_t> seed("seed", cl::desc("Seed of the random inputs for --run"), cl::init(1),
                       cl::cat(category));

void printError(const std::string &message) {
  std::fprintf(stderr, "tilec: error: %s\n", message.c_str());
}

std::string describeParams(const std::vector<ParamSpec> &specs, const char *indent) {
  std::string text;
  for (const ParamSpec &spec : specs)
    text += fmt::format("{}{:<14} {:<22} default {:<8} {}\n", indent, spec.name, spec.typeName(),
                        spec.defaultValue, spec.help);
  return text;
}

int printKernelList() {
  std::vector<const KernelDef *> defs = Registry::global().all();
  if (defs.empty()) {
    std::printf("no kernels are registered in this program\n");
    return 0;
  }
  for (const KernelDef *def : defs) {
    std::printf("%s", fmt::format("{:<30} {}\n", def->name, def->summary).c_str());
    std::printf("%s", describeParams(def->params, "    --set ").c_str());
    if (def->plan)
      std::printf("%s", describeParams(def->sizes, "    --size ").c_str());
  }
  return 0;
}

/// The registered kernel and its parameters from the command line, or an
/// error listing what is accepted.
const KernelDef *lookupKernel(Params &params) {
  const KernelDef *def = Registry::global().find(kernelName);
  if (!def) {
    std::vector<std::string> names;
    for (const KernelDef *d : Registry::global().all())
      names.push_back(d->name);
    printError(fmt::format("unknown kernel '{}'; registered kernels: {}", kernelName.getValue(),
                           names.empty() ? "(none)" : fmt::format("{}", fmt::join(names, ", "))));
    return nullptr;
  }
  params = Params(def->params);
  auto allows = [](const auto &option, auto wanted) {
    return !option.getNumOccurrences() || option.getValue() == wanted;
  };
  bool tmaAllowed = useWgmma() && allows(lowering, std::string("tilegpu")) && allows(tma, true) &&
                    allows(assumeAligned, true) &&
                    (!pipelineStages.getNumOccurrences() || pipelineStages >= 2);
  params.setTarget(TargetInfo{arch, useWgmma(), tmaAllowed});
  for (const std::string &assignment : settings) {
    if (std::string error = params.setAssignment(def->params, assignment); !error.empty()) {
      printError(fmt::format("kernel '{}': {}", def->name, error));
      std::fprintf(stderr, "parameters of '%s':\n%s", def->name.c_str(),
                   describeParams(def->params, "  ").c_str());
      return nullptr;
    }
  }
  return def;
}

int writeModule(ModuleOp module) {
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> output = openOutputFile(outputFile, &error);
  if (!output) {
    printError(error);
    return 1;
  }
  module.print(output->os());
  output->os() << "\n";
  output->keep();
  return 0;
}

int simplify(MLIRContext &context, ModuleOp module) {
  if (raw)
    return 0;
  PassManager pm(&context);
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  return failed(pm.run(module)) ? 1 : 0;
}

/// The problem sizes from --size, checked against the kernel's.
std::optional<Params> problemSizes(const KernelDef &def) {
  Params problem(def.sizes);
  for (const std::string &assignment : sizes) {
    if (std::string error = problem.setAssignment(def.sizes, assignment); !error.empty()) {
      printError(fmt::format("kernel '{}': {}", def.name, error));
      return std::nullopt;
    }
  }
  // Tensor sizes are 32-bit on the GPU (the runtime refuses more), so a
  // case or a CPU run past that would check nothing the GPU can run.
  for (const ParamSpec &spec : def.sizes)
    if (spec.type == ParamSpec::Type::Int && problem.getInt(spec.name) > INT32_MAX) {
      printError(fmt::format("kernel '{}': --size {}={} is over 2147483647 (2^31 - 1): tensor "
                             "sizes are 32-bit on the GPU",
                             def.name, spec.name, problem.getInt(spec.name)));
      return std::nullopt;
    }
  return problem;
}

/// The kernel's run for the --size and --seed of the command line, or an
/// error when it describes none or the sizes are wrong.
std::optional<RunPlan> runPlan(const KernelDef &def, const Params &params) {
  if (!def.plan) {
    printError(fmt::format("kernel '{}' does not describe a run (no problem sizes)", def.name));
    return std::nullopt;
  }
  std::optional<Params> problem = problemSizes(def);
  if (!problem)
    return std::nullopt;
  if (def.checkSizes)
    if (std::string error = def.checkSizes(params, *problem); !error.empty()) {
      printError(fmt::format("kernel '{}': {}", def.name, error));
      return std::nullopt;
    }
  return def.plan(params, *problem, seed);
}

int runOnCpu(ModuleOp module, const KernelDef &def, const Params &params,
             const KernelSignature &signature) {
  std::optional<RunPlan> maybePlan = runPlan(def, params);
  if (!maybePlan)
    return 1;
  RunPlan &plan = *maybePlan;
  auto start = std::chrono::steady_clock::now();
  if (!interpret(module, def.name, signature, plan.args, plan.grid, plan.memory))
    return 1;
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%s", fmt::format("ran {} on the CPU interpreter: grid ({}, {}, {}), {:.2f} s\n",
                                def.name, plan.grid[0], plan.grid[1], plan.grid[2], seconds)
                        .c_str());
  bool ok = true;
  for (const RunPlan::Expected &expected : plan.expected) {
    const HostBuffer &buffer = plan.memory[expected.buffer];
    Comparison cmp = compareOutputs(buffer.data, expected.values);
    bool pass = cmp.within(plan.tolerance);
    ok = ok && pass;
    std::printf("%s", fmt::format("  {:<6} {} elements: max |error| {:.3g}, normalized {:.3g} "
                                  "(tolerance {:.3g}), NaN {}, inf mismatches {}: {}\n",
                                  buffer.name, buffer.data.size(), cmp.maxAbsError,
                                  cmp.normalizedError, plan.tolerance, cmp.nanCount,
                                  cmp.infMismatches, pass ? "ok" : "MISMATCH")
                          .c_str());
  }
  return ok ? 0 : 1;
}

/// The kernel being built, for defaults that depend on it (null for files).
const KernelDef *currentKernel = nullptr;
Params currentParams;

/// `option`'s value where the command line gives it, else `fallback`.
template <typename T> T resolved(const cl::opt<T> &option, const T &fallback) {
  return option.getNumOccurrences() ? option.getValue() : fallback;
}

/// `option`'s value where the command line gives it, else the kernel's own
/// default (the KernelDef member `kernelDefault`, where it has one), else
/// `fallback`.
template <typename T, typename R>
T resolved(const cl::opt<T> &option, std::function<R(const Params &)> KernelDef::*kernelDefault,
           const T &fallback) {
  if (option.getNumOccurrences() == 0 && currentKernel && currentKernel->*kernelDefault)
    return (currentKernel->*kernelDefault)(currentParams);
  return resolved(option, fallback);
}

/// The target and schedule of this compilation with every default resolved:
/// the command line's flags, else the kernel's choice for its parameters,
/// else what `module` records in tilec.target (a file tilec wrote), else the
/// flags' defaults (wgmma: on for sm_90a). Null, after an error naming the
/// flag or the entry, when tilec cannot compile for the result.
std::optional<GpuTarget> resolveTarget(ModuleOp module) {
  FailureOr<GpuTarget> recorded = readTargetAttr(module);
  if (failed(recorded))
    return std::nullopt;
  bool hasRecord = module->hasAttr(kTargetAttrName);
  if (std::string error = verifyGpuTarget(*recorded, ""); hasRecord && !error.empty()) {
    printError(fmt::format("the input's {}: {}", kTargetAttrName, error));
    return std::nullopt;
  }
  GpuTarget target;
  target.arch = resolved(arch, recorded->arch);
  target.numWarps = resolved(numWarps, &KernelDef::numWarps, recorded->numWarps);
  target.prefetchLoads = resolved(prefetchLoads, recorded->prefetchLoads);
  target.assumeAligned = resolved(
      assumeAligned, currentKernel ? currentKernel->alignedByDefault : recorded->assumeAligned);
  target.pipelineStages =
      resolved(pipelineStages, &KernelDef::pipelineStages, recorded->pipelineStages);
  target.aInShared = resolved(aInShared, &KernelDef::aInShared, recorded->aInShared);
  target.minBlocksPerSM = resolved(minBlocksPerSM, recorded->minBlocksPerSM);
  // wgmma follows the arch unless recorded for the same arch; an explicit
  // --wgmma on another arch is an error, not ignored.
  bool archGiven = arch.getNumOccurrences() > 0;
  target.wgmma = resolved(wgmma, hasRecord && !archGiven ? recorded->wgmma
                                                         : target.arch == "sm_90a");
  // The kernel's schedule may want TMA rings (--lowering=tilegpu --tma),
  // or also a producer warpgroup (--warp-specialize), with ping-pong
  // (--ping-pong) or without, where wgmma and aligned tensors allow it and
  // the command line does not pick another lowering.
  Sm90Pipeline wanted = currentKernel && currentKernel->sm90Pipeline
                            ? currentKernel->sm90Pipeline(currentParams)
                            : Sm90Pipeline::Default;
  bool tmaRings = wanted != Sm90Pipeline::Default && target.arch == "sm_90a" && target.wgmma &&
                  target.assumeAligned && target.pipelineStages >= 2 &&
                  resolved(lowering, std::string("tilegpu")) == "tilegpu";
  bool turns = wanted == Sm90Pipeline::WarpSpecialized;
  bool specialized = tmaRings && (turns || wanted == Sm90Pipeline::ProducerWarpgroup);
  target.lowering = resolved(lowering, tmaRings ? std::string("tilegpu") : recorded->lowering);
  target.tma = resolved(tma, tmaRings || recorded->tma);
  target.warpSpecialize =
      resolved(warpSpecialize, (specialized && target.tma) || recorded->warpSpecialize);
  target.pingPong = resolved(pingPong, (specialized && turns && target.warpSpecialize &&
                                        target.numWarps >= 8) ||
                                           recorded->pingPong);
  // The kernel's persistent default holds for the schedule it was measured
  // with: none of that schedule's choices overridden on the command line.
  const bool defaultSchedule =
      !numWarps.getNumOccurrences() && !pipelineStages.getNumOccurrences() &&
      !aInShared.getNumOccurrences() && !lowering.getNumOccurrences() && !tma.getNumOccurrences() &&
      !warpSpecialize.getNumOccurrences() && !pingPong.getNumOccurrences();
  bool persistentByDefault = currentKernel && currentKernel->persistent && tmaRings &&
                             defaultSchedule && currentKernel->persistent(currentParams);
  target.persistent = resolved(persistentGrid, persistentByDefault || recorded->persistent);
  // The counter's and the tile rings' defaults hold where the persistent
  // default does.
  const bool persistentDefaultHolds =
      persistentByDefault && target.persistent && target.warpSpecialize;
  bool counterByDefault = persistentDefaultHolds && currentKernel->tileCounter &&
                          currentKernel->tileCounter(currentParams);
  target.tileCounter = resolved(tileCounter, counterByDefault || recorded->tileCounter);
  int64_t slotsByDefault = persistentDefaultHolds && currentKernel->tileSlots
                               ? currentKernel->tileSlots(currentParams)
                               : recorded->tileSlots;
  target.tileSlots = resolved(tileSlots, slotsByDefault);
  target.exp2OnFma = resolved(exp2OnFma, recorded->exp2OnFma);
  target.waitBeforeNextDot = resolved(waitBeforeNextDot, recorded->waitBeforeNextDot);
  target.keepWorkAboveWaits = resolved(keepWorkAboveWaits, recorded->keepWorkAboveWaits);
  target.f32StagingBytes = resolved(f32StagingBytes, recorded->f32StagingBytes);
  if (std::string error = verifyGpuTarget(target, "--"); !error.empty()) {
    printError(error);
    return std::nullopt;
  }
  return target;
}

/// What the lowered kernel (the llvm.func with nvvm.kernel) records about
/// itself for the launch metadata: its dynamic shared memory is
/// tilec.shared_bytes (tile-to-llvm) or tilegpu.shared_bytes
/// (tilegpu-allocate-shared-memory; absent when it has none). Its
/// tilec.tensor_maps, when it takes CUDA tensor maps as trailing arguments,
/// describe one each: {tensor = the function-argument position where the
/// tensor's arguments start, box = outermost first, swizzle = bytes}.
struct LoweredKernel {
  std::string name;
  int64_t sharedBytes = 0;
  std::set<int64_t> alignedArgs; ///< function-argument positions
  std::vector<std::string> functionArgs;
  std::vector<Type> argTypes;
  ArrayAttr tensorMaps; ///< null when it takes none
  /// nvvm.reqntid's x (more than the target's warps when warp roles add a
  /// producer); 0 when it states none.
  int64_t threads = 0;
  /// Its programs claim tiles from the module's counter (tilegpu-claim-tiles).
  bool claimsTiles = false;
};

LoweredKernel loweredKernel(ModuleOp module) {
  LoweredKernel kernel;
  module.walk([&](LLVM::LLVMFuncOp fn) {
    if (!fn->hasAttr(NVVM::NVVMDialect::getKernelFuncAttrName()))
      return;
    kernel.name = fn.getName().str();
    if (auto threads = fn->getAttrOfType<DenseI32ArrayAttr>("nvvm.reqntid"); threads && !threads.empty())
      kernel.threads = threads[0];
    if (auto list = fn->getAttrOfType<DenseI64ArrayAttr>("tilec.aligned_args"))
      kernel.alignedArgs.insert(list.asArrayRef().begin(), list.asArrayRef().end());
    for (llvm::StringRef name : {"tilec.shared_bytes", "tilegpu.shared_bytes"})
      if (auto bytes = fn->getAttrOfType<IntegerAttr>(name))
        kernel.sharedBytes = bytes.getInt();
    kernel.tensorMaps = fn->getAttrOfType<ArrayAttr>("tilec.tensor_maps");
    kernel.claimsTiles =
        static_cast<bool>(module.lookupSymbol((fn.getName() + tilec::kTileCounterSuffix).str()));
    for (Type t : fn.getArgumentTypes()) {
      kernel.argTypes.push_back(t);
      std::string text;
      llvm::raw_string_ostream os(text);
      os << t;
      kernel.functionArgs.push_back(text);
    }
  });
  return kernel;
}

/// Emits one value through `write` on a single line (an entry of "params"
/// or "grid", the list of function arguments), inside indented `json`.
void compactValue(llvm::json::OStream &json,
                  llvm::function_ref<void(llvm::json::OStream &)> write) {
  json.rawValue([&](llvm::raw_ostream &os) {
    llvm::json::OStream line(os);
    write(line);
  });
}

void writeGridDim(llvm::json::OStream &json, const GridDim &dim) {
  using namespace metadata;
  json.object([&] {
    if (dim.kind == GridDim::Kind::Constant) {
      json.attribute(kGridConstant, dim.constant);
      return;
    }
    json.attribute(kGridParam, dim.param);
    if (dim.kind == GridDim::Kind::Shape)
      json.attribute(kGridAxis, dim.axis);
    json.attribute(kGridDivisor, dim.divisor);
    if (dim.less)
      json.attribute(kGridLess, dim.less);
  });
}

/// The kernel's tilec.tensor_maps as the metadata's "tensor_maps" (empty
/// when it has none); none, after an error, when they are not the trailing
/// pointer arguments after those of `signature`, one naming where a tensor
/// parameter's arguments start, or not maps CUDA can make (checkTensorMap).
std::optional<std::vector<TensorMapParam>> tensorMapParams(const LoweredKernel &kernel,
                                                           const KernelSignature &signature,
                                                           bool persistent) {
  std::vector<TensorMapParam> maps;
  if (!kernel.tensorMaps)
    return maps;
  auto fail = [&](const std::string &why) {
    printError(fmt::format("kernel '{}': tilec.tensor_maps{}", kernel.name, why));
    return std::nullopt;
  };
  std::vector<int64_t> firstArgs; // of each parameter, as for tilec.aligned_args
  int64_t paramArgs = 0;
  for (const KernelParam &p : signature) {
    firstArgs.push_back(paramArgs);
    paramArgs += p.numFunctionArgs();
  }
  // A persistent kernel's grid comes between the parameters and the maps.
  int64_t gridArgs = persistent ? 3 : 0, numMaps = kernel.tensorMaps.size();
  if (paramArgs + gridArgs + numMaps != static_cast<int64_t>(kernel.argTypes.size()))
    return fail(fmt::format(": the function has {} arguments, its parameters take {}{} and its {} "
                            "tensor maps must be the rest",
                            kernel.argTypes.size(), paramArgs,
                            persistent ? " and the grid 3" : "", numMaps));
  paramArgs += gridArgs; // where the maps start
  for (int64_t i = 0; i < numMaps; ++i) {
    std::string where = fmt::format("[{}] (function argument {})", i, paramArgs + i);
    auto entry = dyn_cast<DictionaryAttr>(kernel.tensorMaps[i]);
    auto tensor = entry ? entry.getAs<IntegerAttr>("tensor") : IntegerAttr();
    auto box = entry ? entry.getAs<DenseI64ArrayAttr>("box") : DenseI64ArrayAttr();
    auto swizzle = entry ? entry.getAs<IntegerAttr>("swizzle") : IntegerAttr();
    if (!tensor || !box || !swizzle)
      return fail(where + ": expected {tensor = position : i64, box = array<i64: ...>, "
                          "swizzle = bytes : i64}");
    if (!isa<LLVM::LLVMPointerType>(kernel.argTypes[paramArgs + i]))
      return fail(where + ": a tensor map is passed as a pointer to its 128 bytes, the "
                          "argument is not a pointer");
    auto start = llvm::find(firstArgs, tensor.getInt());
    size_t param = start - firstArgs.begin();
    if (start == firstArgs.end() || signature[param].kind != KernelParam::Kind::Tensor)
      return fail(fmt::format("{}: tensor = {} is not a function-argument position where a "
                              "tensor parameter's arguments start",
                              where, tensor.getInt()));
    TensorMapParam map{param, box.asArrayRef().vec(), swizzle.getInt()};
    if (std::string why = checkTensorMap(map, signature); !why.empty())
      return fail(where + ": " + why);
    maps.push_back(map);
  }
  return maps;
}

/// The JSON that tells a runtime how to launch the lowered kernel in
/// `module`, for the target its tilec.target records (schema:
/// tilec/Runtime/Metadata.h); none, after an error, without that record.
std::optional<std::string> launchMetadata(ModuleOp module, const KernelSignature &signature,
                                          const std::optional<GridRule> &grid) {
  using namespace metadata;
  if (!module->hasAttr(kTargetAttrName)) {
    printError(fmt::format("the lowered module has no {} to write the metadata from",
                           kTargetAttrName));
    return std::nullopt;
  }
  FailureOr<GpuTarget> target = readTargetAttr(module);
  if (failed(target))
    return std::nullopt;
  LoweredKernel kernel = loweredKernel(module);
  // The most dynamic shared memory one block may use (cudaDevAttr-
  // MaxSharedMemoryPerBlockOptin): 163 KiB on the A100, 227 KiB on the H100
  // and H200.
  int64_t sharedLimit = maxSharedBytesPerBlock(target->arch);
  if (kernel.sharedBytes > sharedLimit) {
    printError(fmt::format("kernel '{}' needs {} bytes of shared memory; {} allows at most {} "
                           "({} KiB) per block (smaller tiles or fewer --pipeline-stages)",
                           kernel.name, kernel.sharedBytes, target->arch, sharedLimit,
                           sharedLimit / 1024));
    return std::nullopt;
  }
  std::optional<std::vector<TensorMapParam>> tensorMaps = tensorMapParams(kernel, signature, target->persistent);
  if (!tensorMaps)
    return std::nullopt;
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::json::OStream json(os, /*IndentSize=*/2);
  json.object([&] {
    json.attribute(kKernel, kernel.name);
    json.attribute(kArch, target->arch);
    json.attribute(kNumWarps, target->numWarps);
    json.attribute(kThreadsPerBlock, kernel.threads ? kernel.threads : 32 * target->numWarps);
    json.attribute(kSharedBytes, kernel.sharedBytes);
    if (target->persistent)
      json.attribute(kPersistent, true);
    if (kernel.claimsTiles)
      json.attribute(kTileCounter, true);
    json.attributeArray(kParams, [&] {
      int64_t firstArg = 0;
      for (const KernelParam &p : signature) {
        compactValue(json, [&](llvm::json::OStream &entry) {
          entry.object([&] {
            entry.attribute(kParamName, p.name);
            entry.attribute(kParamKind, kindName(p.kind));
            entry.attribute(kParamDType, std::string(toString(p.dtype)));
            entry.attribute(kParamRank, p.rank);
            if (p.kind == KernelParam::Kind::Tensor)
              entry.attribute(kParamAligned, kernel.alignedArgs.count(firstArg) > 0);
            if (p.unitStride)
              entry.attribute(kParamUnitStride, true);
            if (!p.sizes.empty())
              entry.attributeArray(kParamSizes, [&] {
                for (int64_t size : p.sizes)
                  size < 0 ? entry.value(nullptr) : entry.value(size);
              });
            if (!p.sizesOf.empty())
              entry.attributeArray(kParamSizesOf, [&] {
                for (const KernelParam::SizeOf &of : p.sizesOf)
                  of.param.empty() ? entry.value(nullptr) : entry.object([&] {
                    entry.attribute(kSizeOfParam, of.param);
                    entry.attribute(kSizeOfAxis, of.axis);
                  });
              });
          });
        });
        firstArg += p.numFunctionArgs();
      }
    });
    json.attributeBegin(kFunctionArgs);
    compactValue(json, [&](llvm::json::OStream &list) {
      list.array([&] {
        for (const std::string &arg : kernel.functionArgs)
          list.value(arg);
      });
    });
    json.attributeEnd();
    if (!grid)
      json.attribute(kGrid, nullptr);
    else
      json.attributeArray(kGrid, [&] {
        for (const GridDim &dim : *grid)
          compactValue(json, [&](llvm::json::OStream &entry) { writeGridDim(entry, dim); });
      });
    // Absent when the kernel takes no tensor maps.
    if (!tensorMaps->empty())
      json.attributeArray(kTensorMaps, [&] {
        for (const TensorMapParam &map : *tensorMaps)
          compactValue(json, [&](llvm::json::OStream &entry) {
            entry.object([&] {
              entry.attribute(kMapParam, signature[map.param].name);
              entry.attributeArray(kMapBox, [&] {
                for (int64_t dim : map.box)
                  entry.value(dim);
              });
              entry.attribute(kMapSwizzle, map.swizzle);
            });
          });
      });
  });
  os << "\n";
  return text;
}

/// The launch grid the kernel states for `params` (none for files), checked
/// against its signature; false after an error when it does not fit.
bool kernelGrid(const KernelDef *def, const Params &params, const KernelSignature &signature,
                std::optional<GridRule> &grid) {
  grid.reset();
  if (!def || !def->grid)
    return true;
  grid = def->grid(params);
  if (std::string error = checkGridRule(*grid, signature); !error.empty()) {
    printError(fmt::format("kernel '{}' states a launch grid that does not fit its parameters: {}",
                           def->name, error));
    return false;
  }
  return true;
}

int writeText(const std::string &path, const std::string &text) {
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> output = openOutputFile(path, &error);
  if (!output) {
    printError(error);
    return 1;
  }
  output->os() << text;
  output->keep();
  return 0;
}

/// Where ptxas is: $CUDA_HOME/bin, /usr/local/cuda/bin, then PATH.
std::string findPtxas() {
  std::vector<std::string> candidates;
  if (const char *home = std::getenv("CUDA_HOME"))
    candidates.push_back(std::string(home) + "/bin/ptxas");
  candidates.push_back("/usr/local/cuda/bin/ptxas");
  for (const std::string &c : candidates)
    if (llvm::sys::fs::can_execute(c))
      return c;
  if (auto found = llvm::sys::findProgramByName("ptxas"))
    return *found;
  return "";
}

int runPtxas(const std::string &ptxPath, const std::string &cubinPath, const GpuTarget &target) {
  std::string ptxas = findPtxas();
  if (ptxas.empty()) {
    printError("--emit=cubin needs ptxas from the CUDA toolkit; none in $CUDA_HOME/bin, "
               "/usr/local/cuda/bin or PATH");
    return 1;
  }
  llvm::SmallString<128> log;
  llvm::sys::fs::createTemporaryFile("tilec-ptxas", "log", log);
  std::string archArg = "-arch=" + target.arch;
  std::vector<llvm::StringRef> args = {ptxas, "-v", archArg, "-o", cubinPath, ptxPath};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(log),
                                                llvm::StringRef(log)};
  std::string error;
  int rc = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects, 0, 0, &error);
  auto text = llvm::MemoryBuffer::getFile(log);
  if (text)
    std::fprintf(stderr, "%s", (*text)->getBuffer().str().c_str());
  llvm::sys::fs::remove(log);
  if (rc != 0) {
    printError(fmt::format("ptxas failed (exit {}){}", rc, error.empty() ? "" : ": " + error));
    return 1;
  }
  return 0;
}

int writeBytes(const std::string &path, const void *data, size_t bytes) {
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> output = openOutputFile(path, &error);
  if (!output) {
    printError(error);
    return 1;
  }
  output->os().write(static_cast<const char *>(data), bytes);
  output->keep();
  return 0;
}

/// One entry of a case's "args": a tensor or pointer into a buffer, or a scalar.
void writeArgBinding(llvm::json::OStream &json, const ArgBinding &arg) {
  using namespace casefile;
  json.object([&] {
    if (const auto *t = std::get_if<TensorBinding>(&arg)) {
      json.attribute(kArgTensor, t->buffer);
      json.attributeArray(kArgShape, [&] {
        for (int64_t size : t->shape)
          json.value(size);
      });
      json.attributeArray(kArgStrides, [&] {
        for (int64_t stride : t->strides)
          json.value(stride);
      });
      json.attribute(kArgOffset, t->offset);
    } else if (const auto *p = std::get_if<PointerBinding>(&arg)) {
      json.attribute(kArgPointer, p->buffer);
      json.attribute(kArgOffset, p->offset);
    } else {
      json.attribute(kArgScalar, std::get<double>(arg));
    }
  });
}

/// DIR/case.json for `plan` (schema: casefile in tilec/Runtime/Metadata.h),
/// given the file of each buffer's expected contents (if it has one).
std::string caseDescription(const KernelDef &def, const RunPlan &plan,
                            const std::vector<std::optional<std::string>> &expectedFiles) {
  using namespace casefile;
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::json::OStream json(os, /*IndentSize=*/2);
  json.object([&] {
    json.attribute(kKernel, def.name);
    json.attribute(kPtx, "kernel.ptx");
    json.attribute(kMetadata, "kernel.json");
    json.attributeBegin(kGrid);
    compactValue(json, [&](llvm::json::OStream &list) {
      list.array([&] {
        for (int64_t programs : plan.grid)
          list.value(programs);
      });
    });
    json.attributeEnd();
    json.attribute(kTolerance, plan.tolerance);
    if (!plan.repeatable)
      json.attribute(kRepeatable, false);
    json.attributeArray(kBuffers, [&] {
      for (size_t i = 0; i < plan.memory.size(); ++i)
        compactValue(json, [&](llvm::json::OStream &entry) {
          entry.object([&] {
            entry.attribute(kBufferName, plan.memory[i].name);
            entry.attribute(kBufferDType, std::string(toString(plan.memory[i].dtype)));
            entry.attribute(kBufferInput, fmt::format("buffer{}.bin", i));
            if (expectedFiles[i])
              entry.attribute(kBufferExpected, *expectedFiles[i]);
            else
              entry.attribute(kBufferExpected, nullptr);
          });
        });
    });
    json.attributeArray(kArgs, [&] {
      for (const ArgBinding &arg : plan.args)
        compactValue(json, [&](llvm::json::OStream &entry) { writeArgBinding(entry, arg); });
    });
  });
  os << "\n";
  return text;
}

/// Writes a case for tilec-run-case: PTX, metadata, inputs, expected outputs.
int writeCase(ModuleOp module, const KernelDef &def, const Params &params,
              const KernelSignature &signature) {
  std::optional<RunPlan> maybePlan = runPlan(def, params);
  if (!maybePlan)
    return 1;
  RunPlan &plan = *maybePlan;
  std::optional<GpuTarget> target = resolveTarget(module);
  if (!target)
    return 1;
  if (failed(lowerToLLVMDialect(module, *target)))
    return 1;
  FailureOr<std::string> ptx = translateToPTX(module, *target);
  if (failed(ptx))
    return 1;
  std::string dir = exportCase;
  if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
    printError(fmt::format("cannot create {}: {}", dir, ec.message()));
    return 1;
  }
  std::optional<GridRule> grid;
  if (!kernelGrid(&def, params, signature, grid))
    return 1;
  std::optional<std::string> metadata = launchMetadata(module, signature, grid);
  if (!metadata || writeText(dir + "/kernel.ptx", *ptx) ||
      writeText(dir + "/kernel.json", *metadata))
    return 1;
  std::vector<std::optional<std::string>> expectedFiles;
  for (size_t i = 0; i < plan.memory.size(); ++i) {
    const HostBuffer &buffer = plan.memory[i];
    std::vector<uint8_t> bytes = encode(buffer.dtype, buffer.data);
    if (writeBytes(fmt::format("{}/buffer{}.bin", dir, i), bytes.data(), bytes.size()))
      return 1;
    expectedFiles.emplace_back();
    for (const RunPlan::Expected &e : plan.expected)
      if (e.buffer == static_cast<int>(i)) {
        expectedFiles.back() = fmt::format("buffer{}.expected.bin", i);
        if (writeBytes(dir + "/" + *expectedFiles.back(), e.values.data(),
                       e.values.size() * sizeof(double)))
          return 1;
      }
  }
  std::string caseJson = caseDescription(def, plan, expectedFiles);
  if (writeText(dir + "/case.json", caseJson))
    return 1;
  std::printf("%s", fmt::format("wrote {} ({} on {}, grid {}x{}x{})\n", dir, def.name,
                                target->arch, plan.grid[0], plan.grid[1], plan.grid[2])
                        .c_str());
  return 0;
}

/// The parameters of a kernel read from a file: its pointer and scalar
/// arguments, named by position.
KernelSignature signatureOf(ModuleOp module) {
  KernelSignature signature;
  module.walk([&](func::FuncOp fn) {
    auto dtypeOf = [](Type type) {
      if (type.isBF16()) return DType::BF16;
      if (type.isF16()) return DType::F16;
      if (type.isF32()) return DType::F32;
      if (type.isInteger(64)) return DType::I64;
      if (type.isInteger(1)) return DType::I1;
      return DType::I32;
    };
    // A pointer followed by the sizes and strides a tile.make_desc of it
    // takes, in order, is a tensor parameter (as the DSL declares them).
    auto tensorRank = [&](BlockArgument ptr) -> unsigned {
      for (Operation *user : ptr.getUsers()) {
        auto desc = dyn_cast<tile::MakeDescOp>(user);
        if (!desc || desc.getBase() != ptr)
          continue;
        unsigned first = ptr.getArgNumber() + 1, rank = desc.getShape().size();
        auto argsInOrder = [&](ValueRange values, unsigned from) {
          for (auto [i, value] : llvm::enumerate(values)) {
            auto arg = dyn_cast<BlockArgument>(value);
            if (!arg || arg.getOwner() != ptr.getOwner() || arg.getArgNumber() != from + i)
              return false;
          }
          return true;
        };
        if (argsInOrder(desc.getShape(), first) && argsInOrder(desc.getStrides(), first + rank))
          return rank;
      }
      return 0;
    };
    ArrayRef<Type> types = fn.getArgumentTypes();
    // A persistent kernel (tile-persistent-grid ran: --emit=gpu IR compiled
    // again) ends in the logical grid's three sizes, which the runtime
    // passes; they are not parameters.
    if (fn->hasAttr(kPersistentAttrName) && types.size() >= 3 &&
        llvm::all_of(types.take_back(3), [](Type t) { return t.isInteger(32); }))
      types = types.drop_back(3);
    for (unsigned i = 0; i < types.size(); ++i) {
      KernelParam param{fmt::format("arg{}", i), KernelParam::Kind::Scalar, dtypeOf(types[i]), 0};
      if (auto ptr = dyn_cast<tile::PointerType>(types[i])) {
        param.kind = KernelParam::Kind::Pointer;
        param.dtype = dtypeOf(ptr.getPointeeType());
        // (A declaration has no body to tell; it is refused later.)
        if (unsigned rank = fn.isExternal() ? 0 : tensorRank(fn.getArgument(i))) {
          param.kind = KernelParam::Kind::Tensor;
          param.rank = rank;
          i += 2 * rank;
        }
      }
      signature.push_back(param);
    }
  });
  return signature;
}

/// The tilec-opt command that runs the MLIR passes of the --emit stage on
/// its input (a kernel's --emit=tile --raw IR, or the input file), with
/// every option resolved for `target`.
std::string pipelineCommand(const GpuTarget &target) {
  if (emit == Emit::Tile)
    return raw ? "tilec-opt" : "tilec-opt --canonicalize --cse";
  return "tilec-opt " +
         pipelineFlag(emit == Emit::Gpu ? kAnnotatePipelineName : kGpuPipelineName, target);
}

/// A file compiled for the GPU holds one kernel (a func.func; a declaration
/// is the lowering's to refuse): the launch metadata describes one.
bool oneKernel(ModuleOp module) {
  // Nothing else at the top level: other ops there never reach a kernel
  // (and some crash the translation to LLVM IR).
  for (Operation &op : module.getBody()->getOperations())
    if (!isa<func::FuncOp>(op)) {
      op.emitError("expected only the kernel's func.func at the top level of the module, got '")
          << op.getName() << "'";
      return false;
    }
  SmallVector<std::string> kernels;
  for (auto fn : module.getOps<func::FuncOp>())
    kernels.push_back(fn.getName().str());
  if (kernels.size() == 1)
    return true;
  printError(kernels.empty()
                 ? fmt::format("{} defines no kernel (no func.func)", inputFile.getValue())
                 : fmt::format("{} defines {} kernels ({}); tilec compiles one per file",
                               inputFile.getValue(), kernels.size(), fmt::join(kernels, ", ")));
  return false;
}

int emitStages(MLIRContext &context, ModuleOp module, const KernelDef *def,
               const Params &params, KernelSignature signature) {
  std::optional<GpuTarget> maybeTarget;
  if (emit != Emit::Tile || printPipeline || def) {
    maybeTarget = resolveTarget(module);
    if (!maybeTarget)
      return 1;
  }
  if (printPipeline)
    return writeText(outputFile, pipelineCommand(*maybeTarget) + "\n");
  if (emit == Emit::Tile) {
    // A kernel's tile IR records the target it is built for (its schedule
    // defaults resolved): the pipelines run by name in tilec-opt read it.
    if (def)
      module->setAttr(kTargetAttrName, getTargetAttr(&context, *maybeTarget));
    if (simplify(context, module))
      return 1;
    return writeModule(module);
  }
  const GpuTarget &target = *maybeTarget;
  if (!def && !oneKernel(module))
    return 1;
  auto start = std::chrono::steady_clock::now();
  auto report = [&](const char *stage) {
    if (passTiming)
      std::fprintf(stderr, "%s",
                   fmt::format("tilec: {} done after {:.3f} s\n", stage,
                               std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                                             start)
                                   .count())
                       .c_str());
  };
  if (emit == Emit::Gpu) {
    if (failed(annotateLayouts(module, target)))
      return 1;
    return writeModule(module);
  }
  if (failed(lowerToLLVMDialect(module, target, dumpDir, passTiming)))
    return 1;
  report("lowering to the LLVM dialect");
  if (emit == Emit::Llvm)
    return writeModule(module);
  if (emit == Emit::LlvmIR) {
    FailureOr<std::string> ir = translateToLLVMIR(module, target);
    return failed(ir) ? 1 : writeText(outputFile, *ir);
  }
  FailureOr<std::string> ptx = translateToPTX(module, target);
  if (failed(ptx))
    return 1;
  report("PTX");
  if (outputFile == "-" && emit == Emit::Cubin) {
    printError("--emit=cubin needs -o FILE.cubin");
    return 1;
  }
  std::string ptxPath = outputFile;
  if (emit == Emit::Cubin) {
    llvm::SmallString<256> path(outputFile.getValue());
    llvm::sys::path::replace_extension(path, "ptx");
    ptxPath = path.str().str();
  }
  // The metadata is always made, before any output is written: its checks
  // (e.g. the shared-memory limit) are errors, and a kernel that cannot be
  // launched leaves no PTX behind. It is written next to a PTX file, not
  // next to stdout or a device such as /dev/null.
  std::optional<GridRule> grid;
  if (!kernelGrid(def, params, signature, grid))
    return 1;
  std::optional<std::string> metadata = launchMetadata(module, signature, grid);
  if (!metadata)
    return 1;
  if (writeText(ptxPath, *ptx))
    return 1;
  if (ptxPath != "-" && llvm::sys::fs::is_regular_file(ptxPath)) {
    llvm::SmallString<256> meta(ptxPath);
    llvm::sys::path::replace_extension(meta, "json");
    if (writeText(meta.str().str(), *metadata))
      return 1;
  }
  if (emit == Emit::Cubin) {
    int rc = runPtxas(ptxPath, outputFile, target);
    report("ptxas");
    return rc;
  }
  return 0;
}

} // namespace

int driverMain(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "tilec: the tile compiler driver\n\n"
      "  tilec --list-kernels                            registered DSL kernels\n"
      "  tilec --kernel=NAME [--set k=v ...] [-o out]    build one, print its tile IR\n"
      "  tilec --kernel=NAME --run=cpu [--size k=v ...]  run it on the CPU, check it\n"
      "  tilec --kernel=NAME --emit=ptx -o k.ptx         PTX + launch metadata (k.json)\n"
      "  tilec --kernel=NAME --export-case=DIR           a case for tilec-run-case (GPU)\n"
      "  tilec input.mlir [--emit=...] [-o out]          the same for a tile-dialect file\n"
      "  tilec ... --emit=llvm --print-pipeline          the tilec-opt command of a stage\n");

  if (listKernels)
    return printKernelList();
  if (kernelName.empty() == inputFile.empty()) {
    printError("give either --kernel=NAME or an input .mlir file (see --help)");
    return 1;
  }

  DialectRegistry registry;
  registerTilecDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  context.printOpOnDiagnostic(false);

  OwningOpRef<ModuleOp> module;
  const KernelDef *def = nullptr;
  Params params;
  KernelSignature signature;
  // Every diagnostic is printed, warnings too (MLIR's default prints
  // errors only): a pass that leaves a requested option unapplied says why.
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  if (!inputFile.empty()) {
    if (runOn != RunOn::None) {
      printError("--run needs --kernel (a file carries no problem description)");
      return 1;
    }
    std::string error;
    auto file = openInputFile(inputFile, &error);
    if (!file) {
      printError(error);
      return 1;
    }
    if (std::string error = findParserCrashers(file->getBuffer()); !error.empty()) {
      llvm::errs() << inputFile.getValue() << ":" << error << "\n";
      return 1;
    }
    sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
    module = parseSourceFile<ModuleOp>(sourceMgr, &context);
    if (!module)
      return 1;
    return emitStages(context, *module, nullptr, params, signatureOf(*module));
  }

  def = lookupKernel(params);
  if (!def)
    return 1;
  currentKernel = def;
  currentParams = params;
  {
    dsl::KernelBuilder builder(context, def->name);
    def->build(builder, params);
    signature = builder.signature();
    module = builder.finish();
  }
  if (!module) {
    printError(fmt::format("kernel '{}' failed to build (diagnostics above)", def->name));
    return 1;
  }
  // What passes say about the kernel as a whole (a warning that an option
  // does not apply) names the kernel, not the driver line that built it.
  Location named = FileLineColLoc::get(&context, "kernel " + def->name, 0, 0);
  (*module)->setLoc(named);
  module->walk([&](func::FuncOp fn) { fn->setLoc(named); });
  if (runOn == RunOn::Cpu)
    return runOnCpu(*module, *def, params, signature);
  if (!exportCase.empty())
    return writeCase(*module, *def, params, signature);
  return emitStages(context, *module, def, params, signature);
}

} // namespace tilec
