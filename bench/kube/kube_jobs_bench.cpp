// Creates N Jobs (default 200) against the Kubernetes test server while a watch
// follows them, as `gkebuild submit` does for a sweep. Prints the time spent in
// the client (CPU of this process; the server is another process), the wall time,
// requests per Job, and peak memory. Target: under 2 s, one request per Job plus the watch.
#include <sys/resource.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "tests/tool/core/kube/test_objects.h"
#include "tests/tool/core/kube/test_server.h"
#include "tool/core/kube/objects.h"
#include "tool/core/kube/watch.h"

namespace {

double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace gkebuild;
  const int jobs = argc > 1 ? std::atoi(argv[1]) : 200;
  gkebuild::testing::KubeTestServer server;
  kube::Client client(server.access());
  kube::server_side_apply(client, {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", "bench"}}}});
  const long setup_requests = client.requests_sent();

  const double cpu_start = cpu_seconds();
  const auto wall_start = std::chrono::steady_clock::now();
  std::atomic<int> seen = 0;
  kube::WatchOptions options;
  options.selectors.label_selector = "gkebuild.io/run=bench";
  std::thread watcher([&] {
    kube::watch(client, kube::resource_type("batch/v1", "Job"), "bench", options, [&](const kube::WatchEvent& event) {
      if (event.type == "ADDED") ++seen;
      return seen < jobs;
    });
  });
  for (int i = 0; i < jobs; ++i) {
    auto job = gkebuild::testing::test_job("sweep-" + std::to_string(i) + "-");
    job["metadata"]["namespace"] = "bench";
    job["metadata"]["labels"] = {{"gkebuild.io/run", "bench"}};
    kube::create(client, job);
  }
  watcher.join();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  const double cpu = cpu_seconds() - cpu_start;
  const long requests = client.requests_sent() - setup_requests;
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::printf("jobs created and watched: %d\n", jobs);
  std::printf("client CPU time:          %.3f s (target < 2 s)\n", cpu);
  std::printf("wall time (with server):  %.3f s\n", wall);
  std::printf("requests:                 %ld = %.2f per Job (target: 1 per Job + list + watch = %d)\n", requests,
              static_cast<double>(requests) / jobs, jobs + 2);
  std::printf("client peak memory:       %ld KiB\n", usage.ru_maxrss);
  return 0;
}
