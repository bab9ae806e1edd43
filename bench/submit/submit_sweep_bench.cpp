// Runs `gkebuild submit` of an N-Job sweep (default 200; the issue's scale is 10000)
// against the Kubernetes test server (a stand-in we wrote: tests/tool/core/kube/), whose Jobs run on
// their own and print a result line each, and follows it to the end. Prints the time spent
// in gkebuild (user+sys CPU of the gkebuild process; the server is another process), its wall
// time (which includes the server's Job timeline), peak memory, its most threads, and the
// requests it sent per Job; beside it, `kubectl create -f` of the same manifests (rendered by
// `gkebuild render`) against the same server, which creates and does not follow.
// Usage: submit_sweep_bench [JOBS] [client|kueue|indexed]: the concurrency kept by gkebuild
// (--max-in-flight JOBS, the default), by the test server's Kueue model (--queue, a quota of
// JOBS GPUs), or by the Job controller (parallelism: JOBS, one Indexed Job for the sweep).
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/tool/core/kube/test_server.h"

extern char** environ;

namespace {

constexpr const char* kProject = R"(apiVersion: gkebuild/v1
project: bench
registry: registry.test/exp
images:
  gemm:
    workload: gemm-bench
experiments:
  sweep:
    image: gemm
    args: ["--n", "{{ n }}"]
    accelerators: [nvidia-l4]
)";

struct Measured {
  int exit_code = -1;
  double wall = 0, cpu = 0;
  long peak_kib = 0;
  int most_threads = 0;
};

int threads_of(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("Threads:", 0) == 0) return std::atoi(line.c_str() + 8);
  return 0;
}

Measured run_submit(const std::filesystem::path& dir, const std::vector<std::string>& arguments,
                    const std::string& kubeconfig) {
  std::vector<char*> argv;
  for (const auto& argument : arguments) argv.push_back(const_cast<char*>(argument.c_str()));
  argv.push_back(nullptr);
  const std::string variable = "KUBECONFIG=" + kubeconfig;
  std::vector<char*> env{const_cast<char*>(variable.c_str()), nullptr};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addchdir_np(&actions, dir.c_str());
  posix_spawn_file_actions_addopen(&actions, 1, (dir / "stdout.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, (dir / "stderr.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  Measured measured;
  const auto start = std::chrono::steady_clock::now();
  pid_t pid = 0;
  if (posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), env.data()) != 0) return measured;
  posix_spawn_file_actions_destroy(&actions);
  int status = 0;
  rusage usage{};
  // Sample the thread count while it runs (every 20 ms).
  while (wait4(pid, &status, WNOHANG, &usage) == 0) {
    measured.most_threads = std::max(measured.most_threads, threads_of(pid));
    usleep(20000);
  }
  measured.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; };
  measured.cpu = seconds(usage.ru_utime) + seconds(usage.ru_stime);
  measured.peak_kib = usage.ru_maxrss;
  measured.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return measured;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace gkebuild;
  const int jobs = argc > 1 ? std::atoi(argv[1]) : 200;
  // The server's API contract checks (jsonschema in Python) would make it the bottleneck;
  // the tests run them, the benchmark measures the client.
  setenv("GKEBUILD_TEST_SERVER_CONTRACT", "0", 1);
  const std::string mode = argc > 2 ? argv[2] : "client";
  gkebuild::testing::KubeTestServer server;
  const auto kubeconfig = server.kubeconfig("    client-certificate: client.crt\n    client-key: client.key\n");
  server.control("config", {{"auto", {{"step", 0.2}, {"lines", {
      R"({"schema":"gkebuild.workload.v1","workload":"bench","metric":"throughput","value":1,"unit":"TFLOP/s"})"}}}}});
  std::string sweep = "    sweep:\n      n: [";
  for (int i = 1; i <= jobs; ++i) sweep += (i > 1 ? "," : "") + std::to_string(i);
  std::ofstream(server.dir().path() / "gkebuild.yaml")
      << kProject << sweep << "]\n" << (mode == "indexed" ? "    parallelism: " + std::to_string(jobs) + "\n" : "");
  if (mode == "kueue")
    server.control("kueue", {{"namespace", "bench"}, {"queue", "gpu"}, {"gpus", {{"nvidia-l4", jobs}}}});
  server.control("reset_stats");
  const std::string image = "gemm=registry.test/gemm@sha256:0123456789abcdef0123456789abcdef0123456789abcdef"
                            "0123456789abcdef";
  std::vector<std::string> arguments{GKEBUILD_BINARY, "submit", "sweep", "--max-in-flight", std::to_string(jobs),
                                     "--image", image};
  // SUBMIT_BENCH_WRAP="/usr/bin/perf record -g -o /tmp/submit.perf --": profile the submit (its
  // figures then include the wrapper's own CPU).
  if (const char* wrap = std::getenv("SUBMIT_BENCH_WRAP")) {
    std::vector<std::string> words;
    std::istringstream split(wrap);
    for (std::string word; split >> word;) words.push_back(word);
    arguments.insert(arguments.begin(), words.begin(), words.end());
  }
  if (mode == "kueue") arguments.insert(arguments.end(), {"--queue", "gpu"});
  const Measured m = run_submit(server.dir().path(), arguments, kubeconfig.string());
  const auto stats = server.control("stats");
  if (m.exit_code != 0) {
    std::fprintf(stderr, "submit failed (exit %d):\n%s", m.exit_code,
                 gkebuild::testing::KubeTestServer::read(server.dir().path() / "stderr.txt").c_str());
    return 1;
  }
  long total = 0;
  for (const auto& [kind, count] : stats["requests"].items()) total += count.get<long>();
  // Every point's result line must be in the run record, whichever way it came back.
  long results = 0;
  for (const auto& run : std::filesystem::directory_iterator(server.dir().path() / ".gkebuild" / "runs")) {
    std::ifstream in(run.path() / "results.jsonl");
    for (std::string line; std::getline(in, line);) ++results;
  }
  if (results != jobs) {
    const std::string err = gkebuild::testing::KubeTestServer::read(server.dir().path() / "stderr.txt");
    std::fprintf(stderr, "the run record holds %ld result lines, not %d; gkebuild said:\n%s\nthe server: %s\n",
                 results, jobs, err.substr(err.size() > 3000 ? err.size() - 3000 : 0).c_str(), stats.dump().c_str());
    return 1;
  }
  std::printf("gkebuild submit, %d-point sweep (%s) against the Kubernetes test server, followed to the end\n", jobs,
              mode == "kueue" ? "Jobs queued in Kueue" : mode == "indexed" ? "one Indexed Job" : "one Job per point");
  std::printf("  gkebuild CPU (user+sys): %.3f s   wall: %.2f s (includes the server's 3 x 0.2 s Job timeline)"
              "   peak memory: %ld KiB   most threads: %d\n", m.cpu, m.wall, m.peak_kib, m.most_threads);
  const long logs = stats["requests"].value("get pods/log", 0L);
  std::printf("  requests: %ld in all, %.2f per Job; without the pods' logs (one each: Kubernetes has no batch\n"
              "  log read) %.3f per Job\n", total, static_cast<double>(total) / jobs,
              static_cast<double>(total - logs) / jobs);
  for (const auto& [kind, count] : stats["requests"].items())
    std::printf("    %-22s %ld\n", kind.c_str(), count.get<long>());
  std::printf("  target: CPU under 20 s for 10,000 Jobs, peak memory under 200 MB, threads under 16\n");

  if (std::getenv("SUBMIT_BENCH_NO_KUBECTL")) return 0;  // when profiling gkebuild alone
  // The peer: kubectl create -f of the same Jobs (rendered into the namespace the submit used).
  const Measured rendered = run_submit(server.dir().path(),
                                       {GKEBUILD_BINARY, "render", "sweep", "--image", image},
                                       kubeconfig.string());
  std::filesystem::rename(server.dir().path() / "stdout.txt", server.dir().path() / "jobs.yaml");
  server.control("reset_stats");
  const Measured k = run_submit(server.dir().path(),
                                {"/usr/bin/kubectl", "create", "-f", (server.dir().path() / "jobs.yaml").string(),
                                 "--cache-dir", (server.dir().path() / "kube-cache").string()},
                                kubeconfig.string());
  if (k.exit_code != 0) {  // the Namespace the submit created already exists; anything else is worth a look
    const std::string err = gkebuild::testing::KubeTestServer::read(server.dir().path() / "stderr.txt");
    std::fprintf(stderr, "kubectl: %s\n", err.substr(0, err.find('\n')).c_str());
  }
  long kubectl_total = 0;
  const auto kubectl_stats = server.control("stats");
  for (const auto& [kind, count] : kubectl_stats["requests"].items()) kubectl_total += count.get<long>();
  std::printf("  kubectl create -f of the same %d Jobs (creates only, no follow): CPU %.3f s   wall %.2f s   "
              "peak memory %ld KiB   threads %d   requests %ld (render exit %d, kubectl exit %d)\n",
              jobs, k.cpu, k.wall, k.peak_kib, k.most_threads, kubectl_total, rendered.exit_code, k.exit_code);
  return 0;
}
