# lit configuration for tilec's suites: every *.mlir file under test/ is a
# test, and so is every tile program under examples/ (each carries RUN lines).
import os
import shutil

import lit.formats
from lit.llvm import llvm_config

config.name = "tilec"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "unit", "Inputs", "regressions"]
config.test_source_root = config.suite_source_root
config.test_exec_root = config.suite_exec_root

llvm_config.use_default_substitutions()  # FileCheck, not, count
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
tool_dirs = [os.path.join(config.tilec_obj_root, "bin"), config.llvm_tools_dir]
llvm_config.add_tool_substitutions(["tilec-opt", "tilec", "tilec-relative-bias", "tilec-run-case",
                                  "tilec-bench"], tool_dirs)
# LLVM 22's own translators (the system's llc may be an older LLVM).
llvm_config.add_tool_substitutions(["mlir-translate", "llc"], [config.llvm_tools_dir])
# ptxas (CUDA toolkit) assembles generated PTX where it is installed.
ptxas = shutil.which("ptxas") or ("/usr/local/cuda/bin/ptxas"
                                  if os.path.exists("/usr/local/cuda/bin/ptxas") else None)
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
