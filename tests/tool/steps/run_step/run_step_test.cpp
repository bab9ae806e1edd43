// The RUN step against real runc and overlayfs (and, for the layer it makes, against buildah):
// each test runs commands on the busybox base (busybox_base.h) through run_in_container and
// checks the entries, or the root file system that base + layer unpack to with umoci.
#include "tool/steps/run_step/run_step.h"

#include <gtest/gtest.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "base/atomic_file.h"
#include "base/error.h"
#include "busybox_base.h"
#include "tests/common/run.h"
#include "tests/common/temp_dir.h"
#include "tool/steps/local_runner/layer_folders.h"

namespace gkebuild::run_step {
namespace {

using local_runner::kMaxLowerdirLength;
using local_runner::lower_folders;

namespace fs = std::filesystem;
using build::RunChanges;
using build::RunRequest;
using gkebuild::testing::run_command;
using gkebuild::testing::shell_quoted;
using gkebuild::testing::TempDir;
using layer::Entry;
using layer::EntryType;

struct Bases {
  std::shared_ptr<oci::Layout> layout;
  image::Image bare;  // busybox only: no /proc, /dev, /sys, /etc/hosts…
  image::Image full;  // and a second layer with the mount points (what buildah needs to add nothing)
};

class RunStepTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    bases_ = new Bases();
    bases_->layout = std::make_shared<oci::Layout>(oci::Layout::open_or_create(*dir_ / "oci"));
    bases_->bare = testing::with_layer({}, testing::busybox_entries(*dir_ / "files"), bases_->layout);
    bases_->full = testing::with_layer(bases_->bare, testing::mount_point_entries(*dir_ / "files"), bases_->layout);
    testing::tag_image(*bases_->layout, bases_->full, "full");
  }
  static void TearDownTestSuite() {
    delete bases_;
    delete dir_;
  }
  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "RUN needs root";
  }

  static RunRequest shell(const image::Image& image, const std::string& script) {
    RunRequest request;
    request.image = image;
    request.argv = {"/bin/sh", "-c", script};
    request.working_dir = "/";
    return request;
  }

  RunChanges run(const RunRequest& request) const {
    return run_in_container(request, RunStepDirs{cache_ / "state", cache_ / "runs", cache_.path(), cache_ / "cache-mounts"});
  }

  // The error the request ends with (a default one, with the test failed, when it succeeds).
  Error error_of(const RunRequest& request) const {
    try {
      run(request);
    } catch (const Error& e) {
      return e;
    }
    ADD_FAILURE() << "no error";
    return Error(ErrorKind::kFailed, "");
  }

  // The entries by path; their sources stay readable until the test ends.
  std::map<std::string, Entry> by_path(const RunChanges& changes) {
    held_.push_back(changes.holder);
    std::map<std::string, Entry> out;
    for (const auto& e : changes.entries) out[e.path] = e;
    return out;
  }

  static std::vector<std::string> paths_of(const std::map<std::string, Entry>& entries) {
    std::vector<std::string> paths;
    for (const auto& [path, e] : entries) paths.push_back(path);
    return paths;
  }

  static std::string content_of(const Entry& e) {
    std::ifstream in(e.source, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

  static const Bases& bases() { return *bases_; }
  static TempDir& dir() { return *dir_; }

  TempDir cache_;
  std::vector<std::shared_ptr<const void>> held_;

 private:
  static TempDir* dir_;
  static Bases* bases_;
};

TempDir* RunStepTest::dir_ = nullptr;
Bases* RunStepTest::bases_ = nullptr;

TEST_F(RunStepTest, NewFilesDirectoriesAndSymlinksWithTheirOwners) {
  const auto changes = run(shell(bases().bare, "mkdir -p /opt/tool && echo made > /opt/tool/file && chmod 750 /opt/tool"
                                               " && ln -s tool/file /opt/link && chown 12:34 /opt/tool/file"));
  const auto entries = by_path(changes);
  EXPECT_EQ(paths_of(entries), (std::vector<std::string>{"opt", "opt/link", "opt/tool", "opt/tool/file"}));
  EXPECT_EQ(entries.at("opt/tool").type, EntryType::kDirectory);
  EXPECT_EQ(entries.at("opt/tool").mode, 0750u);
  EXPECT_EQ(entries.at("opt/link").type, EntryType::kSymlink);
  EXPECT_EQ(entries.at("opt/link").link_target, "tool/file");
  EXPECT_EQ(entries.at("opt/tool/file").uid, 12u);
  EXPECT_EQ(entries.at("opt/tool/file").gid, 34u);
  EXPECT_EQ(content_of(entries.at("opt/tool/file")), "made\n");
}

// runc creates the mount points it needs (/proc, /dev, /sys, /etc/hosts, /etc/resolv.conf) in the
// root file system when the image lacks them; none of them is part of what the RUN changed.
TEST_F(RunStepTest, WhatTheRuntimeCreatesIsNotInTheLayer) {
  EXPECT_EQ(paths_of(by_path(run(shell(bases().bare, "echo x > /etc/added")))),
            (std::vector<std::string>{"etc", "etc/added"}));
}

TEST_F(RunStepTest, DeletionsBecomeWhiteoutsAndARemadeDirectoryIsOpaque) {
  const auto entries = by_path(run(shell(bases().bare, "rm /data/gone && rm -rf /data/sub && mkdir /data/sub && "
                                                      "echo three > /data/sub/three")));
  ASSERT_TRUE(entries.contains("data/.wh.gone"));
  EXPECT_EQ(entries.at("data/.wh.gone").type, EntryType::kFile);
  EXPECT_EQ(entries.at("data/.wh.gone").size, 0);
  EXPECT_TRUE(entries.at("data/.wh.gone").source.empty());
  EXPECT_TRUE(entries.contains("data/sub/.wh..wh..opq"));
  EXPECT_TRUE(entries.contains("data/sub/three"));
  EXPECT_FALSE(entries.contains("data/sub/two"));
  EXPECT_FALSE(entries.contains("data/one"));  // untouched
}

TEST_F(RunStepTest, AModeOrOwnerChangeCopiesTheFileUp) {
  const auto entries = by_path(run(shell(bases().bare, "chmod 600 /etc/keep && chown 1000:1000 /data/one")));
  EXPECT_EQ(entries.at("etc/keep").mode, 0600u);
  EXPECT_EQ(content_of(entries.at("etc/keep")), "keep\n");
  EXPECT_EQ(entries.at("data/one").uid, 1000u);
  EXPECT_EQ(entries.at("data/one").gid, 1000u);
}

TEST_F(RunStepTest, HardLinksShareTheFirstNameInPathOrder) {
  const auto entries = by_path(run(shell(bases().bare, "echo same > /b && ln /b /a && ln /b /c && ln /data/one /one")));
  EXPECT_EQ(entries.at("a").type, EntryType::kFile);
  EXPECT_EQ(content_of(entries.at("a")), "same\n");
  EXPECT_EQ(entries.at("b").type, EntryType::kHardlink);
  EXPECT_EQ(entries.at("b").link_target, "a");
  EXPECT_EQ(entries.at("c").link_target, "a");
  // A file of the base linked to a new name: overlayfs copies it up, both names in this layer.
  EXPECT_EQ(entries.at("data/one").type, EntryType::kFile);
  EXPECT_EQ(entries.at("one").type, EntryType::kHardlink);
  EXPECT_EQ(entries.at("one").link_target, "data/one");
}

TEST_F(RunStepTest, AUserOtherThanRootWritesInItsHome) {
  RunRequest request = shell(bases().bare, "echo $HOME > note && id -u >> note && id -g >> note");
  request.user = "app";
  request.working_dir = "/home/app";
  const auto entries = by_path(run(request));
  ASSERT_TRUE(entries.contains("home/app/note"));
  EXPECT_EQ(content_of(entries.at("home/app/note")), "/home/app\n1000\n1000\n");
  EXPECT_EQ(entries.at("home/app/note").uid, 1000u);
  EXPECT_EQ(entries.at("home/app/note").gid, 1000u);
}

TEST_F(RunStepTest, EnvironmentWorkingDirectoryAndOutputLines) {
  RunRequest request = shell(bases().bare, "echo \"$GREETING from $(pwd)\"; echo to-stderr >&2; printf 'no newline'");
  request.env = {"GREETING=hello", "PATH=/bin"};
  request.working_dir = "/data";
  std::vector<std::string> lines;
  request.output = [&](std::string_view line) { lines.emplace_back(line); };
  run(request);
  std::sort(lines.begin(), lines.end());  // stdout and stderr are two streams
  EXPECT_EQ(lines, (std::vector<std::string>{"hello from /data", "no newline", "to-stderr"}));
}

TEST_F(RunStepTest, AFailingCommandIsAnErrorWithItsStatus) {
  const Error error = error_of(shell(bases().bare, "echo partial > /partial; seq 1 30 >&2; exit 3"));
  EXPECT_EQ(error.kind(), ErrorKind::kFailed);
  std::string expected = "RUN exited with status 3; the last lines it wrote:";  // the last 20, for a log without them
  for (int i = 11; i <= 30; ++i) expected += "\n  " + std::to_string(i);
  EXPECT_EQ(error.what(), expected);
  EXPECT_STREQ(error_of(shell(bases().bare, "exit 4")).what(), "RUN exited with status 4");
  // Nothing of the failed run stays behind.
  EXPECT_TRUE(fs::is_empty(cache_ / "runs"));
}

TEST_F(RunStepTest, AMissingProgramIsAnErrorThatSaysSo) {
  RunRequest request;
  request.image = bases().bare;
  request.argv = {"/no/such/program"};
  const std::string message = error_of(request).what();
  EXPECT_TRUE(message.starts_with("RUN could not start its container: ")) << message;
  EXPECT_NE(message.find("no such file"), std::string::npos) << message;
}

TEST_F(RunStepTest, AnUnknownUserIsAnError) {
  RunRequest request = shell(bases().bare, "true");
  request.user = "nobody-here";
  const std::string message = error_of(request).what();
  EXPECT_NE(message.find("'nobody-here'"), std::string::npos) << message;
}

// The host's /etc/hosts and /etc/resolv.conf are copies the RUN may change; neither the host's
// files nor the layer see the change.
TEST_F(RunStepTest, TheNameResolutionFilesAreWritableCopies) {
  const std::string hosts_before = read_file("/etc/hosts");
  const auto entries = by_path(run(shell(bases().bare, "echo '10.0.0.1 build-only' >> /etc/hosts && "
                                                      "grep -c build-only /etc/hosts > /seen")));
  EXPECT_EQ(content_of(entries.at("seen")), "1\n");
  EXPECT_FALSE(entries.contains("etc/hosts"));
  EXPECT_EQ(read_file("/etc/hosts"), hosts_before);
}

TEST_F(RunStepTest, StdinDataReachesTheCommand) {
  RunRequest request;
  request.image = bases().bare;
  request.argv = {"/bin/sh"};
  request.stdin_data = "echo from a heredoc > /heredoc\n";
  const auto entries = by_path(run(request));
  ASSERT_TRUE(entries.contains("heredoc"));
  EXPECT_EQ(content_of(entries.at("heredoc")), "from a heredoc\n");
}

TEST_F(RunStepTest, ACacheMountSurvivesRunsAndIsNotInTheLayer) {
  RunRequest first = shell(bases().bare, "echo 1 >> /var/cache/apt/count && echo done > /first");
  first.cache_mounts = {{"/var/cache/apt", "apt"}};
  const auto one = by_path(run(first));
  EXPECT_EQ(paths_of(one), (std::vector<std::string>{"first"}));  // /var/cache/apt is a mount point
  // Its folder's mtime is its last use (what `gkebuild prune --older-than` goes by): set back, the
  // next RUN that binds it marks it used now.
  const fs::path folder = fs::directory_iterator(cache_ / "cache-mounts")->path();
  const auto long_ago = fs::file_time_type::clock::now() - std::chrono::hours(24 * 30);
  fs::last_write_time(folder, long_ago);

  RunRequest second = shell(bases().bare, "cat /var/cache/apt/count > /seen && echo 2 >> /var/cache/apt/count");
  second.cache_mounts = {{"/var/cache/apt", "apt"}};
  const auto two = by_path(run(second));
  EXPECT_EQ(paths_of(two), (std::vector<std::string>{"seen"}));
  EXPECT_EQ(content_of(two.at("seen")), "1\n");
  EXPECT_GT(fs::last_write_time(folder), long_ago + std::chrono::hours(24 * 29));

  RunRequest other = shell(bases().bare, "ls /var/cache/apt | wc -l > /seen");
  other.cache_mounts = {{"/var/cache/apt", "another-id"}};
  EXPECT_EQ(content_of(by_path(run(other)).at("seen")), "0\n");
}

// A second RUN on the image the first one made: the first layer, unpacked in overlayfs' form,
// hides what it deleted and what its opaque directory replaced.
TEST_F(RunStepTest, RunsStackOnTheLayersOfEarlierRuns) {
  const auto first = run(shell(bases().bare, "rm /data/gone && rm -rf /data/sub && mkdir /data/sub && "
                                            "echo three > /data/sub/three && echo new > /data/one"));
  const image::Image next = testing::with_layer(bases().bare, first.entries, bases().layout);
  const auto second = run(shell(next, "ls -a /data /data/sub > /listing; cat /data/one >> /listing"));
  EXPECT_EQ(content_of(by_path(second).at("listing")), "/data:\n.\n..\none\nsub\n\n/data/sub:\n.\n..\nthree\nnew\n");
}

// More layers than one overlay mount can name: the image is unpacked into one tree instead.
TEST_F(RunStepTest, AnImageWithManyLayersRunsFromOneTree) {
  image::Image image = bases().bare;
  int layers = 0;
  for (size_t length = 0; length <= kMaxLowerdirLength; length += (cache_ / "layers").string().size() + 66) {
    const std::string name = "layer" + std::to_string(++layers);
    image = testing::with_layer(image, {Entry{name, EntryType::kFile, 0644, 0, 0, 0, "", dir().write(name, "")}},
                                bases().layout);
  }
  const auto changes = run(shell(image, "ls / | grep -c layer > /count"));
  EXPECT_EQ(content_of(by_path(changes).at("count")), std::to_string(layers) + "\n");
  EXPECT_TRUE(fs::is_directory(cache_ / "chains"));
}

// A gkebuild killed during a RUN leaves its overlay mounted; the next RUN removes it.
TEST_F(RunStepTest, TheRunsOfAKilledGkebuildAreRemoved) {
  const fs::path abandoned = cache_ / "runs" / "gkebuild-run-999999999-1";
  fs::create_directories(abandoned / "lower");
  fs::create_directories(abandoned / "upper");
  fs::create_directories(abandoned / "work");
  fs::create_directories(abandoned / "rootfs");
  const std::string options = "lowerdir=" + (abandoned / "lower").string() + ",upperdir=" + (abandoned / "upper").string() +
                              ",workdir=" + (abandoned / "work").string();
  ASSERT_EQ(::mount("overlay", (abandoned / "rootfs").c_str(), "overlay", 0, options.c_str()), 0);
  const fs::path mine = cache_ / "runs" / ("gkebuild-run-" + std::to_string(::getpid()) + "-999");
  fs::create_directories(mine);  // a live process's run is left alone
  run(shell(bases().bare, "true"));
  EXPECT_FALSE(fs::exists(abandoned));
  EXPECT_TRUE(fs::exists(mine));
}

TEST_F(RunStepTest, TheUpperFolderIsRemovedWhenTheHolderIsReleased) {
  fs::path source;
  {
    const auto changes = run(shell(bases().bare, "echo x > /x"));
    ASSERT_EQ(changes.entries.size(), 1u);
    source = changes.entries.front().source;
    EXPECT_TRUE(fs::exists(source));
  }
  EXPECT_FALSE(fs::exists(source));
  EXPECT_TRUE(fs::is_empty(cache_ / "runs"));
}

// Five RUNs as a Dockerfile would have them, each on the image the one before made. The times
// are printed (what one RUN costs: unpacking a new layer, the overlay mount, runc's start and
// the walk of the upper folder), not checked.
TEST_F(RunStepTest, FiveRunsOneOnTopOfTheOther) {
  image::Image image = bases().bare;
  for (int i = 1; i <= 5; ++i) {
    const auto start = std::chrono::steady_clock::now();
    const auto changes = run(shell(image, "echo " + std::to_string(i) + " > /step" + std::to_string(i) +
                                              " && cat /step* | wc -l > /count"));
    image = testing::with_layer(image, changes.entries, bases().layout);
    const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
    std::cout << "RUN " << i << ": " << took.count() << " ms (run, then the layer written)\n";
    EXPECT_EQ(content_of(by_path(changes).at("count")), std::to_string(i) + "\n");
  }
  // With every layer unpacked already: the overlay mount, runc's start and end, the empty walk, and
  // the release (unmount, upper folder removed).
  std::vector<double> times;
  for (int i = 0; i < 5; ++i) {
    const auto start = std::chrono::steady_clock::now();
    EXPECT_TRUE(run(shell(image, "true")).entries.empty());
    times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  std::cout << "RUN true on the unpacked image: median " << times[2] << " ms of 5\n";
}

}  // namespace
}  // namespace gkebuild::run_step
