// gkebuild prune's library on a store laid out in a temporary folder as gkebuild lays it out
// (base/private_dirs.h): sizes, --dry-run, --older-than, --all, leftovers, and what a running run
// uses (an overlay mount, a live runner, a live RUN step's cache mount) always kept.
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "tests/common/run.h"
#include "tests/common/temp_dir.h"
#include "tool/steps/local_runner/bundle.h"
#include "tool/steps/prune/prune.h"
#include "tool/steps/prune/report.h"
#include "tool/steps/prune/store.h"

namespace gkebuild::prune {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

class PruneTest : public ::testing::Test {
 protected:
  testing::TempDir scratch;
  StoreDirs dirs{scratch / "cache", scratch / "runtime"};
  std::set<std::string> alive_runs;  // state folders' names whose runner lives

  // A folder of `bytes` bytes of data, last used `age` ago.
  fs::path folder(const fs::path& path, std::chrono::hours age, size_t bytes = 100000) {
    fs::create_directories(path);
    std::ofstream(path / "data") << std::string(bytes, 'x');
    used(path, age);
    return path;
  }
  static void used(const fs::path& path, std::chrono::hours age) {
    fs::last_write_time(path, fs::file_time_type::clock::now() - age);
  }
  fs::path layer(const std::string& hex, std::chrono::hours age) { return folder(dirs.cache / "unpacked/layers" / hex, age); }

  std::vector<StoreItem> list(const std::string& mountinfo = "") {
    return list_store(dirs, [this](const fs::path& state) { return alive_runs.contains(state.filename().string()); },
                      mountinfo);
  }
  std::vector<Decision> prune(PruneOptions options, const std::string& mountinfo = "") {
    return prune_store(list(mountinfo), options);
  }
  // The built binary's `gkebuild prune ARGUMENTS`, pointed at this store.
  testing::CommandResult gkebuild_prune(const std::string& arguments) {
    return testing::run_command("GKEBUILD_CACHE_DIR=" + testing::shell_quoted(dirs.cache.string()) +
                                " GKEBUILD_RUNTIME_DIR=" + testing::shell_quoted(dirs.runtime.string()) + " " +
                                testing::gkebuild_binary() + " prune " + arguments);
  }
  // The names of the store's folders that are left, leftovers of a removal included.
  std::set<std::string> left(const fs::path& parent) {
    std::set<std::string> names;
    for (const auto& entry : fs::directory_iterator(parent)) names.insert(entry.path().filename().string());
    return names;
  }
};

TEST_F(PruneTest, ListsWhatTheStoreHoldsWithSizesAndAges) {
  layer("aaaa", 48h);
  folder(dirs.cache / "unpacked/chains/cccc", 1h);
  folder(dirs.cache / "cache-mounts/0123456789abcdef/pip", 3h);
  const auto items = list();
  ASSERT_EQ(items.size(), 3u);
  EXPECT_EQ(kind_name(items[0].kind), "layer");
  EXPECT_EQ(items[0].name, "aaaa");
  EXPECT_GE(items[0].bytes, 100000u);
  const auto age = std::chrono::system_clock::now() - items[0].last_used;
  EXPECT_GT(age, 47h);
  EXPECT_LT(age, 49h);
  EXPECT_EQ(kind_name(items[1].kind), "chain");
  EXPECT_EQ(items[2].name, "0123456789abcdef/pip");
  EXPECT_TRUE(items[2].in_use.empty());
}

TEST_F(PruneTest, DryRunRemovesNothingAndSaysTheBytes) {
  layer("aaaa", 48h);
  layer("bbbb", 48h);
  const PruneOptions options{.all = true, .dry_run = true};
  const auto decisions = prune(options);
  ASSERT_EQ(decisions.size(), 2u);
  EXPECT_TRUE(decisions[0].remove && decisions[1].remove);
  EXPECT_EQ(left(dirs.cache / "unpacked/layers"), (std::set<std::string>{"aaaa", "bbbb"}));
  const auto json = prune_json(decisions, dirs, options);
  EXPECT_GE(json["freed_bytes"].get<std::uintmax_t>(), 200000u);
  EXPECT_TRUE(json["dry_run"].get<bool>());
  std::ostringstream table;
  print_prune_table(decisions, options, table);
  EXPECT_NE(table.str().find("would free " + format_bytes(json["freed_bytes"])), std::string::npos) << table.str();
  EXPECT_NE(table.str().find("nothing removed (--dry-run)"), std::string::npos) << table.str();
}

TEST_F(PruneTest, OlderThanRemovesOnlyWhatWasNotUsedForThatLong) {
  layer("old", 24h * 10);
  layer("new", 2h);
  folder(dirs.cache / "cache-mounts/key/old", 24h * 8);
  folder(dirs.cache / "cache-mounts/key/new", 1h);
  const auto decisions = prune({.older_than = 24h * 7});
  EXPECT_EQ(left(dirs.cache / "unpacked/layers"), std::set<std::string>{"new"});
  EXPECT_EQ(left(dirs.cache / "cache-mounts/key"), std::set<std::string>{"new"});
  for (const auto& decision : decisions) EXPECT_EQ(decision.remove, decision.item.name.ends_with("old")) << decision.reason;
}

TEST_F(PruneTest, WithoutFlagsOnlyLeftoversGo) {
  layer("aaaa", 24h * 30);
  folder(dirs.cache / "containers/key-dead-run/job-0", 2h);
  folder(dirs.runtime / "runs/key-dead-run", 2h);
  used(dirs.cache / "containers/key-dead-run", 2h);
  folder(dirs.cache / "containers/key-live-run/job-0", 2h);
  folder(dirs.runtime / "runs/key-live-run", 2h);
  alive_runs.insert("key-live-run");
  folder(dirs.cache / "unpacked/layers/.tmp-dddd-999999999-1", 2h);  // a killed unpack's
  folder(dirs.cache / "build/runs/gkebuild-run-999999999-1", 2h);   // a killed RUN step's
  prune({});
  EXPECT_EQ(left(dirs.cache / "unpacked/layers"), std::set<std::string>{"aaaa"});
  EXPECT_EQ(left(dirs.cache / "containers"), std::set<std::string>{"key-live-run"});
  EXPECT_EQ(left(dirs.runtime / "runs"), std::set<std::string>{"key-live-run"});
  EXPECT_TRUE(left(dirs.cache / "build/runs").empty());
}

TEST_F(PruneTest, AllKeepsWhatARunningRunUses) {
  const fs::path mounted = layer("mounted", 24h * 30);
  layer("recent", 0h);
  layer("unused", 24h * 30);
  folder(dirs.cache / "containers/key-live-run/job-0", 24h);
  alive_runs.insert("key-live-run");
  // A live RUN step (this process's pid) that binds one cache mount.
  const fs::path bound = folder(dirs.cache / "cache-mounts/key/bound", 24h);
  folder(dirs.cache / "cache-mounts/key/free", 24h);
  const fs::path step = dirs.cache / "build/runs" / ("gkebuild-run-" + std::to_string(::getpid()) + "-1");
  folder(step, 24h);
  std::ofstream(step / "config.json") << R"({"mounts": [{"source": ")" + bound.string() + R"(", "type": "bind"}]})";
  const std::string mountinfo = "99 30 0:50 / /elsewhere rw - overlay overlay rw,lowerdir=" +
                                fs::weakly_canonical(mounted).string() + ":/other,upperdir=/u,workdir=/w\n";
  const auto decisions = prune({.all = true}, mountinfo);
  EXPECT_EQ(left(dirs.cache / "unpacked/layers"), (std::set<std::string>{"mounted", "recent"}));
  EXPECT_EQ(left(dirs.cache / "cache-mounts/key"), std::set<std::string>{"bound"});
  EXPECT_EQ(left(dirs.cache / "containers"), std::set<std::string>{"key-live-run"});
  EXPECT_TRUE(fs::exists(step));
  for (const auto& decision : decisions) {
    if (decision.item.name == "mounted") {
      EXPECT_EQ(decision.reason.find("in use: a mounted overlay"), 0u) << decision.reason;
    }
  }
}

TEST_F(PruneTest, ReadsOverlayFoldersFromMountinfo) {
  const std::string text =
      "25 1 8:1 / / rw,relatime - ext4 /dev/vda rw\n"
      "99 25 0:50 / /var/cache/gkebuild/containers/k-r/job/rootfs rw - overlay overlay "
      "rw,lowerdir=/s/layers/a:/s/layers/b,upperdir=/s/with\\040space/upper,workdir=/s/work,redirect_dir=off\n";
  const auto folders = overlay_folders(text);
  const std::vector<fs::path> expected{"/var/cache/gkebuild/containers/k-r/job/rootfs", "/s/layers/a", "/s/layers/b",
                                       "/s/with space/upper", "/s/work"};
  EXPECT_EQ(folders, expected);
}

// As root: a real overlay mount over one layer, in a bundle of a run whose gkebuild is gone (a
// container that outlived it): the layer and the bundle stay, the other layer goes.
TEST_F(PruneTest, ALayerUnderAMountedOverlayIsKept) {
  if (::geteuid() != 0) GTEST_SKIP() << "mounting an overlay needs root";
  const fs::path mounted = layer("mounted", 24h * 30);
  layer("unused", 24h * 30);
  auto bundle = std::make_unique<local_runner::Bundle>(dirs.cache / "containers/key-dead-run/job-0",
                                                       std::vector<fs::path>{mounted}, "");
  used(dirs.cache / "containers/key-dead-run", 2h);
  prune({.all = true}, read_mountinfo());
  EXPECT_EQ(left(dirs.cache / "unpacked/layers"), std::set<std::string>{"mounted"});
  EXPECT_TRUE(fs::exists(bundle->rootfs() / "data"));
  bundle.reset();  // unmounted: now it goes
  used(dirs.cache / "containers/key-dead-run", 2h);
  prune({.all = true}, read_mountinfo());
  EXPECT_TRUE(left(dirs.cache / "unpacked/layers").empty());
  EXPECT_TRUE(left(dirs.cache / "containers").empty());
}

// The command on the built binary, pointed at the temporary store by GKEBUILD_CACHE_DIR and
// GKEBUILD_RUNTIME_DIR: a dry run says what would go and removes nothing; --older-than removes it.
TEST_F(PruneTest, TheCommandPrunesTheStoreTheEnvironmentNames) {
  layer("old", 24h * 10);
  layer("new", 1h);
  const auto dry = gkebuild_prune("--older-than 7d --dry-run");
  ASSERT_EQ(dry.exit_code, 0) << dry.err;
  EXPECT_NE(dry.out.find("would remove: not used for 10d"), std::string::npos) << dry.out;
  EXPECT_EQ(left(dirs.cache / "unpacked/layers"), (std::set<std::string>{"new", "old"}));
  const auto done = gkebuild_prune("--older-than 7d -o json");
  ASSERT_EQ(done.exit_code, 0) << done.err;
  const auto json = nlohmann::json::parse(done.out);
  EXPECT_GE(json["freed_bytes"].get<std::uintmax_t>(), 100000u);
  EXPECT_EQ(json["store"], dirs.cache.string());
  EXPECT_EQ(left(dirs.cache / "unpacked/layers"), std::set<std::string>{"new"});
  const auto bad = gkebuild_prune("--older-than 7x");
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
}

// This process's start time, field 22 of /proc/self/stat: what a runner's proof records.
std::string own_start_ticks() {
  std::ifstream in("/proc/self/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::istringstream fields(text.substr(text.rfind(')') + 2));
  std::string field;
  for (int i = 3; i <= 22; ++i) fields >> field;
  return field;
}

// The command asks tool/submit whether a local run's gkebuild lives (its proof, runner.json: pid
// and start time): a live run's folders stay under --all, a dead one's go without flags.
TEST_F(PruneTest, TheCommandKeepsTheFoldersOfALiveLocalRun) {
  for (const std::string run : {"key-live", "key-dead"}) {
    folder(dirs.cache / "containers" / run / "job-0", 2h);
    used(dirs.cache / "containers" / run, 2h);
    fs::create_directories(dirs.runtime / "runs" / run);
  }
  std::ofstream(dirs.runtime / "runs/key-live/runner.json")
      << R"({"pid": )" << ::getpid() << R"(, "start_ticks": )" << own_start_ticks() << R"(, "run_dir": "/p/.gkebuild/runs/r"})";
  std::ofstream(dirs.runtime / "runs/key-dead/runner.json")
      << R"({"pid": )" << ::getpid() << R"(, "start_ticks": 1, "run_dir": "/p/.gkebuild/runs/r"})";
  used(dirs.runtime / "runs/key-live", 2h);
  used(dirs.runtime / "runs/key-dead", 2h);
  const auto done = gkebuild_prune("--all");
  ASSERT_EQ(done.exit_code, 0) << done.err;
  EXPECT_NE(done.out.find("kept: in use: its gkebuild still runs it"), std::string::npos) << done.out;
  EXPECT_EQ(left(dirs.cache / "containers"), std::set<std::string>{"key-live"});
  EXPECT_EQ(left(dirs.runtime / "runs"), std::set<std::string>{"key-live"});
}

}  // namespace
}  // namespace gkebuild::prune
