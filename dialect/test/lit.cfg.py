# lit configuration for the sdsc-opt tests. Every test is a .mlir file with
# RUN lines; tools resolve from the build's bin/ first (sdsc-opt), then
# LLVM's tool directory (FileCheck, not).
import os

import lit.formats

config.name = "SDSC"
config.test_format = lit.formats.ShTest(not lit_config.isWindows)
config.suffixes = [".mlir"]
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.sdsc_obj_root, "test")

path = os.pathsep.join([config.sdsc_tools_dir, config.llvm_tools_dir,
                        config.environment.get("PATH", os.environ.get("PATH", ""))])
config.environment["PATH"] = path

# Tools are found through PATH (build bin/ first); fail early when one is
# missing rather than letting every test fail obscurely.
for tool in ["sdsc-opt", "FileCheck", "not"]:
    if not any(os.path.exists(os.path.join(d, tool))
               for d in [config.sdsc_tools_dir, config.llvm_tools_dir]):
        lit_config.fatal("%s not found in %s or %s" % (tool, config.sdsc_tools_dir, config.llvm_tools_dir))
