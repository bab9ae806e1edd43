// A checkout is input, `.gkebuild/` included (issue 40): files planted there by a colleague's
// repository or a pull request must never run a command on the host, remove or write a folder
// outside the project, or signal a process. Each test plants one reproducer and runs the command
// a researcher would type; the marker files and victim folders lie outside the project.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>

#include "tests/common/run.h"
#include "tests/common/temp_dir.h"

namespace gkebuild::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

bool root() { return ::geteuid() == 0; }

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Field 22 of /proc/PID/stat, as gkebuild records a runner.
unsigned long long start_ticks(pid_t pid) {
  const std::string text = read_text("/proc/" + std::to_string(pid) + "/stat");
  std::istringstream fields(text.substr(text.rfind(')') + 1));
  std::string field;
  for (int i = 3; i <= 22 && fields >> field; ++i)
    if (i == 22) return std::stoull(field);
  return 0;
}

// A run record as a local run leaves it while it runs: not finished, one Job with one pod.
json local_record(const std::string& run, const std::string& pod, long pid, unsigned long long ticks) {
  return json{{"schema", "gkebuild.run.v1"},
              {"run", run},
              {"experiment", "steps"},
              {"project", "hostile"},
              {"target", "local"},
              {"context", ""},
              {"namespace", ""},
              {"created", "2026-11-28T10:00:00Z"},
              {"finished", nullptr},
              {"runner", {{"pid", pid}, {"start_ticks", ticks}}},
              {"images", json::object()},
              {"jobs", json::array({json{{"name", "steps-job"},
                                         {"accelerator", nullptr},
                                         {"gpus", 0},
                                         {"machine_type", "local"},
                                         {"spot", false},
                                         {"state", "running"},
                                         {"reason", ""},
                                         {"start", "2026-11-28T10:00:01Z"},
                                         {"pods", json::array({json{{"name", pod}, {"node", "local"}}})}}})}};
}

class HostileCheckout : public ::testing::Test {
 protected:
  void SetUp() override {
    std::ofstream(project / "gkebuild.yaml") << "apiVersion: gkebuild/v1\nproject: hostile\nregistry: registry.test/x\n"
                                                "images:\n  probe:\n    workload: probe\n"
                                                "experiments:\n  steps:\n    image: probe\n"
                                                "    accelerators: [nvidia-l4]\n    args: [print, hello]\n";
  }

  CommandResult gkebuild(const std::string& arguments) {
    return run_command("cd " + shell_quoted(project.path().string()) + " && " + gkebuild_binary() + " " + arguments);
  }

  void plant_record(const std::string& run, const json& record) {
    const fs::path dir = project / ".gkebuild" / "runs" / run;
    fs::create_directories(dir);
    std::ofstream(dir / "run.json") << record.dump(2);
  }

  // A runc state folder under `state_root` for container `name` that runs a poststop hook
  // touching `marker` when the container is deleted: made with runc itself (create, then kill),
  // exactly the files a checkout can carry. runc runs that hook on the host for `delete --force`.
  void plant_runc_state(const fs::path& state_root, const std::string& name) {
    const fs::path bundle = outside / "evil-bundle";
    fs::create_directories(bundle / "rootfs");
    fs::copy_file("/bin/busybox", bundle / "rootfs" / "busybox", fs::copy_options::overwrite_existing);
    ASSERT_EQ(run_command("cd " + shell_quoted(bundle.string()) + " && rm -f config.json && runc spec").exit_code, 0);
    json config = json::parse(read_text(bundle / "config.json"));
    config["process"]["args"] = {"/busybox", "sleep", "600"};
    config["process"]["terminal"] = false;
    config["hooks"]["poststop"] = {{{"path", "/bin/sh"}, {"args", {"sh", "-c", "touch " + marker().string()}}}};
    std::ofstream(bundle / "config.json") << config.dump();
    const std::string runc = "runc --root " + shell_quoted(state_root.string()) + " ";
    ASSERT_EQ(run_command(runc + "create --bundle " + shell_quoted(bundle.string()) + " " + name).exit_code, 0);
    ASSERT_EQ(run_command(runc + "kill " + name + " KILL").exit_code, 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ASSERT_FALSE(fs::exists(marker()));
  }
  fs::path marker() const { return outside / "PWNED"; }
  // Removes what plant_runc_state left when gkebuild (rightly) did not touch it.
  void remove_planted_state(const fs::path& state_root, const std::string& name) {
    run_command("runc --root " + shell_quoted(state_root.string()) + " delete --force " + name + " >/dev/null 2>&1");
  }

  TempDir project;
  TempDir outside;
};

// 1. `gkebuild runs` settling a "dead" local run pointed runc at PROJECT/.gkebuild/local/state.
TEST_F(HostileCheckout, RunsNeverPointsRuncAtAStateFolderOfTheCheckout) {
  if (!root()) GTEST_SKIP() << "planting a runc state needs root";
  const fs::path state = project / ".gkebuild" / "local" / "state" / "runc";
  plant_runc_state(state, "steps-pod");
  plant_record("steps-20261128-100000", local_record("steps-20261128-100000", "steps-pod", 999999999, 1));
  for (const char* command : {"runs", "status steps-20261128-100000", "logs steps-20261128-100000",
                              "delete steps-20261128-100000"}) {
    const auto result = gkebuild(command);
    EXPECT_EQ(result.all().find("unreadable"), std::string::npos) << result.all();
    EXPECT_FALSE(fs::exists(marker())) << command << ": the planted hook ran on the host\n" << result.all();
  }
  remove_planted_state(state, "steps-pod");
}

// 2. `gkebuild image` cleaned up "abandoned" RUN containers it found under the layout it writes.
TEST_F(HostileCheckout, ImageNeverPointsRuncAtAStateFolderOfTheCheckout) {
  if (!root()) GTEST_SKIP() << "planting a runc state and RUN need root";
  const fs::path cache = project / ".gkebuild" / "oci" / "gkebuild" / "run";
  const std::string abandoned = "gkebuild-run-999999999-1";
  plant_runc_state(cache / "state" / "runc", abandoned);
  fs::create_directories(cache / "runs" / abandoned);
  fs::copy_file("/bin/busybox", project / "busybox");
  std::ofstream(project / "Dockerfile") << "FROM scratch\nCOPY busybox /bin/busybox\nRUN [\"/bin/busybox\", \"true\"]\n";
  const auto built = gkebuild("image -q --context . --tag hostile:1");
  EXPECT_EQ(built.exit_code, 0) << built.all();
  EXPECT_FALSE(fs::exists(marker())) << "the planted hook ran on the host\n" << built.all();
  remove_planted_state(cache / "state" / "runc", abandoned);
}

// 3. A pod name read from a planted run.json was joined into a path that was removed.
TEST_F(HostileCheckout, ANameFromARecordNeverLeadsOutOfItsFolder) {
  const fs::path victim = outside / "victim";
  fs::create_directories(victim);
  std::ofstream(victim / "precious") << "keep";
  const std::string climb = "../../../../../../../../../../.." + victim.string();
  // The folders the old local runner kept (a checkout carries them with a .keep file), so that
  // the climb resolves through them.
  for (const char* folder : {"bundles", "state/runc"}) fs::create_directories(project / ".gkebuild" / "local" / folder);
  plant_record("steps-20261128-100000", local_record("steps-20261128-100000", climb, 999999999, 1));
  const auto runs = gkebuild("runs");
  EXPECT_NE(runs.all().find("pods[0].name: expected a name gkebuild writes"), std::string::npos) << runs.all();
  gkebuild("delete steps-20261128-100000");
  EXPECT_TRUE(fs::exists(victim / "precious"));
}

// 3. A symlinked .gkebuild (or a folder in it) is refused, never followed, before anything is written.
TEST_F(HostileCheckout, ASymlinkedGkebuildFolderIsRefusedNotFollowed) {
  const fs::path victim = outside / "victim";
  fs::create_directories(victim / "oci");
  std::ofstream(victim / "oci" / "precious") << "keep";
  fs::create_directory_symlink(victim, project / ".gkebuild");
  for (const char* command : {"submit steps --local --dry-run", "submit steps --local", "image probe"}) {
    const auto result = gkebuild(command);
    if (std::string(command).find("dry-run") != std::string::npos) continue;  // a dry run writes nothing
    EXPECT_EQ(result.exit_code, 2) << command << "\n" << result.all();
    EXPECT_NE(result.all().find(".gkebuild: is a symlink"), std::string::npos) << command << "\n" << result.all();
  }
  EXPECT_EQ(std::distance(fs::directory_iterator(victim), fs::directory_iterator()), 1);
  EXPECT_EQ(std::distance(fs::directory_iterator(victim / "oci"), fs::directory_iterator()), 1);
  EXPECT_TRUE(fs::exists(victim / "oci" / "precious"));
}

// 4. `gkebuild delete RUN` signalled the runner.pid of a planted record: any process of the user.
// Needs no root: the refusal comes before anything would run.
TEST_F(HostileCheckout, DeleteNeverSignalsAProcessARecordNames) {
  const pid_t bystander = ::fork();
  if (bystander == 0) {
    ::execl("/bin/sleep", "sleep", "600", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  plant_record("steps-20261128-100000",
               local_record("steps-20261128-100000", "steps-pod", bystander, start_ticks(bystander)));
  const auto deleted = gkebuild("delete steps-20261128-100000");
  EXPECT_EQ(deleted.exit_code, 0) << deleted.all();  // the record was read: the run is settled as ended
  EXPECT_NE(deleted.all().find("nothing of it runs any more"), std::string::npos) << deleted.all();
  int status = 0;
  const pid_t ended = ::waitpid(bystander, &status, WNOHANG);
  EXPECT_EQ(ended, 0) << "the bystander was signalled\n" << deleted.all();
  ::kill(bystander, SIGKILL);
  ::waitpid(bystander, &status, 0);
}

// 11. SIGKILL during a multi-node local run left the network-namespace holder alive for ever.
TEST_F(HostileCheckout, AKilledMultiNodeRunLeavesNoNamespaceHolder) {
  if (!root()) GTEST_SKIP() << "runc runs rootful containers: this test needs root";
  fs::create_directories(project / "build");
  fs::copy_file(PROBE_PROGRAM, project / "build" / "probe");
  std::ofstream(project / "gkebuild.yaml", std::ios::app)
      << "  pair:\n    image: probe\n    accelerators: [nvidia-l4]\n    nodes: 2\n"
         "    args: [print, started, sleep, \"600\"]\n";
  const fs::path log = outside / "submit.log";
  const pid_t runner = ::fork();
  if (runner == 0) {
    const std::string command = "cd " + shell_quoted(project.path().string()) + " && exec " + gkebuild_binary() +
                                " submit pair --local >" + shell_quoted(log.string()) + " 2>&1";
    ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  for (int i = 0; i < 3000 && read_text(log).find("started") == std::string::npos; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ASSERT_NE(read_text(log).find("started"), std::string::npos) << read_text(log);
  // The runner's children that are gkebuild itself (not runc): the holder.
  std::set<pid_t> holders;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string stat = read_text(entry.path() / "stat");
    // A process that ended since the listing (any on the machine) has no stat to read: not a holder.
    if (stat.rfind(')') == std::string::npos) continue;
    std::istringstream fields(stat.substr(stat.rfind(')') + 2));
    char state = 0;
    pid_t parent = 0;
    fields >> state >> parent;
    std::error_code error;
    if (parent == runner && fs::read_symlink(entry.path() / "exe", error) == fs::read_symlink("/proc/" + std::to_string(runner) + "/exe", error))
      holders.insert(std::stoi(name));
  }
  EXPECT_EQ(holders.size(), 1u);
  ::kill(runner, SIGKILL);
  int status = 0;
  ::waitpid(runner, &status, 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  for (const pid_t holder : holders) {
    // Gone, or a zombie waiting for init to reap it: either way it holds no namespace.
    const std::string stat = read_text("/proc/" + std::to_string(holder) + "/stat");
    const char state = stat.empty() ? 'X' : stat[stat.rfind(')') + 2];
    EXPECT_TRUE(state == 'X' || state == 'Z') << "the namespace holder " << holder << " outlived its gkebuild: " << stat;
  }
  gkebuild("runs");  // settles the run: its containers go
}

}  // namespace
}  // namespace gkebuild::testing
