// `gkebuild submit --local` (and `cluster: local`): the project's image built into its OCI
// layout and each Job's container run here under runc, recorded like a cluster run.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/common/run.h"
#include "tests/common/temp_dir.h"

namespace gkebuild::testing {
namespace {

using nlohmann::json;

// The probe prints each `print` argument as a line and exits with `exit`'s code; the Job of
// point n=2 sleeps values.sleep seconds first (the probe, PID 1 of its container, ignores SIGTERM).
constexpr const char* kProject = R"(apiVersion: gkebuild/v1
project: local-demo
registry: registry.test/exp
CLUSTER
images:
  probe:
    workload: probe
experiments:
  steps:
    image: probe
    args: ["print", '{"schema":"gkebuild.workload.v1","workload":"probe","metric":"time","value":{{ n }},"unit":"ms"}',
           "err", "step {{ n }} on stderr", "sleep", "{{ (values.sleep | default(0)) if n == 2 else 0 }}",
           "exit", "{{ code }}"]
    accelerators: [nvidia-l4]
    sweep:
      n: [1, 2]
      code: [0]
)";

// The project, as any user: what is refused, or only rendered (--dry-run), before anything is
// built or run needs no root, and these tests run as any user (issue 40).
class LocalProject : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::create_directories(project / "build");
    std::filesystem::copy_file(PROBE_PROGRAM, project / "build" / "probe");
  }

  void write_project(const std::string& cluster) {
    std::string text = kProject;
    text.replace(text.find("CLUSTER"), 7, cluster);
    std::ofstream(project / "gkebuild.yaml") << text;
  }

  CommandResult gkebuild(const std::string& arguments) {
    // stderr joins stdout first, so that `arguments` may go on with more shell (a background run, a signal).
    return run_command("cd " + shell_quoted(project.path().string()) + " && exec 2>&1 && " + machine_env() +
                       gkebuild_binary() + " " + arguments);
  }

  // gkebuild's own folders (base/private_dirs.h) for this test alone, so what a run leaves there
  // can be looked at; a run never keeps live state in the project.
  std::string machine_env() const {
    return "GKEBUILD_RUNTIME_DIR=" + shell_quoted((machine / "runtime").string()) +
           " GKEBUILD_CACHE_DIR=" + shell_quoted((machine / "cache").string()) + " ";
  }

  json only_record() {
    std::vector<std::filesystem::path> runs;
    for (const auto& entry : std::filesystem::directory_iterator(project / ".gkebuild" / "runs"))
      runs.push_back(entry.path());
    EXPECT_EQ(runs.size(), 1u);
    run_dir = runs.front();
    std::ifstream in(run_dir / "run.json");
    return json::parse(in);
  }

  TempDir project;
  TempDir machine;
  std::filesystem::path run_dir;
};

class SubmitLocalTest : public LocalProject {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "runc runs rootful containers: this test needs root";
    LocalProject::SetUp();
  }
};

TEST_F(SubmitLocalTest, ClusterLocalRunsEveryJobUnderRunc) {
  write_project("cluster: local");
  const auto outcome = gkebuild("submit steps");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.out;
  EXPECT_NE(outcome.out.find("step 2 on stderr"), std::string::npos) << outcome.out;
  const json record = only_record();
  EXPECT_EQ(record["target"], "local");
  ASSERT_EQ(record["jobs"].size(), 2u);
  for (const auto& job : record["jobs"]) {
    EXPECT_EQ(job["state"], "succeeded");
    EXPECT_TRUE(job["accelerator"].is_null());
    EXPECT_EQ(job["gpus"], 0);
    EXPECT_EQ(job["machine_type"], "local");
    EXPECT_EQ(job["pods"][0]["exit_code"], 0);
  }
  std::ifstream results(run_dir / "results.jsonl");
  std::vector<json> lines;
  for (std::string line; std::getline(results, line);) lines.push_back(json::parse(line));
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0]["value"], 1);
  EXPECT_EQ(lines[1]["value"], 2);
  EXPECT_EQ(lines[0]["job"], record["jobs"][0]["name"]);
}

TEST_F(LocalProject, NetworkFlagChoosesThePrivateOrTheHostsNetwork) {
  write_project("cluster: local");
  auto outcome = gkebuild("submit steps --dry-run");
  EXPECT_EQ(outcome.exit_code, 0) << outcome.out;
  EXPECT_NE(outcome.out.find("each in its own network namespace"), std::string::npos) << outcome.out;
  outcome = gkebuild("submit steps --dry-run --network host");
  EXPECT_EQ(outcome.exit_code, 0) << outcome.out;
  EXPECT_NE(outcome.out.find("on the host's network"), std::string::npos) << outcome.out;
  outcome = gkebuild("submit steps --network bridge");
  EXPECT_EQ(outcome.exit_code, 2) << outcome.out;
  EXPECT_NE(outcome.out.find("--network"), std::string::npos) << outcome.out;
}

// Issue 30: a project's own pod template asked for hostPath volumes, privileges or sidecars and
// the local runner ran without them, silently. What would reach the host is refused at its
// place in the rendered Job before anything is built; what is merely absent is named.
class OwnPodTemplate : public LocalProject {
 protected:
  // The shipped pod spec with `pod` added at the pod's level and `container` at the main
  // container's, as the project's own templates/pod-spec.yaml.j2.
  void write_pod_spec(const std::string& pod, const std::string& container) {
    std::ifstream in(GKEBUILD_SOURCE_ROOT "/templates/pod-spec.yaml.j2");
    std::string text((std::istreambuf_iterator<char>(in)), {});
    const std::string main = "  - name: main\n";
    text.insert(text.find(main) + main.size(), container);
    std::filesystem::create_directories(project / "templates");
    // The shipped spec has a volumes list of its own (the checkpoint folder): more go into it.
    const std::string volumes = "\nvolumes:\n";
    if (pod.starts_with("volumes:\n")) {
      text.insert(text.find(volumes) + volumes.size(), pod.substr(volumes.size() - 1));
      std::ofstream(project / "templates" / "pod-spec.yaml.j2") << text << "\n";
      return;
    }
    std::ofstream(project / "templates" / "pod-spec.yaml.j2") << text << "\n" << pod;
  }
};

TEST_F(OwnPodTemplate, WhatWouldReachTheHostIsRefusedAtItsPlace) {
  write_project("cluster: local");
  const std::vector<std::array<std::string, 3>> cases = {
      {"hostNetwork: true\n", "", "spec.template.spec.hostNetwork"},
      {"hostPID: true\n", "", "spec.template.spec.hostPID"},
      {"hostIPC: true\n", "", "spec.template.spec.hostIPC"},
      {"volumes:\n  - name: root\n    hostPath: {path: /}\n", "", "spec.template.spec.volumes[0].hostPath"},
      {"initContainers:\n  - name: first\n    image: busybox\n", "", "spec.template.spec.initContainers"},
      {"", "    securityContext: {privileged: true}\n", "spec.template.spec.containers[0].securityContext.privileged"},
      {"", "    securityContext: {capabilities: {add: [SYS_ADMIN]}}\n",
       "spec.template.spec.containers[0].securityContext.capabilities.add"},
      {"", "    volumeDevices: [{name: d, devicePath: /dev/xvda}]\n", "spec.template.spec.containers[0].volumeDevices"},
      {"", "    image: busybox\n  - name: second\n", "spec.template.spec.containers[1]"},
  };
  for (const auto& [pod, container, path] : cases) {
    write_pod_spec(pod, container);
    const auto outcome = gkebuild("submit steps");
    EXPECT_EQ(outcome.exit_code, 2) << path << "\n" << outcome.out;
    EXPECT_NE(outcome.out.find(path + ": submit --local cannot honour this safely"), std::string::npos) << outcome.out;
    EXPECT_NE(outcome.out.find("error: job 'steps-"), std::string::npos) << outcome.out;
    EXPECT_FALSE(std::filesystem::exists(project / ".gkebuild" / "oci")) << path << ": built before the refusal";
  }
}

TEST_F(OwnPodTemplate, WhatTheRunnerLeavesOutIsNamedOnce) {
  write_project("cluster: local");
  write_pod_spec("securityContext: {runAsUser: 1000}\n", "    ports: [{containerPort: 8080}]\n");
  const auto outcome = gkebuild("submit steps --dry-run");
  EXPECT_EQ(outcome.exit_code, 0) << outcome.out;
  for (const std::string path : {"spec.template.spec.containers[0].ports", "spec.template.spec.securityContext"}) {
    const auto at = outcome.out.find("submit --local: drops " + path);
    EXPECT_NE(at, std::string::npos) << outcome.out;
    EXPECT_EQ(outcome.out.find("submit --local: drops " + path, at + 1), std::string::npos) << "named once for 2 Jobs";
  }
  // The shipped template asks for nothing the runner leaves out.
  std::filesystem::remove_all(project / "templates");
  EXPECT_EQ(gkebuild("submit steps --dry-run").out.find("drops"), std::string::npos);
}

// Issue 40: a project's own job template named its Job `a/../../../ESCAPED-…`, and `submit
// --local` wrote manifests/job-<name>.yaml outside the run folder. The name is refused by
// Kubernetes' rules for a Job before anything is built, recorded or written.
TEST_F(OwnPodTemplate, AJobNameThatIsNoKubernetesNameIsRefusedBeforeAnyFileIsNamedAfterIt) {
  write_project("cluster: local");
  std::ifstream in(GKEBUILD_SOURCE_ROOT "/templates/job.yaml.j2");
  std::string job((std::istreambuf_iterator<char>(in)), {});
  const std::string name = "\n  name: {{ name | quote }}\n";
  ASSERT_NE(job.find(name), std::string::npos);
  job.replace(job.find(name), name.size(), "\n  name: \"a/../../../ESCAPED-{{ name }}\"\n");
  std::filesystem::create_directories(project / "templates");
  // A second object, so that the Job's file is named after the Job.
  std::ofstream(project / "templates" / "job.yaml.j2") << "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "
                                                          "side-{{ name }}\n---\n" << job;
  const auto outcome = gkebuild("submit steps");
  EXPECT_EQ(outcome.exit_code, 2) << outcome.out;
  EXPECT_NE(outcome.out.find("metadata.name 'a/../../../ESCAPED-steps-"), std::string::npos) << outcome.out;
  EXPECT_NE(outcome.out.find("a Job name is a DNS-1123 subdomain"), std::string::npos) << outcome.out;
  EXPECT_FALSE(std::filesystem::exists(project / ".gkebuild")) << "built or recorded before the refusal";
  for (const auto& entry : std::filesystem::recursive_directory_iterator(project.path()))
    EXPECT_EQ(entry.path().string().find("ESCAPED"), std::string::npos) << entry.path();
}

TEST_F(SubmitLocalTest, LocalFlagAndAFailingContainer) {
  write_project("cluster: {namespace: demo}");
  const auto outcome = gkebuild("submit steps --local --sweep n=5 --sweep code=3");
  EXPECT_EQ(outcome.exit_code, 1) << outcome.out;
  EXPECT_NE(outcome.out.find("failed: exit code 3"), std::string::npos) << outcome.out;
  const json record = only_record();
  EXPECT_EQ(record["jobs"][0]["state"], "failed");
  EXPECT_EQ(record["jobs"][0]["reason"], "exit code 3");
  EXPECT_EQ(record["jobs"][0]["pods"][0]["exit_code"], 3);
}

// A CPU-only experiment (issue 42: no accelerators) runs locally as any other: its container
// gets no GPU, its record no accelerator, and its result lines come back.
TEST_F(SubmitLocalTest, ACpuOnlyExperimentRunsAsToday) {
  write_project("cluster: local");
  std::ofstream(project / "gkebuild.yaml", std::ios::app)
      << "  prep:\n    image: probe\n    gpus: 0\n    machineType: n2-standard-8\n"
         "    args: [\"print\", '{\"schema\":\"gkebuild.workload.v1\",\"workload\":\"probe\",\"metric\":\"time\","
         "\"value\":7,\"unit\":\"ms\"}', \"env\", \"NVIDIA_VISIBLE_DEVICES\"]\n";
  const auto outcome = gkebuild("submit prep");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.out;
  EXPECT_NE(outcome.out.find("(no GPU: CPU paths)"), std::string::npos) << outcome.out;
  EXPECT_NE(outcome.out.find("NVIDIA_VISIBLE_DEVICES=<unset>"), std::string::npos) << outcome.out;  // even on a GPU host
  const json record = only_record();
  ASSERT_EQ(record["jobs"].size(), 1u);
  EXPECT_EQ(record["jobs"][0]["state"], "succeeded");
  EXPECT_TRUE(record["jobs"][0]["accelerator"].is_null());
  EXPECT_EQ(record["jobs"][0]["gpus"], 0);
  std::ifstream results(run_dir / "results.jsonl");
  std::string line;
  ASSERT_TRUE(std::getline(results, line));
  EXPECT_EQ(json::parse(line)["value"], 7);
}

// A search (issue 46) runs here as a sweep does: one Job per trial, each given its sampled values
// (Sobol': the origin first, then the middle of each range), its result line carrying them back.
TEST_F(SubmitLocalTest, ASearchsTrialsRunAsJobs) {
  write_project("cluster: local");
  std::ofstream(project / "gkebuild.yaml", std::ios::app)
      << "  tune:\n    image: probe\n    gpus: 0\n    budget: {gpuHours: 1}\n"
         "    args: [\"print\", '{\"schema\":\"gkebuild.workload.v1\",\"workload\":\"probe\",\"metric\":\"h{{ hidden }}\","
         "\"value\":{{ lr }},\"unit\":\"1\"}']\n"
         "    search: {algorithm: sobol, trials: 4, variables: {lr: {min: 1e-4, max: 1e-1, log: true}, "
         "hidden: {min: 8, max: 64, integer: true}}}\n";
  const auto outcome = gkebuild("submit tune");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.out;
  const json record = only_record();
  ASSERT_EQ(record["jobs"].size(), 4u);
  std::ifstream results(run_dir / "results.jsonl");
  std::vector<json> lines;
  for (std::string line; std::getline(results, line);) lines.push_back(json::parse(line));
  ASSERT_EQ(lines.size(), 4u);
  std::set<long long> hidden;
  for (std::size_t i = 0; i < 4; ++i) {
    const json& parameters = record["jobs"][i]["parameters"];
    EXPECT_EQ(record["jobs"][i]["state"], "succeeded");
    EXPECT_EQ(lines[i]["value"], parameters["lr"]) << "the rendered value reads back as the sampled double";
    EXPECT_EQ(lines[i]["metric"], "h" + std::to_string(parameters["hidden"].get<long long>()));
    hidden.insert(parameters["hidden"].get<long long>());
  }
  EXPECT_EQ(record["jobs"][0]["parameters"]["lr"], 1e-4);
  EXPECT_EQ(hidden, (std::set<long long>{8, 36, 22, 50}));  // floor(8 + u * 57) for u = 0, 1/2, 1/4, 3/4
}

// No runtime on PATH: the first container cannot start. The run ends with the reason and the
// record marks the Jobs failed instead of leaving them "running" for ever.
TEST_F(SubmitLocalTest, AContainerThatCannotStartFailsTheRecordedJobs) {
  write_project("cluster: local");
  const auto empty_path = project / "empty-path";
  std::filesystem::create_directories(empty_path);
  const auto outcome = run_command("cd " + shell_quoted(project.path().string()) +
                                                      " && PATH=" + empty_path.string() + " " + GKEBUILD_BINARY +
                                                      " submit steps 2>&1");
  EXPECT_EQ(outcome.exit_code, 2) << outcome.out;
  EXPECT_NE(outcome.out.find("neither is on PATH"), std::string::npos) << outcome.out;
  const json record = only_record();
  ASSERT_EQ(record["jobs"].size(), 2u);
  EXPECT_EQ(record["jobs"][0]["state"], "failed");
  EXPECT_NE(record["jobs"][0]["reason"].get<std::string>().find("neither is on PATH"), std::string::npos);
  EXPECT_EQ(record["jobs"][0]["pods"].size(), 1u);
  EXPECT_EQ(record["jobs"][1]["state"], "failed");
  EXPECT_EQ(record["jobs"][1]["reason"].get<std::string>().rfind("not run: ", 0), 0u);
  EXPECT_FALSE(record["finished"].is_null());
}

// Issue 42: a CPU-only sweep of four points, each printing when it starts and ends around a sleep of
// `values.sleep` seconds (whatever GPUs the machine has, these Jobs take none).
constexpr const char* kFourPoints = R"(  four:
    image: probe
    gpus: 0
    machineType: n2-standard-8
    args: ["print", "point {{ n }} starts", "sleep", "{{ values.sleep | default(2) }}",
           "print", '{"schema":"gkebuild.workload.v1","workload":"probe","metric":"time","value":{{ n }},"unit":"ms"}',
           "print", "point {{ n }} ends"]
    sweep:
      n: [1, 2, 3, 4]
)";

// Stopping a local run with a signal, `gkebuild delete` or SIGKILL leaves nothing behind: no
// container in runc's list, no overlay mount, no bundle, and a record whose finished Job keeps
// its state and results while the stopped one says "stopped".
class LocalRunStop : public SubmitLocalTest {
 protected:
  // Starts `gkebuild submit steps --set sleep=600` as a child of this test, and waits until
  // the second Job's container runs (its line on stderr is out; it sleeps next). -1 (the child
  // reaped, a failure added) when the submit ended first, e.g. a runtime that cannot start
  // containers here: the wait ends with it instead of running out its five minutes.
  pid_t start_long_run() {
    write_project("cluster: local");
    const pid_t pid = start_submit("steps --set sleep=600");
    if (!wait_for(pid, [&] { return log_text().find("step 2 on stderr") != std::string::npos; }, 3000)) {
      stop(pid, SIGKILL);
      ADD_FAILURE() << "the submit ended (" << wait_exit(pid) << ") or stalled before its second Job ran:\n"
                    << log_text();
      return -1;
    }
    EXPECT_EQ(containers(), only_record()["jobs"][1]["name"].get<std::string>()) << log_text();
    return pid;
  }
  // `four` with --max-in-flight 2, each point sleeping 600 s; whether its first two points started
  // within a minute (one after the other, as before issue 42, they never do).
  bool start_two_points(pid_t& pid) {
    write_project("cluster: local");
    std::ofstream(project / "gkebuild.yaml", std::ios::app) << kFourPoints;
    pid = start_submit("four --max-in-flight 2 --set sleep=600");
    return wait_for(pid, [&] {
      const std::string text = log_text();
      return text.find("point 1 starts") != std::string::npos && text.find("point 2 starts") != std::string::npos;
    }, 600);
  }
  // Polls `done` every 0.1 s, at most `tries` times, while the child `pid` runs; false when it
  // ended first (its status kept for wait_exit) or the tries ran out.
  template <typename Done>
  bool wait_for(pid_t pid, Done done, int tries) {
    for (int i = 0; i < tries; ++i) {
      if (done()) return true;
      if (ended(pid)) return done();
      ::usleep(100000);
    }
    return done();
  }
  // Whether the child has ended; reaps it (once) and keeps its status.
  bool ended(pid_t pid) {
    if (ended_status_) return true;
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) != pid) return false;
    ended_status_ = status;
    return true;
  }
  // A signal to the child while it runs (never to a reaped PID, which another process may reuse).
  void stop(pid_t pid, int signal) {
    if (!ended(pid)) ::kill(pid, signal);
  }
  // `gkebuild submit ARGUMENTS` as a child of this test, its output in `log`.
  // `environment`: more NAME=VALUE words for env, e.g. a PATH.
  pid_t start_submit(const std::string& arguments, const std::string& environment = "") {
    log = project / "submit.log";
    const std::string command = "cd " + shell_quoted(project.path().string()) + " && exec env " + machine_env() +
                                environment +
                                gkebuild_binary() + " submit " + arguments + " >" + shell_quoted(log.string()) +
                                " 2>&1";
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    return pid;
  }
  int wait_exit(pid_t pid) {
    int status = 0;
    if (ended_status_) {
      status = *ended_status_;
    } else {
      ::waitpid(pid, &status, 0);
      ended_status_ = status;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  std::string log_text() {
    std::ifstream in(log);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }
  // The containers runc knows under the runs' state folders (gkebuild's own), one name a line.
  std::string containers() {
    std::string names;
    std::error_code none;
    for (const auto& run : std::filesystem::directory_iterator(machine / "runtime" / "runs", none)) {
      const auto state = run.path() / "runc";
      if (!std::filesystem::exists(state)) continue;
      auto listed = run_command("runc --root " + shell_quoted(state.string()) + " list -q");
      names += listed.out;
    }
    while (!names.empty() && names.back() == '\n') names.pop_back();
    return names;
  }
  void expect_nothing_left() {
    EXPECT_EQ(containers(), "");
    std::ifstream mounts("/proc/mounts");
    for (std::string line; std::getline(mounts, line);) {
      EXPECT_EQ(line.find(project.path().string()), std::string::npos) << line;
      EXPECT_EQ(line.find(machine.path().string()), std::string::npos) << line;
    }
    // The run's state and bundle folders went with it; nothing was ever kept in the project.
    for (const char* folder : {"runtime/runs", "cache/containers"})
      if (std::filesystem::exists(machine / folder)) {
        EXPECT_TRUE(std::filesystem::is_empty(machine / folder)) << folder;
      }
    EXPECT_FALSE(std::filesystem::exists(project / ".gkebuild" / "local"));
  }
  // The first Job finished with its result; the second was stopped.
  void expect_recorded_stopped(const std::string& reason) {
    const json record = only_record();
    EXPECT_EQ(record["jobs"][0]["state"], "succeeded") << record.dump(2);
    EXPECT_EQ(record["jobs"][1]["state"], "stopped") << record.dump(2);
    EXPECT_EQ(record["jobs"][1]["reason"].get<std::string>().rfind(reason, 0), 0u) << record.dump(2);
    EXPECT_FALSE(record["finished"].is_null());
    EXPECT_TRUE(record["runner"].is_null());
    std::ifstream results(run_dir / "results.jsonl");
    std::string line;
    ASSERT_TRUE(std::getline(results, line));
    EXPECT_EQ(json::parse(line)["job"], record["jobs"][0]["name"]);
  }
  std::filesystem::path log;
  std::optional<int> ended_status_;  // the child's wait status, once reaped
};

TEST_F(LocalRunStop, SigtermStopsTheContainerAndLeavesNothingBehind) {
  const pid_t pid = start_long_run();
  ASSERT_GT(pid, 0);
  stop(pid, SIGTERM);  // the container ignores SIGTERM: SIGKILL after the 10 s grace period
  EXPECT_EQ(wait_exit(pid), 130) << log_text();
  EXPECT_NE(log_text().find("stopped run steps-"), std::string::npos) << log_text();
  expect_nothing_left();
  expect_recorded_stopped("Stopped");
}

TEST_F(LocalRunStop, ASecondCtrlCForcesTheStopAndStillLeavesNothingBehind) {
  const pid_t pid = start_long_run();
  ASSERT_GT(pid, 0);
  stop(pid, SIGINT);
  ::usleep(500000);
  stop(pid, SIGINT);  // within the grace period: SIGKILL at once
  EXPECT_EQ(wait_exit(pid), 130) << log_text();
  expect_nothing_left();
  expect_recorded_stopped("Stopped");
}

// A gkebuild killed with SIGKILL cannot clean up: the next command that reads the run does.
TEST_F(LocalRunStop, AfterSigkillTheNextCommandSettlesTheRun) {
  const pid_t pid = start_long_run();
  ASSERT_GT(pid, 0);
  stop(pid, SIGKILL);
  EXPECT_EQ(wait_exit(pid), 128 + SIGKILL);
  EXPECT_NE(containers(), "");  // left behind, running
  const auto runs = gkebuild("runs");
  EXPECT_EQ(runs.exit_code, 0) << runs.out;
  EXPECT_NE(runs.out.find("1/2 succeeded, 1 stopped"), std::string::npos) << runs.out;
  EXPECT_EQ(runs.out.find("not finished"), std::string::npos) << runs.out;
  expect_nothing_left();
  expect_recorded_stopped("Stopped: the gkebuild that ran it ended");
  const auto status = gkebuild("status " + only_record()["run"].get<std::string>());
  EXPECT_NE(status.out.find("stopped: Stopped: the gkebuild that ran it ended"), std::string::npos) << status.out;
}

TEST_F(LocalRunStop, DeleteStopsARunStillGoing) {
  const pid_t pid = start_long_run();
  ASSERT_GT(pid, 0);
  const auto deleted = gkebuild("delete " + only_record()["run"].get<std::string>());
  EXPECT_EQ(deleted.exit_code, 0) << deleted.out;
  EXPECT_NE(deleted.out.find("ran locally: nothing of it runs any more; 1 of its Jobs stopped"), std::string::npos)
      << deleted.out;
  EXPECT_EQ(wait_exit(pid), 130) << log_text();
  expect_nothing_left();
  expect_recorded_stopped("Stopped");
}

// Where the runtime cannot start containers (as in a chroot whose root is no mount point), the
// run fails at once with the runtime's own words and leaves nothing behind; the test's wait for a
// running container ends with the submit (it used to poll out five minutes a test, seven tests:
// the suite looked hung on a fresh machine).
TEST_F(LocalRunStop, ARuntimeThatCannotStartFailsTheRunAtOnce) {
  const std::filesystem::path bin = machine / "bin";
  std::filesystem::create_directories(bin);
  std::ofstream(bin / "runc") << "#!/bin/sh\necho 'runc: cannot start a container here' >&2\nexit 1\n";
  std::filesystem::permissions(bin / "runc", std::filesystem::perms::owner_all);
  write_project("cluster: local");
  const pid_t pid = start_submit("steps --set sleep=600", "PATH=" + shell_quoted(bin.string() + ":" + std::getenv("PATH")) + " ");
  EXPECT_FALSE(wait_for(pid, [&] { return log_text().find("step 2 on stderr") != std::string::npos; }, 3000));
  EXPECT_EQ(wait_exit(pid), 1) << log_text();
  EXPECT_NE(log_text().find("runc: cannot start a container here"), std::string::npos) << log_text();
  EXPECT_NE(log_text().find("0 of 2 Jobs succeeded, 2 failed"), std::string::npos) << log_text();
  expect_nothing_left();
}

// Issue 42: `gkebuild prune --all` while a local run goes on removes none of what it uses: its
// layers (lower folders of its container's overlay, however old their last use) and its bundle;
// after its gkebuild is killed, the container that outlived it still keeps its overlay and so
// its bundle and layers; the next `runs` settles the run.
TEST_F(LocalRunStop, PruneKeepsWhatARunningLocalRunUses) {
  const pid_t pid = start_long_run();
  ASSERT_GT(pid, 0);
  const auto layers = machine / "cache" / "unpacked" / "layers";
  std::vector<std::filesystem::path> old_layers;
  for (const auto& layer : std::filesystem::directory_iterator(layers)) {
    std::filesystem::last_write_time(layer.path(), std::filesystem::file_time_type::clock::now() - std::chrono::hours(24 * 30));
    old_layers.push_back(layer.path());
  }
  ASSERT_FALSE(old_layers.empty());
  const auto pruned = gkebuild("prune --all");
  EXPECT_EQ(pruned.exit_code, 0) << pruned.out;
  EXPECT_NE(pruned.out.find("kept: in use: a mounted overlay uses it"), std::string::npos) << pruned.out;
  for (const auto& layer : old_layers) EXPECT_TRUE(std::filesystem::is_directory(layer)) << layer;
  EXPECT_EQ(containers(), only_record()["jobs"][1]["name"].get<std::string>());
  stop(pid, SIGKILL);
  EXPECT_EQ(wait_exit(pid), 128 + SIGKILL);
  const auto after_kill = gkebuild("prune --all");
  EXPECT_EQ(after_kill.exit_code, 0) << after_kill.out;
  for (const auto& layer : old_layers) EXPECT_TRUE(std::filesystem::is_directory(layer)) << layer;
  EXPECT_FALSE(std::filesystem::is_empty(machine / "cache" / "containers"));
  EXPECT_NE(containers(), "");  // still running on its overlay
  EXPECT_EQ(gkebuild("runs").exit_code, 0);
  expect_nothing_left();
}

// The most of the record's Jobs whose containers ran at the same instant (by their pods' start and end).
int most_at_once(const json& record) {
  std::vector<std::pair<std::string, int>> events;  // RFC 3339 UTC with milliseconds: ordered as text
  for (const auto& job : record["jobs"])
    for (const auto& pod : job["pods"]) {
      events.emplace_back(pod["start"].get<std::string>(), 1);
      events.emplace_back(pod["end"].get<std::string>(), -1);
    }
  std::sort(events.begin(), events.end());  // at one instant an end comes before a start
  int now = 0, most = 0;
  for (const auto& [when, change] : events) most = std::max(most, now += change);
  return most;
}

TEST_F(SubmitLocalTest, MaxInFlightRunsPointsSideBySide) {
  write_project("cluster: local");
  std::ofstream(project / "gkebuild.yaml", std::ios::app) << kFourPoints;
  const auto outcome = gkebuild("submit four --max-in-flight 2");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.out;
  EXPECT_NE(outcome.out.find("4 Jobs on this machine (no GPU: CPU paths), up to 2 at once"), std::string::npos)
      << outcome.out;
  const json record = only_record();
  ASSERT_EQ(record["jobs"].size(), 4u);
  EXPECT_EQ(most_at_once(record), 2) << record.dump(2);  // two at once, never three
  std::set<int> values;
  std::ifstream results(run_dir / "results.jsonl");
  for (std::string line; std::getline(results, line);) values.insert(json::parse(line)["value"].get<int>());
  EXPECT_EQ(values, (std::set<int>{1, 2, 3, 4}));
  for (int n = 1; n <= 4; ++n) {
    const json& job = record["jobs"][n - 1];
    const std::string name = job["name"];
    EXPECT_EQ(job["state"], "succeeded") << job.dump();
    std::ifstream in(run_dir / "logs" / (name + ".log"));
    const std::string log((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string n_text = std::to_string(n);
    EXPECT_EQ(log.rfind("point " + n_text + " starts\n{", 0), 0u) << log;
    EXPECT_TRUE(log.ends_with("}\npoint " + n_text + " ends\n")) << log;
    // Each line whole, under its own Job's prefix, however the points' output came in.
    EXPECT_NE(outcome.out.find("\n[" + name + "] point " + n_text + " starts\n"), std::string::npos) << outcome.out;
    EXPECT_NE(outcome.out.find("\n[" + name + "] point " + n_text + " ends\n"), std::string::npos) << outcome.out;
  }
}

// Ctrl-C while two points run: both containers are stopped (their grace periods run together),
// recorded stopped, the points not started recorded "not run: stopped", nothing left mounted.
TEST_F(LocalRunStop, CtrlCStopsEveryPointRunningSideBySide) {
  pid_t pid = 0;
  const bool started = start_two_points(pid);
  const std::string running = containers();
  const auto signalled = std::chrono::steady_clock::now();
  stop(pid, SIGINT);  // the probes ignore SIGTERM: SIGKILL after the 10 s grace period
  if (!started) {  // a second one: no grace period to wait out, and nothing left behind by the test
    ::usleep(200000);
    stop(pid, SIGINT);
  }
  EXPECT_EQ(wait_exit(pid), 130) << log_text();
  ASSERT_TRUE(started) << log_text();
  EXPECT_EQ(std::count(running.begin(), running.end(), '\n'), 1) << running;  // two names, one a line
  EXPECT_LT(std::chrono::steady_clock::now() - signalled, std::chrono::seconds(19)) << "one grace period, not two";
  expect_nothing_left();
  const json record = only_record();
  for (int i = 0; i < 4; ++i) {
    const json& job = record["jobs"][i];
    EXPECT_EQ(job["state"], "stopped") << job.dump();
    EXPECT_EQ(job["reason"], i < 2 ? "Stopped" : "not run: stopped") << job.dump();
    EXPECT_EQ(job["pods"].size(), i < 2 ? 1u : 0u) << job.dump();
  }
  EXPECT_FALSE(record["finished"].is_null());
  EXPECT_TRUE(record["runner"].is_null());
}

// A gkebuild killed with SIGKILL while two points run: the next command stops and removes both
// containers, their bundles and mounts, and records every point stopped.
TEST_F(LocalRunStop, AfterSigkillTheNextCommandSettlesEveryPointThatRan) {
  pid_t pid = 0;
  const bool started = start_two_points(pid);
  stop(pid, SIGKILL);
  EXPECT_EQ(wait_exit(pid), 128 + SIGKILL);
  const std::string left = containers();
  EXPECT_EQ(gkebuild("runs").exit_code, 0);  // settles the run, whatever the start did
  expect_nothing_left();
  ASSERT_TRUE(started) << log_text();
  EXPECT_EQ(std::count(left.begin(), left.end(), '\n'), 1) << left;  // two left running
  const json record = only_record();
  for (int i = 0; i < 4; ++i) {
    const json& job = record["jobs"][i];
    EXPECT_EQ(job["state"], "stopped") << job.dump();
    EXPECT_EQ(job["reason"], i < 2 ? "Stopped: the gkebuild that ran it ended" : "not run: the gkebuild that ran it ended")
        << job.dump();
  }
}

// Two multi-node points side by side: each on a private network of its own, where its rank 0
// listens on the same MASTER_PORT as the other's without a clash, and its names resolve to its own.
TEST_F(SubmitLocalTest, MultiNodePointsSideBySideEachOnItsOwnNetwork) {
  write_project("cluster: local");
  std::ofstream(project / "gkebuild.yaml", std::ios::app)
      << "  pairs:\n    image: probe\n    accelerators: [nvidia-l4]\n    nodes: 2\n"
         "    args: [\"rendezvous\", \"print\", \"point {{ n }}\", \"sleep\", \"2\"]\n    sweep:\n      n: [1, 2]\n";
  const auto outcome = gkebuild("submit pairs --max-in-flight 2");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.out;
  const json record = only_record();
  ASSERT_EQ(record["jobs"].size(), 2u);
  for (const auto& job : record["jobs"]) {
    EXPECT_EQ(job["state"], "succeeded") << job.dump();
    const std::string name = job["name"];
    EXPECT_NE(outcome.out.find("rank 1 reached " + name + "-0." + name), std::string::npos) << outcome.out;
  }
  // Both points' two containers at once, on CPU paths; a GPU host's GPUs would bound it (one each).
  if (!std::filesystem::exists("/dev/nvidia0")) {
    EXPECT_EQ(most_at_once(record), 4) << record.dump(2);
  }
}

// nodes: 2 under submit --local: both containers at once on one private network where the
// Job's pod names resolve (the probe's rendezvous: rank 1 resolves MASTER_ADDR and reaches
// rank 0 at MASTER_PORT); each result line carries its node rank; a node that fails fails the Job.
TEST_F(SubmitLocalTest, TwoNodeRendezvousOnOnePrivateNetwork) {
  write_project("cluster: local");
  std::ofstream(project / "gkebuild.yaml", std::ios::app)
      << "  pair:\n    image: probe\n    accelerators: [nvidia-l4]\n    nodes: 2\n"
         "    args: [\"rendezvous\", \"env\", \"MASTER_ADDR\", \"print\",\n"
         "           '{\"schema\":\"gkebuild.workload.v1\",\"workload\":\"probe\",\"metric\":\"time\",\"value\":1,\"unit\":\"ms\"}']\n"
         "  broken:\n    image: probe\n    accelerators: [nvidia-l4]\n    nodes: 2\n"
         "    args: [\"exit\", \"$(NODE_RANK)\"]\n";
  const auto outcome = gkebuild("submit pair");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.out;
  EXPECT_NE(outcome.out.find("rank 0 met rank 1"), std::string::npos) << outcome.out;
  const json record = only_record();
  ASSERT_EQ(record["jobs"].size(), 1u);
  const json& job = record["jobs"][0];
  const std::string name = job["name"];
  EXPECT_NE(outcome.out.find("rank 1 reached " + name + "-0." + name), std::string::npos) << outcome.out;
  EXPECT_NE(outcome.out.find("MASTER_ADDR=" + name + "-0." + name), std::string::npos) << outcome.out;
  EXPECT_EQ(job["nodes"], 2);
  EXPECT_EQ(job["state"], "succeeded") << job.dump();
  EXPECT_EQ(job["pods"].size(), 2u) << job.dump();
  std::ifstream results(run_dir / "results.jsonl");
  std::set<int> ranks;
  for (std::string line; std::getline(results, line);) ranks.insert(json::parse(line).value("node_rank", -1));
  EXPECT_EQ(ranks, (std::set<int>{0, 1}));

  std::filesystem::remove_all(project / ".gkebuild" / "runs");
  const auto broken = gkebuild("submit broken");
  EXPECT_EQ(broken.exit_code, 1) << broken.out;
  const json failed = only_record()["jobs"][0];
  EXPECT_EQ(failed["state"], "failed") << failed.dump();
  EXPECT_EQ(failed["reason"], "node 1: exit code 1") << failed.dump();
}

}  // namespace
}  // namespace gkebuild::testing
