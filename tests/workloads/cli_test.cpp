// The workload programs as a user runs them: exit codes, messages on stderr for bad input,
// and stdout holding nothing but valid result lines.
#include <gtest/gtest.h>

#include <sstream>

#include <nlohmann/json.hpp>

#include "base/atomic_file.h"
#include "common/run.h"
#include "common/temp_dir.h"

namespace gkebuild::workloads {
namespace {

using ProgramRun = testing::CommandResult;
using testing::TempDir;

class WorkloadCli : public ::testing::Test {
 protected:
  static ProgramRun run(const std::string& program, const std::string& args) {
    return testing::run_command(program + " " + args);
  }

  // Every stdout line is a result object of `workload`; returns how many there were.
  static int expect_result_lines(const std::string& out, const std::string& workload) {
    std::istringstream lines(out);
    std::string line;
    int count = 0;
    while (std::getline(lines, line)) {
      const auto j = nlohmann::json::parse(line);
      EXPECT_EQ(j.at("workload"), workload);
      EXPECT_EQ(j.at("schema"), "gkebuild.workload.v1");
      EXPECT_TRUE(j.at("value").is_number()) << line;
      for (const char* key : {"device", "precision", "shape", "metric", "unit", "repetitions", "timestamp", "host"}) {
        EXPECT_TRUE(j.contains(key)) << key << " missing: " << line;
      }
      ++count;
    }
    return count;
  }

  TempDir dir;
};

TEST_F(WorkloadCli, GemmBenchRejectsBadSizes) {
  for (const char* args : {"--m 0", "--n -3", "--k 2000000"}) {
    const ProgramRun r = run(GEMM_BENCH, std::string(args) + " --device cpu");
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_NE(r.err.find("a matrix size must be between 1 and 1048576"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty());
  }
  const ProgramRun text = run(GEMM_BENCH, "--m abc");
  EXPECT_EQ(text.exit_code, 2);
  EXPECT_NE(text.err.find("--m"), std::string::npos) << text.err;
}

TEST_F(WorkloadCli, GemmBenchRejectsUnknownPrecision) {
  const ProgramRun r = run(GEMM_BENCH, "--precision fp64 --device cpu");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown precision 'fp64': expected fp32, tf32, fp16 or bf16"), std::string::npos) << r.err;
}

TEST_F(WorkloadCli, GemmBenchCpuPathComputesFp32Only) {
  const ProgramRun r = run(GEMM_BENCH, "--precision bf16 --device cpu --m 8 --n 8 --k 8");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("bf16 needs a CUDA device"), std::string::npos) << r.err;
}

TEST_F(WorkloadCli, GemmBenchWritesResultLines) {
  const ProgramRun r = run(GEMM_BENCH, "--device cpu --m 67 --n 45 --k 129 --reps 3 --warmup 1 --threads 2");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(expect_result_lines(r.out, "gemm-bench"), 3);  // max_error, throughput, time
  const auto first = nlohmann::json::parse(r.out.substr(0, r.out.find('\n')));
  EXPECT_EQ(first["metric"], "max_error");
  EXPECT_EQ(first["extra"]["passed"], true);
  EXPECT_EQ(first["shape"], (nlohmann::json{{"m", 67}, {"n", 45}, {"k", 129}}));
  EXPECT_EQ(first["repetitions"], 3);
  EXPECT_NE(r.err.find("FLOP/s (median of 3"), std::string::npos) << r.err;
}

// An Indexed sweep's pod runs `PROGRAM --args-from /etc/gkebuild/points/INDEX`: the point's
// arguments, one per line, from the ConfigMap gkebuild renders (tests/submit checks the rest).
TEST_F(WorkloadCli, ArgumentsComeFromAPointFile) {
  TempDir dir;
  write_file_atomically(dir / "3", "--device\ncpu\n--m\n8\n--n\n8\n--k\n8\n--reps\n1\n--warmup\n0\n");
  const ProgramRun r = run(GEMM_BENCH, "--args-from " + (dir / "3").string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"m\":8"), std::string::npos) << r.out;
  const ProgramRun missing = run(GEMM_BENCH, "--args-from " + (dir / "nope").string());
  EXPECT_EQ(missing.exit_code, 2) << missing.err;
  EXPECT_NE(missing.err.find("cannot read"), std::string::npos) << missing.err;
  write_file_atomically(dir / "bad", "--m\nabc\n");
  EXPECT_EQ(run(GEMM_BENCH, "--args-from " + (dir / "bad").string()).exit_code, 2);
}

TEST_F(WorkloadCli, ConvBenchRunsOneLayerAndRejectsUnknownOnes) {
  const ProgramRun r = run(CONV_BENCH, "--device cpu --layer res5_1x1_reduce --batch 1 --reps 2 --warmup 0");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(expect_result_lines(r.out, "conv-bench"), 3);  // check, throughput, time
  const ProgramRun bad = run(CONV_BENCH, "--device cpu --layer res5_3x4");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("unknown layer 'res5_3x4' (did you mean 'res5_3x3'?)"), std::string::npos) << bad.err;
}

TEST_F(WorkloadCli, MnistTrainLearnsFromGeneratedData) {
  const std::string data = (dir.path() / "data").string();
  const ProgramRun synth = run(MNIST_SYNTH, "--out " + data + " --train 600 --test 200");
  ASSERT_EQ(synth.exit_code, 0) << synth.err;
  const std::string checkpoint = (dir.path() / "model.ckpt").string();
  const ProgramRun r = run(MNIST_TRAIN, "--device cpu --data " + data + " --epochs 2 --hidden 32 --save " + checkpoint);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(expect_result_lines(r.out, "mnist-train"), 10);  // five metrics an epoch
  EXPECT_TRUE(std::filesystem::exists(checkpoint));
  const ProgramRun resumed = run(MNIST_TRAIN, "--device cpu --data " + data + " --epochs 0 --load " + checkpoint);
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_EQ(expect_result_lines(resumed.out, "mnist-train"), 1);
}

TEST_F(WorkloadCli, MnistTrainNamesMissingAndTruncatedFiles) {
  const ProgramRun missing = run(MNIST_TRAIN, "--device cpu --data " + (dir.path() / "nowhere").string());
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("nowhere/train-images-idx3-ubyte"), std::string::npos) << missing.err;
  const std::string data = (dir.path() / "data").string();
  ASSERT_EQ(run(MNIST_SYNTH, "--out " + data + " --train 50 --test 20").exit_code, 0);
  const auto images = std::filesystem::path(data) / "t10k-images-idx3-ubyte";
  std::filesystem::resize_file(images, 300);
  const ProgramRun truncated = run(MNIST_TRAIN, "--device cpu --data " + data);
  EXPECT_EQ(truncated.exit_code, 2);
  EXPECT_NE(truncated.err.find("t10k-images-idx3-ubyte: truncated"), std::string::npos) << truncated.err;
  EXPECT_TRUE(truncated.out.empty());
}

TEST_F(WorkloadCli, MnistTrainRejectsBadHyperparameters) {
  const ProgramRun r = run(MNIST_TRAIN, "--data . --batch 0");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--batch must be between 1 and 65536"), std::string::npos) << r.err;
}

// Without a GPU gpu-info explains why; with one it lists it. Either way it does not crash.
TEST_F(WorkloadCli, GpuInfoExplainsAMissingDeviceOrListsDevices) {
  const ProgramRun r = run(GPU_INFO, "");
  if (r.exit_code == 0) {
    EXPECT_GE(expect_result_lines(r.out, "gpu-info"), 1);
    return;
  }
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("no CUDA device visible"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("nvidia.com/gpu"), std::string::npos);
  EXPECT_NE(r.err.find("/usr/local/nvidia/lib64"), std::string::npos);
  EXPECT_TRUE(r.out.empty());
  const ProgramRun cuda = run(GEMM_BENCH, "--device cuda --m 8 --n 8 --k 8");
  EXPECT_EQ(cuda.exit_code, 1);
  EXPECT_NE(cuda.err.find("use --device cpu"), std::string::npos) << cuda.err;
}

}  // namespace
}  // namespace gkebuild::workloads
