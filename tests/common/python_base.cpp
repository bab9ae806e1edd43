#include "tests/common/python_base.h"

#include <gtest/gtest.h>

#include <sstream>

#include "base/atomic_file.h"
#include "tests/common/run.h"

namespace gkebuild::testing {
namespace fs = std::filesystem;

namespace {

constexpr const char* kPython = "/usr/bin/python3.11";
constexpr const char* kStdlib = "/usr/lib/python3.11";

// The standard library files the interpreter loads for `modules`, as it runs on this host.
std::vector<fs::path> stdlib_files() {
  std::string imports;
  for (const auto& m : kPythonBaseModules) imports += (imports.empty() ? "" : ", ") + m;
  const auto listed = run_command(std::string(kPython) + " -I -c " +
                                  shell_quoted("import sys, " + imports +
                                               "\nfor m in list(sys.modules.values()):\n"
                                               "    f = getattr(m, '__file__', None)\n"
                                               "    if f: print(f)\n"));
  EXPECT_EQ(listed.exit_code, 0) << listed.all();
  std::vector<fs::path> files;
  std::istringstream lines(listed.out);
  for (std::string line; std::getline(lines, line);)
    if (line.starts_with(std::string(kStdlib) + "/")) files.emplace_back(line);
  return files;
}

void add_busybox(const fs::path& root) {
  fs::create_directories(root / "bin");
  fs::create_directories(root / "tmp");
  fs::create_directories(root / "usr/lib");
  fs::create_directories(root / "lib64");
  fs::create_symlink("usr/lib", root / "lib");
  fs::copy_file("/usr/bin/busybox", root / "bin/busybox");
  for (const char* applet : {"sh", "echo", "cat", "ls", "env", "mkdir", "rm", "sleep", "true", "printf", "test"})
    fs::create_symlink("busybox", root / "bin" / applet);
}

}  // namespace

std::string build_python_base(const fs::path& dir) {
  const std::string reference = "oci:" + fs::absolute(dir / "oci").string() + ":python-base:1";
  if (fs::exists(dir / "oci")) return reference;
  if (!fs::exists(kPython) || !fs::exists("/usr/bin/busybox")) {
    ADD_FAILURE() << "the Python base needs " << kPython << " and /usr/bin/busybox (scripts/setup.sh installs them)";
    return "";
  }
  const fs::path context = dir / "python-base";
  add_busybox(context / "rootfs");
  const fs::path prefix = context / "rootfs/opt/conda";
  fs::create_directories(prefix / "bin");
  fs::create_symlink("python3.11", prefix / "bin/python");
  fs::create_symlink("python3.11", prefix / "bin/python3");
  fs::create_directories(prefix / "lib/python3.11/lib-dynload");  // the interpreter's exec-prefix landmark
  for (const auto& file : stdlib_files()) {
    const fs::path to = prefix / "lib/python3.11" / file.lexically_relative(kStdlib);
    fs::create_directories(to.parent_path());
    fs::copy_file(file, to, fs::copy_options::overwrite_existing);  // a symlinked file is copied as a file
  }
  write_file_atomically(context / "Dockerfile",
                        "FROM scratch\n"
                        "COPY rootfs/ /\n"
                        "COPY lib/ /usr/lib/\n"
                        "COPY lib/ld-linux-x86-64.so.2 /lib64/ld-linux-x86-64.so.2\n"
                        "COPY bin/python3.11 /opt/conda/bin/python3.11\n"
                        "ENV PATH=/opt/conda/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\n"
                        "CMD [\"python\"]\n");
  // --stage: the interpreter into bin/, the libraries it loads into lib/.
  const auto built = run_command(gkebuild_binary() + " image -q --context " + shell_quoted(context.string()) +
                                 " --stage " + kPython + " --tag python-base:1 -o " +
                                 shell_quoted("oci:" + (dir / "oci").string()));
  EXPECT_EQ(built.exit_code, 0) << built.all();
  return built.exit_code == 0 ? reference : "";
}

}  // namespace gkebuild::testing
