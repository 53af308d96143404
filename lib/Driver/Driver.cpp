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
#include "tilec/Registry.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

#include <fmt/format.h>

#include <chrono>
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
                               cl::desc("Set a kernel parameter (repeatable): --set causal=true"),
                               cl::value_desc("key=value"), cl::cat(category));
cl::opt<bool> listKernels("list-kernels",
                          cl::desc("List the registered kernels and their parameters"),
                          cl::init(false), cl::cat(category));

enum class Emit { Tile };
cl::opt<Emit> emit("emit", cl::desc("What to produce"), cl::init(Emit::Tile),
                   cl::values(clEnumValN(Emit::Tile, "tile",
                                         "tile-dialect IR (canonicalized unless --raw)")),
                   cl::cat(category));
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

int runOnCpu(ModuleOp module, const KernelDef &def, const Params &params,
             const KernelSignature &signature) {
  if (!def.plan) {
    printError(fmt::format("kernel '{}' does not describe a CPU run", def.name));
    return 1;
  }
  Params problem(def.sizes);
  for (const std::string &assignment : sizes) {
    if (std::string error = problem.setAssignment(def.sizes, assignment); !error.empty()) {
      printError(fmt::format("kernel '{}': {}", def.name, error));
      return 1;
    }
  }
  RunPlan plan = def.plan(params, problem, seed);
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
      "  tilec input.mlir [-o out]                       verify and simplify a tile file\n");

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
  if (!inputFile.empty()) {
    if (runOn != RunOn::None) {
      printError("--run needs --kernel (a file carries no problem description)");
      return 1;
    }
    llvm::SourceMgr sourceMgr;
    SourceMgrDiagnosticHandler handler(sourceMgr, &context);
    std::string error;
    auto file = openInputFile(inputFile, &error);
    if (!file) {
      printError(error);
      return 1;
    }
    sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
    module = parseSourceFile<ModuleOp>(sourceMgr, &context);
    if (!module || simplify(context, *module))
      return 1;
    return writeModule(*module);
  }

  def = lookupKernel(params);
  if (!def)
    return 1;
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
  if (runOn == RunOn::Cpu)
    return runOnCpu(*module, *def, params, signature);
  if (simplify(context, *module))
    return 1;
  return writeModule(*module);
}

} // namespace tilec
