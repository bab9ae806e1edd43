// run_container against real runc and crun: images that `gkebuild image` built, run from
// their OCI layout, their output streamed line by line.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <future>
#include <thread>

#include "image_fixture.h"
#include "tests/common/temp_dir.h"
#include "tool/steps/local_runner/bundle.h"
#include "tool/steps/local_runner/local_run.h"

namespace gkebuild::local_runner {
namespace {

namespace fs = std::filesystem;
using gkebuild::testing::TempDir;
using Lines = std::vector<std::string>;

struct Output {
  Lines out, err;
  LineSink sink() {
    return [this](std::string_view line, bool from_stderr) { (from_stderr ? err : out).emplace_back(line); };
  }
};

class RunContainerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "runc runs rootful containers: these tests need root";
    ASSERT_FALSE(testing::test_images().probe_digest.empty());
  }

  ContainerSpec spec(const std::string& image, Lines args = {}) {
    ContainerSpec s;
    s.layout_dir = testing::test_images().layout;
    s.image = image;
    s.args = std::move(args);
    s.name = "gkebuild-test-" + std::to_string(::getpid()) + "-" + std::to_string(++runs);
    return s;
  }

  ContainerResult run(const ContainerSpec& s, Output& output) { return run_container(s, dirs(), output.sink()); }

  // The runner's folders, here in the test's own folder.
  LocalDirs dirs() const { return {work / "state", work / "bundles", work / "images"}; }

  // What the run left behind: bundles, containers known to the runtime.
  void expect_clean() {
    EXPECT_TRUE(fs::is_empty(work / "bundles"));
    for (const auto& runtime : fs::directory_iterator(work / "state")) {
      EXPECT_TRUE(fs::is_empty(runtime.path())) << runtime.path();
    }
  }

  TempDir work;
  int runs = 0;
};

// The network interfaces in /proc/net/dev lines, as the probe's "cat" step prints them.
Lines interfaces(const Lines& lines) {
  Lines out;
  for (std::string text : lines) {
    if (text.starts_with("/proc/net/dev: ")) text.erase(0, 15);
    else if (text.starts_with("/")) continue;  // another file the probe printed
    if (text.find('|') != std::string::npos || text.find(':') == std::string::npos) continue;  // the headers
    text.erase(text.find(':'));
    out.push_back(text.substr(text.find_first_not_of(' ')));
  }
  return out;
}

Lines read_lines(const std::string& file) {
  Lines out;
  std::ifstream in(file);
  for (std::string text; std::getline(in, text);) out.push_back(text);
  return out;
}

TEST_F(RunContainerTest, HelloImageStreamsItsLinesInOrder) {
  Output output;
  const auto result = run(spec("hello:1", {"a", "b", "c"}), output);
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.reason, "");
  EXPECT_EQ(output.out, (Lines{"hello, a from a gkebuild image", "hello, b from a gkebuild image",
                               "hello, c from a gkebuild image"}));
  EXPECT_TRUE(output.err.empty());
  EXPECT_EQ(result.start.size(), 24u) << result.start;
  EXPECT_TRUE(result.end.ends_with("Z")) << result.end;
  expect_clean();
}

TEST_F(RunContainerTest, TheImagesEntrypointAndCmdByDefault) {
  Output output;
  EXPECT_EQ(run(spec("hello:1"), output).exit_code, 0);
  EXPECT_EQ(output.out, (Lines{"hello, world from a gkebuild image"}));
}

TEST_F(RunContainerTest, AFailingCommandGivesItsExitCode) {
  Output output;
  const auto result = run(spec("probe:1", {"print", "before", "err", "oops", "exit", "3", "print", "never"}), output);
  EXPECT_EQ(result.exit_code, 3);
  EXPECT_EQ(result.reason, "exit code 3");
  EXPECT_EQ(output.out, (Lines{"before"}));
  EXPECT_EQ(output.err, (Lines{"oops"}));
  expect_clean();
}

TEST_F(RunContainerTest, JobCommandArgsAndEnvOverrideTheImage) {
  ContainerSpec s = spec("probe:1", {"env", "GREETING", "env", "SEED", "env", "HOSTNAME", "print", "seed=$(SEED)", "cwd"});
  s.command = {"/opt/gkebuild/bin/probe", "print", "from command"};
  s.env = {{"GREETING", "from the job"}, {"SEED", "7"}};
  Output output;
  EXPECT_EQ(run(s, output).exit_code, 0);
  EXPECT_EQ(output.out, (Lines{"from command", "GREETING=from the job", "SEED=7", "HOSTNAME=" + s.name, "seed=7",
                               "cwd=/work"}));
}

TEST_F(RunContainerTest, ArgsAloneReplaceTheCmdOnly) {
  Output output;
  EXPECT_EQ(run(spec("probe:1", {"env", "GREETING"}), output).exit_code, 0);
  EXPECT_EQ(output.out, (Lines{"GREETING=from the image"}));
  Output defaults;
  EXPECT_EQ(run(spec("probe:1"), defaults).exit_code, 0);
  EXPECT_EQ(defaults.out, (Lines{"default command"}));
}

TEST_F(RunContainerTest, TheImagesUserComesFromItsPasswd) {
  Output output;
  EXPECT_EQ(run(spec("probe:user", {"id"}), output).exit_code, 0);
  EXPECT_EQ(output.out, (Lines{"uid=1000 gid=1001 groups=50"}));
}

TEST_F(RunContainerTest, WritesStayInTheirRun) {
  Output first, second;
  EXPECT_EQ(run(spec("probe:1", {"write", "/work/out", "exists", "/work/out"}), first).exit_code, 0);
  EXPECT_EQ(first.out, (Lines{"/work/out exists"}));
  EXPECT_EQ(run(spec("probe:1", {"exists", "/work/out"}), second).exit_code, 0);
  EXPECT_EQ(second.out, (Lines{"/work/out missing"}));
  // One unpacked tree, reused, and unchanged by the runs.
  const auto cached = fs::directory_iterator(work / "images");
  EXPECT_EQ(std::distance(fs::begin(cached), fs::end(cached)), 1);
  EXPECT_FALSE(fs::exists(fs::directory_iterator(work / "images")->path() / "rootfs/work/out"));
  expect_clean();
}

// The hardening defaults, seen from inside: a network namespace with loopback only, and the
// limits in the container's cgroup (cgroup v1 here: runc mounts the container's own cgroup).
TEST_F(RunContainerTest, OwnNetworkAndTheJobsLimitsInsideTheContainer) {
  Output output;
  ContainerSpec s = spec("probe:1", {"cat", "/proc/net/dev", "cat", "/sys/fs/cgroup/memory/memory.limit_in_bytes",
                                     "cat", "/sys/fs/cgroup/cpu/cpu.cfs_quota_us", "cat", "/sys/fs/cgroup/pids/pids.max"});
  s.limits.memory_bytes = 64 << 20;
  s.limits.cpu_millis = 500;
  s.limits.pids = 100;
  const auto result = run(s, output);
  ASSERT_EQ(result.exit_code, 0) << result.reason;
  EXPECT_EQ(interfaces(output.out), Lines{"lo"}) << ::testing::PrintToString(output.out);
  const auto has = [&](const std::string& text) {
    return std::find(output.out.begin(), output.out.end(), text) != output.out.end();
  };
  EXPECT_TRUE(has("/sys/fs/cgroup/memory/memory.limit_in_bytes: 67108864")) << ::testing::PrintToString(output.out);
  EXPECT_TRUE(has("/sys/fs/cgroup/cpu/cpu.cfs_quota_us: 50000")) << ::testing::PrintToString(output.out);
  EXPECT_TRUE(has("/sys/fs/cgroup/pids/pids.max: 100")) << ::testing::PrintToString(output.out);

  Output host;
  ContainerSpec shared = spec("probe:1", {"cat", "/proc/net/dev"});
  shared.host_network = true;
  ASSERT_EQ(run(shared, host).exit_code, 0);
  EXPECT_EQ(interfaces(host.out), interfaces(read_lines("/proc/net/dev")));
}

TEST_F(RunContainerTest, AManifestDigestNamesTheImage) {
  Output output;
  EXPECT_EQ(run(spec(testing::test_images().probe_digest, {"print", "by digest"}), output).exit_code, 0);
  EXPECT_EQ(output.out, (Lines{"by digest"}));
}

TEST_F(RunContainerTest, CrunRunsTheSameImage) {
  ContainerSpec s = spec("probe:1", {"print", "under crun", "exit", "4"});
  s.runtime = "crun";
  Output output;
  const auto result = run(s, output);
  if (result.reason.find("cgroups in hybrid mode not supported") != std::string::npos) {
    // crun 1.8 refuses hosts that mount cgroup v1 controllers beside a v2 tree; its own
    // error still has to come back as the reason.
    EXPECT_TRUE(result.reason.starts_with("StartError: ")) << result.reason;
    expect_clean();
    GTEST_SKIP() << "crun cannot run containers on this host: " << result.reason;
  }
  EXPECT_EQ(result.exit_code, 4) << result.reason;
  EXPECT_EQ(output.out, (Lines{"under crun"}));
  expect_clean();
}

TEST_F(RunContainerTest, AnImageMissingFromTheLayoutIsAClearError) {
  Output output;
  try {
    run(spec("probe:2"), output);
    FAIL() << "ran an image that is not there";
  } catch (const std::runtime_error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("no image 'probe:2' in the OCI layout"), std::string::npos) << message;
    EXPECT_NE(message.find("did you mean 'probe:1'?"), std::string::npos) << message;
    EXPECT_NE(message.find("hello:1, probe:1, probe:user"), std::string::npos) << message;
  }
}

TEST_F(RunContainerTest, AProgramMissingFromTheImageIsAStartError) {
  ContainerSpec s = spec("probe:1");
  s.command = {"/no/such/program"};
  Output output;
  const auto result = run(s, output);
  EXPECT_NE(result.exit_code, 0);
  EXPECT_TRUE(result.reason.starts_with("StartError: ")) << result.reason;
  EXPECT_NE(result.reason.find("/no/such/program"), std::string::npos) << result.reason;
  expect_clean();
}

TEST_F(RunContainerTest, TheStopFlagStopsAndDeletesTheContainer) {
  std::atomic<bool> stop = false;
  ContainerSpec s = spec("probe:1", {"print", "started", "sleep", "600"});
  s.stop = &stop;
  s.stop_grace = std::chrono::seconds(1);
  Lines lines;
  const auto result = run_container(s, dirs(), [&](std::string_view line, bool) {
    lines.emplace_back(line);
    stop = true;
  });
  EXPECT_EQ(result.reason, "Stopped");
  EXPECT_EQ(lines, (Lines{"started"}));
  // The probe is PID 1 of its namespace and has no SIGTERM handler, so SIGKILL ended it.
  EXPECT_EQ(result.exit_code, 128 + 9);
  expect_clean();
}

TEST_F(RunContainerTest, AnExceptionFromTheSinkKillsAndRemovesTheContainer) {
  const ContainerSpec s = spec("probe:1", {"print", "started", "sleep", "600"});
  EXPECT_THROW(run_container(s, dirs(), [](std::string_view, bool) { throw std::logic_error("sink failed"); }),
               std::logic_error);
  expect_clean();
}

TEST_F(RunContainerTest, SeveralRunsOfOneImageAtOnce) {
  std::vector<std::future<std::pair<ContainerResult, Lines>>> runs_in_flight;
  for (int i = 0; i < 3; ++i) {
    runs_in_flight.push_back(std::async(std::launch::async, [this, s = spec("probe:1", {"print", std::to_string(i)})] {
      Output output;
      auto result = run_container(s, dirs(), output.sink());
      return std::make_pair(result, output.out);
    }));
  }
  for (int i = 0; i < 3; ++i) {
    const auto [result, lines] = runs_in_flight[static_cast<size_t>(i)].get();
    EXPECT_EQ(result.exit_code, 0) << result.reason;
    EXPECT_EQ(lines, (Lines{std::to_string(i)}));
  }
  expect_clean();
}

TEST_F(RunContainerTest, StopContainerEndsARunFromOutside) {
  ContainerSpec s = spec("probe:1", {"print", "started", "sleep", "600"});
  std::promise<void> started;
  auto running = std::async(std::launch::async, [&] {
    bool once = false;
    return run_container(s, dirs(), [&](std::string_view, bool) {
      if (!std::exchange(once, true)) started.set_value();
    });
  });
  started.get_future().wait();
  EXPECT_TRUE(stop_container(s.name, dirs()));
  const auto result = running.get();
  EXPECT_EQ(result.exit_code, 128 + 9);
  EXPECT_EQ(result.reason, "exit code 137");
  EXPECT_FALSE(stop_container(s.name, dirs()));
  expect_clean();
}

}  // namespace
}  // namespace gkebuild::local_runner

namespace gkebuild::local_runner {
namespace {

// config.json holds the container's environment (a run's secret values among it): the bundle
// is the owner's only, and goes with the Bundle.
TEST(BundleAccess, ConfigIsOwnerOnlyAndGoesWithTheBundle) {
  if (::geteuid() != 0) GTEST_SKIP() << "the overlay mount needs root";
  TempDir dir;
  std::filesystem::create_directories(dir / "image");
  std::filesystem::path folder = dir / "bundles" / "job";
  {
    const Bundle bundle(folder, dir / "image");
    bundle.write_config("{\"process\": {\"env\": [\"WANDB_API_KEY=value\"]}}");
    EXPECT_EQ(std::filesystem::status(folder).permissions(), std::filesystem::perms::owner_all);
    EXPECT_EQ(std::filesystem::status(folder / "config.json").permissions(),
              std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  }
  EXPECT_FALSE(std::filesystem::exists(folder));
}

}  // namespace
}  // namespace gkebuild::local_runner
