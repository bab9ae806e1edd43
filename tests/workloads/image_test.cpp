// The gemm-bench image that `gkebuild image` builds (the binary and the CUDA libraries it
// needs staged into a scratch image) runs under runc on a machine without a GPU: the CPU path
// starts without libcuda and prints valid result lines.
#include <gtest/gtest.h>
#include <unistd.h>

#include <sstream>

#include <nlohmann/json.hpp>

#include "tests/common/run.h"
#include "tests/common/temp_dir.h"
#include "base/atomic_file.h"
#include "gemm_bench_dockerfile.h"

namespace gkebuild::workloads {
namespace {

using testing::TempDir;

using Ran = testing::CommandResult;
using testing::run_command;

TEST(GemmBenchImage, RunsUnderRuncOnTheCpuPath) {
  TempDir dir;
  const std::string context = (dir.path() / "ctx").string(), layout = (dir.path() / "oci").string();
  write_file_atomically(dir.path() / "ctx" / "Dockerfile", testing::kGemmBenchDockerfile);
  // gzip level 1 (umoci 0.4 reads no zstd): the cuBLAS layer is large and speed is not the point.
  const Ran built =
      run_command(std::string("SOURCE_DATE_EPOCH=1700000000 " GKEBUILD_BINARY " image --context ") + context +
                  " --stage " GEMM_BENCH
                  " --tag gemm-bench:test --compression gzip --compression-level 1"
                  " --quiet --output oci:" +
                  layout + " 2>&1");
  ASSERT_EQ(built.exit_code, 0) << built.out;
  const std::string bundle = (dir.path() / "bundle").string();
  const Ran unpacked = run_command("umoci unpack --image " + layout + ":gemm-bench:test " + bundle + " 2>&1");
  ASSERT_EQ(unpacked.exit_code, 0) << unpacked.out;

  auto config = nlohmann::json::parse(read_file(dir.path() / "bundle" / "config.json"));
  config["process"]["terminal"] = false;
  config["process"]["args"] = {"/opt/gkebuild/bin/gemm-bench", "--m", "96", "--n", "80", "--k", "70", "--reps", "2"};
  write_file_atomically(dir.path() / "bundle" / "config.json", config.dump());
  const std::string root = (dir.path() / "runc").string();
  const std::string id = "gkebuild-gemm-" + std::to_string(::getpid());
  const Ran ran = run_command("runc --root " + root + " run --bundle " + bundle + " " + id + " 2>" +
                              (dir.path() / "stderr").string());
  run_command("runc --root " + root + " delete --force " + id + " 2>&1");
  ASSERT_EQ(ran.exit_code, 0) << ran.out << read_file(dir.path() / "stderr");
  EXPECT_NE(read_file(dir.path() / "stderr").find("running the CPU path"), std::string::npos);

  std::istringstream lines(ran.out);
  std::string line;
  std::vector<std::string> metrics;
  while (std::getline(lines, line)) {
    const auto j = nlohmann::json::parse(line);
    EXPECT_EQ(j.at("workload"), "gemm-bench");
    EXPECT_EQ(j.at("device").at("kind"), "cpu");
    EXPECT_TRUE(j.at("value").is_number());
    metrics.push_back(j.at("metric"));
  }
  EXPECT_EQ(metrics, (std::vector<std::string>{"max_error", "throughput", "time"}));
}

}  // namespace
}  // namespace gkebuild::workloads
