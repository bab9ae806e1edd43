#include "tool/steps/workload_images/cmake_target.h"

#include <unistd.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "base/atomic_file.h"
#include "base/error.h"
#include "base/printable.h"
#include "base/suggest.h"
#include "images/oci/file_lock.h"
#include "tool/steps/workload_images/captured_command.h"

namespace gkebuild::workload_images {
namespace fs = std::filesystem;
namespace {

using nlohmann::json;

std::optional<fs::path> on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const fs::path candidate = fs::path(dir.empty() ? "." : dir) / name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return std::nullopt;
}

[[noreturn]] void fail(const std::string& message) { throw Error(ErrorKind::kBadInput, message); }

json read_json(const fs::path& file) {
  std::ifstream in(file);
  json value = json::parse(in, nullptr, false);
  if (value.is_discarded()) fail("cannot read CMake's file API reply " + file.string());
  return value;
}

// The codemodel's targets, name -> the reply file describing it.
std::map<std::string, fs::path> codemodel_targets(const fs::path& build) {
  const fs::path reply = build / ".cmake" / "api" / "v1" / "reply";
  std::error_code error;
  fs::path index;
  for (const auto& entry : fs::directory_iterator(reply, error))
    if (entry.path().filename().string().rfind("index-", 0) == 0 && entry.path() > index) index = entry.path();
  if (index.empty()) fail("CMake wrote no file API reply in " + reply.string());
  std::map<std::string, fs::path> out;
  for (const auto& object : read_json(index).value("objects", json::array())) {
    if (object.value("kind", "") != "codemodel") continue;
    const json model = read_json(reply / object.value("jsonFile", ""));
    for (const auto& configuration : model.value("configurations", json::array()))
      for (const auto& target : configuration.value("targets", json::array()))
        out[target.value("name", "")] = reply / target.value("jsonFile", "");
  }
  return out;
}

// The file the target builds, from its reply (paths are relative to the build folder).
fs::path target_artifact(const fs::path& build, const std::string& name, const fs::path& reply) {
  const json target = read_json(reply);
  if (target.value("type", "") != "EXECUTABLE")
    fail("CMake target " + in_quotes(name) + " is a " + target.value("type", "?") + ", not an executable");
  const auto artifacts = target.value("artifacts", json::array());
  if (artifacts.empty()) fail("CMake target " + in_quotes(name) + " names no file it builds");
  const fs::path path = artifacts.front().value("path", "");
  return path.is_absolute() ? path : build / path;
}

std::string joined(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) out += (out.empty() ? "" : " ") + a;
  return out;
}

void configure(const TargetBuild& request, const std::map<std::string, std::string>& environment) {
  std::vector<std::string> argv = {"cmake", "-S", request.source.string(), "-B", request.build.string(), "-G", "Ninja",
                                   "-DCMAKE_BUILD_TYPE=Release", "--no-warn-unused-cli"};
  if (!request.cuda_architectures.empty())
    argv.push_back("-DCMAKE_CUDA_ARCHITECTURES=" + request.cuda_architectures);
  if (on_path("ccache"))
    for (const char* language : {"C", "CXX", "CUDA"})
      argv.push_back(std::string("-DCMAKE_") + language + "_COMPILER_LAUNCHER=ccache");
  // Configured already with the same arguments: `cmake --build` re-runs CMake itself when a
  // CMakeLists.txt changes, so there is nothing to do.
  const fs::path stamp = request.build / "gkebuild-configure.txt";
  const std::string arguments = joined(argv) + "\n";
  std::error_code error;
  if (fs::exists(request.build / "CMakeCache.txt", error) && fs::exists(stamp, error)) {
    std::ifstream in(stamp);
    if (std::string((std::istreambuf_iterator<char>(in)), {}) == arguments) return;
  }
  fs::create_directories(request.build / ".cmake" / "api" / "v1" / "query");
  std::ofstream(request.build / ".cmake" / "api" / "v1" / "query" / "codemodel-v2");
  if (request.note) request.note("configuring " + request.source.string() + " in " + request.build.string());
  const CommandOutput result = run_captured(argv, environment);
  if (result.exit_code == 0) {
    write_file_atomically(stamp, arguments);
    return;
  }
  fs::remove(stamp, error);
  std::string message = "configuring the CMake project " + request.source.string() + " failed (" + joined(argv) +
                        "):\n" + last_lines(result.output, 25);
  if (!environment.count("CUDACXX") && result.output.find("CMAKE_CUDA_COMPILER") != std::string::npos)
    message = "the CMake project " + request.source.string() +
              " needs CUDA, and no nvcc was found: $CUDACXX is not set, nvcc is not on PATH and not in "
              "$CUDA_PATH/bin (CUDA_PATH defaults to /usr/local/cuda). Install the CUDA toolkit or point CUDA_PATH "
              "or CUDACXX at it.\n" + last_lines(result.output, 8);
  fail(message);
}

}  // namespace

std::optional<fs::path> find_nvcc() {
  if (const char* given = std::getenv("CUDACXX"); given != nullptr && *given != '\0') return fs::path(given);
  if (auto found = on_path("nvcc")) return found;
  const char* root = std::getenv("CUDA_PATH");
  const fs::path candidate = fs::path(root != nullptr && *root != '\0' ? root : "/usr/local/cuda") / "bin" / "nvcc";
  if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  return std::nullopt;
}

fs::path build_cmake_target(const TargetBuild& request) {
  std::error_code error;
  if (!fs::is_regular_file(request.source / "CMakeLists.txt", error))
    fail("no CMakeLists.txt in " + request.source.string());
  std::map<std::string, std::string> environment;
  if (auto nvcc = find_nvcc()) environment["CUDACXX"] = nvcc->string();
  fs::create_directories(request.build);
  const oci::FileLock lock(request.build / "gkebuild.lock");  // two gkebuilds building one image take turns
  configure(request, environment);
  const auto targets = codemodel_targets(request.build);
  const auto found = targets.find(request.target);
  if (found == targets.end()) {
    std::vector<std::string> names;
    for (const auto& [name, reply] : targets) names.push_back(name);
    fail("the CMake project " + request.source.string() + " has no target " + in_quotes(request.target) +
         did_you_mean(request.target, names));
  }
  if (request.note) request.note("building target " + request.target + " in " + request.build.string());
  const std::vector<std::string> argv = {"cmake", "--build", request.build.string(), "--target", request.target};
  const CommandOutput result = run_captured(argv, environment);
  if (result.exit_code != 0)
    fail("building target " + in_quotes(request.target) + " failed (" + joined(argv) + "):\n" + last_lines(result.output, 40));
  // A CMakeLists.txt edited since the configure above was re-read by the build: ask again.
  const auto after = codemodel_targets(request.build);
  if (!after.count(request.target)) fail("the CMake project " + request.source.string() + " no longer has target '" +
                                         request.target + "'");
  return target_artifact(request.build, request.target, after.at(request.target));
}

}  // namespace gkebuild::workload_images
