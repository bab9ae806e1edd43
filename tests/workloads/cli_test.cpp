// The workload programs as a user runs them: exit codes, messages on stderr for bad input,
// and stdout holding nothing but valid result lines.
#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <sstream>

#include <nlohmann/json.hpp>

#include "base/atomic_file.h"
#include "tests/common/run.h"
#include "tests/common/temp_dir.h"

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
// arguments, one per line, from the ConfigMap gkebuild renders (tests/tool/submit checks the rest).
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
  for (const std::string model : {"cnn", "mlp"}) {
    const std::string checkpoint = (dir.path() / (model + ".ckpt")).string();
    const ProgramRun r = run(MNIST_TRAIN, "--device cpu --model " + model + " --data " + data +
                                              " --epochs 2 --hidden 32 --save " + checkpoint);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(expect_result_lines(r.out, "mnist-train"), 10);  // five metrics an epoch
    const auto first = nlohmann::json::parse(r.out.substr(0, r.out.find('\n')));
    EXPECT_EQ(first["shape"]["model"], model);
    EXPECT_EQ(first["shape"]["train_samples"], 600);
    if (model == "cnn") {
      EXPECT_EQ(first["shape"]["conv1"], 8);
      EXPECT_EQ(first["shape"]["flat"], 400);
    }
    EXPECT_TRUE(std::filesystem::exists(checkpoint));
    const ProgramRun loaded = run(MNIST_TRAIN, "--device cpu --model " + model + " --hidden 32 --data " + data +
                                                   " --epochs 0 --load " + checkpoint);
    ASSERT_EQ(loaded.exit_code, 0) << loaded.err;
    EXPECT_EQ(expect_result_lines(loaded.out, "mnist-train"), 1);
  }
  const ProgramRun other = run(MNIST_TRAIN, "--device cpu --model mlp --hidden 32 --data " + data +
                                                " --epochs 0 --load " + (dir.path() / "cnn.ckpt").string());
  EXPECT_EQ(other.exit_code, 2);
  EXPECT_NE(other.err.find("cnn.ckpt: it holds the model cnn 1x28x28"), std::string::npos) << other.err;
}

TEST_F(WorkloadCli, MnistTrainRejectsUnknownModelsAndCpuTensorPrecisions) {
  const ProgramRun model = run(MNIST_TRAIN, "--device cpu --data . --model cnm");
  EXPECT_EQ(model.exit_code, 2);
  EXPECT_NE(model.err.find("unknown model 'cnm': expected cnn or mlp (did you mean 'cnn'?)"), std::string::npos)
      << model.err;
  const std::string data = (dir.path() / "data").string();
  ASSERT_EQ(run(MNIST_SYNTH, "--out " + data + " --train 50 --test 20").exit_code, 0);
  const ProgramRun fp16 = run(MNIST_TRAIN, "--device cpu --data " + data + " --precision fp16");
  EXPECT_EQ(fp16.exit_code, 2);
  EXPECT_NE(fp16.err.find("the CPU path trains in fp32 only; --precision fp16 needs a CUDA device"),
            std::string::npos)
      << fp16.err;
  EXPECT_EQ(run(MNIST_TRAIN, "--device cpu --data " + data + " --precision bf16").exit_code, 2);
}

// A preempted pod: SIGTERM while epoch 2 trains (sent once the epoch-1 lines are out, which
// come after epoch 1's checkpoint), then the same command again. It resumes from epoch 1's
// checkpoint and ends with the same weights, optimizer state and test accuracy, byte for
// byte, as a run that was never stopped (CPU, fixed thread count).
TEST_F(WorkloadCli, MnistTrainResumesAfterSigtermToTheSameWeights) {
  const std::string data = (dir.path() / "data").string();
  ASSERT_EQ(run(MNIST_SYNTH, "--out " + data + " --train 3000 --test 300").exit_code, 0);
  const std::string common = std::string(MNIST_TRAIN) + " --device cpu --threads 2 --data " + data +
                             " --epochs 3 --hidden 32 --seed 4";
  const ProgramRun unbroken = run(common, "--save " + (dir.path() / "unbroken.ckpt").string());
  ASSERT_EQ(unbroken.exit_code, 0) << unbroken.err;

  const std::string resumed_args = "--checkpoint-dir " + (dir.path() / "ckpt").string() + " --save " +
                                   (dir.path() / "resumed.ckpt").string();
  const std::string err_file = (dir.path() / "stopped.err").string();
  // sh starts mnist-train, says its pid, waits for it and says how it exited.
  FILE* out = ::popen((common + " " + resumed_args + " 2>" + err_file + " & pid=$!; echo pid $pid; wait $pid; echo exit $?")
                          .c_str(),
                      "r");
  ASSERT_NE(out, nullptr);
  char line[8192];
  std::string stopped_out;
  pid_t pid = 0;
  bool signalled = false;
  while (std::fgets(line, sizeof(line), out)) {
    stopped_out += line;
    if (pid == 0) std::sscanf(line, "pid %d", &pid);
    if (!signalled && pid > 0 && stopped_out.find("\"epoch\":1") != std::string::npos) {
      ASSERT_EQ(::kill(pid, SIGTERM), 0);
      signalled = true;
    }
  }
  ::pclose(out);
  const std::string stopped_err = read_file(err_file);
  ASSERT_TRUE(signalled) << stopped_out << stopped_err;
  EXPECT_NE(stopped_out.find("exit 130"), std::string::npos) << stopped_out << stopped_err;
  EXPECT_NE(stopped_err.find("SIGTERM in epoch 2: stopped after step"), std::string::npos) << stopped_err;
  EXPECT_EQ(stopped_out.find("\"epoch\":2"), std::string::npos) << "epoch 2 finished before the signal";
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "ckpt" / "epoch-000001.ckpt"));

  const ProgramRun resumed = run(common, resumed_args);
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_NE(resumed.err.find("resuming from " + (dir.path() / "ckpt" / "epoch-000001.ckpt").string() +
                             ": 1 epoch(s) done"),
            std::string::npos)
      << resumed.err;
  EXPECT_TRUE(read_file(dir.path() / "resumed.ckpt") == read_file(dir.path() / "unbroken.ckpt"))
      << "the resumed run ended with other weights, optimizer state or sample order";
  const auto last_accuracy = [](const std::string& out) {
    double accuracy = -1;
    std::istringstream lines(out);
    std::string l;
    while (std::getline(lines, l)) {
      const auto j = nlohmann::json::parse(l);
      if (j["metric"] == "test_accuracy") accuracy = j["value"].get<double>();
    }
    return accuracy;
  };
  EXPECT_EQ(last_accuracy(resumed.out), last_accuracy(unbroken.out));
  EXPECT_EQ(expect_result_lines(resumed.out, "mnist-train"), 10);  // epochs 2 and 3
}

TEST_F(WorkloadCli, MnistTrainRefusesAnotherRunsCheckpointAndSkipsATornOne) {
  const std::string data = (dir.path() / "data").string();
  ASSERT_EQ(run(MNIST_SYNTH, "--out " + data + " --train 200 --test 50").exit_code, 0);
  const auto ckpt = dir.path() / "ckpt";
  const std::string common = std::string(MNIST_TRAIN) + " --device cpu --data " + data + " --model mlp " +
                             "--checkpoint-dir " + ckpt.string();
  const ProgramRun first = run(common, "--epochs 2 --hidden 16");
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_NE(first.err.find("no checkpoint in " + ckpt.string() + " yet: starting at epoch 1"), std::string::npos);

  const ProgramRun other = run(common, "--epochs 3 --hidden 24");
  EXPECT_EQ(other.exit_code, 2);
  EXPECT_NE(other.err.find("epoch-000002.ckpt: not a checkpoint of this run: it holds the model mlp 784 16 10, "
                           "this run trains mlp 784 24 10"),
            std::string::npos)
      << other.err;
  EXPECT_TRUE(other.out.empty());

  const auto newest = ckpt / "epoch-000002.ckpt";
  std::filesystem::resize_file(newest, std::filesystem::file_size(newest) / 2);
  const ProgramRun torn = run(common, "--epochs 2 --hidden 16");
  ASSERT_EQ(torn.exit_code, 0) << torn.err;
  EXPECT_NE(torn.err.find("skipped " + newest.string() + ": torn checkpoint"), std::string::npos) << torn.err;
  EXPECT_NE(torn.err.find("resuming from " + (ckpt / "epoch-000001.ckpt").string()), std::string::npos) << torn.err;
  EXPECT_EQ(expect_result_lines(torn.out, "mnist-train"), 5);  // epoch 2 again
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
