// A conda-style Python base image built here, offline, as an OCI layout: Debian's own
// python3.11 interpreter at /opt/conda/bin (with `python` beside it), the shared libraries
// it loads, the part of its standard library that a small training script imports (under
// /opt/conda/lib/python3.11, where the interpreter finds it from its own location), and
// busybox for a shell. Its PATH is only /opt/conda/bin followed by the usual folders, as a
// conda or PyTorch base's is: a Job that replaced PATH would not find `python`.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace gkebuild::testing {

// The modules the base carries besides what the interpreter loads at start-up (site, encodings…).
inline const std::vector<std::string> kPythonBaseModules = {"argparse", "gettext", "locale", "json", "math", "random", "os", "shutil", "textwrap", "time"};

// Builds the base into `dir`/oci (once per folder); returns "oci:ABSOLUTE-DIR/oci:python-base".
// Fails the calling test (and returns "") when the host lacks /usr/bin/python3.11 or busybox.
std::string build_python_base(const std::filesystem::path& dir);

}  // namespace gkebuild::testing
