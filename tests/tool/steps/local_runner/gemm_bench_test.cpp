// The real gemm-bench workload image, as `gkebuild image` builds it (the binary and the CUDA
// libraries it needs, FROM scratch), run by the local runner on a machine without a GPU:
// its CPU path prints valid result lines, each delivered as it arrives.
#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "tests/common/run.h"
#include "tests/common/temp_dir.h"
#include "tests/workloads/gemm_bench_dockerfile.h"
#include "base/atomic_file.h"
#include "tool/steps/local_runner/local_run.h"

namespace gkebuild::local_runner {
namespace {

using gkebuild::testing::run_command;
using gkebuild::testing::shell_quoted;
using gkebuild::testing::TempDir;

TEST(GemmBenchUnderTheLocalRunner, RunsTheCpuPath) {
  if (::geteuid() != 0) GTEST_SKIP() << "runc runs rootful containers: this test needs root";
  TempDir dir;
  write_file_atomically(dir / "ctx/Dockerfile", testing::kGemmBenchDockerfile);
  // zstd level 1: the cuBLAS layer is large and speed is not the point.
  const auto built = run_command("env SOURCE_DATE_EPOCH=1700000000 " + gkebuild::testing::gkebuild_binary() +
                                 " image --quiet --context " + shell_quoted((dir / "ctx").string()) +
                                 " --stage " GEMM_BENCH
                                 " --tag gemm-bench:test --compression zstd --compression-level 1"
                                 " --output oci:" +
                                 shell_quoted((dir / "oci").string()));
  ASSERT_EQ(built.exit_code, 0) << built.all();

  ContainerSpec spec;
  spec.layout_dir = dir / "oci";
  spec.image = "gemm-bench:test";
  spec.args = {"--m", "96", "--n", "80", "--k", "70", "--reps", "2"};
  spec.name = "gkebuild-gemm-" + std::to_string(::getpid());
  spec.gpus = true;  // no NVIDIA device here: the runner passes nothing and the CPU path runs
  std::vector<std::string> metrics, stderr_lines;
  const auto result = run_container(spec, LocalDirs{dir / "work" / "state", dir / "work" / "bundles", dir / "work" / "images"}, [&](std::string_view line, bool from_stderr) {
    if (from_stderr) {
      stderr_lines.emplace_back(line);
      return;
    }
    const auto j = nlohmann::json::parse(line);
    EXPECT_EQ(j.at("workload"), "gemm-bench");
    EXPECT_EQ(j.at("device").at("kind"), "cpu");
    EXPECT_TRUE(j.at("value").is_number());
    metrics.push_back(j.at("metric"));
  });
  EXPECT_EQ(result.exit_code, 0) << result.reason;
  EXPECT_EQ(metrics, (std::vector<std::string>{"max_error", "throughput", "time"}));
  bool cpu_path = false;
  for (const auto& line : stderr_lines) cpu_path = cpu_path || line.find("running the CPU path") != std::string::npos;
  EXPECT_TRUE(cpu_path);
}

}  // namespace
}  // namespace gkebuild::local_runner
