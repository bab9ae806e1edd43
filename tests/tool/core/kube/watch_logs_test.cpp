// Following a run: watches that expire (410 as a status or an ERROR event) or drop
// mid-stream, and logs that drop mid-stream, lose nothing and repeat nothing.
#include <gtest/gtest.h>

#include <condition_variable>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

#include "base/http_client.h"
#include "test_objects.h"
#include "test_server.h"
#include "tool/core/kube/api_error.h"
#include "tool/core/kube/logs.h"
#include "tool/core/kube/objects.h"
#include "tool/core/kube/watch.h"

namespace gkebuild::kube {
namespace {

using nlohmann::json;
using testing::KubeTestServer;
using testing::test_job;


// Collects watch events on a thread; the watch ends when a Job named "stop" appears.
class Recorder {
 public:
  Recorder(Client& client, WatchOptions options = {}) {
    thread_ = std::thread([this, &client, options] {
      try {
        stats_ = watch(client, resource_type("batch/v1", "Job"), "default", options, [this](const WatchEvent& event) {
          std::lock_guard lock(mutex_);
          const std::string name = event.object["metadata"]["name"];
          events_.push_back({event.type, name, event.object["metadata"]["resourceVersion"]});
          changed_.notify_all();
          return name != "stop";
        });
      } catch (const std::exception& error) {
        std::lock_guard lock(mutex_);
        error_ = error.what();
        changed_.notify_all();
      }
    });
  }
  ~Recorder() {
    if (thread_.joinable()) thread_.join();
  }

  struct Seen {
    std::string type, name, version;
  };

  // Waits (bounded, so a lost event fails the test instead of hanging it) until `name` was seen as `type`.
  bool wait_for(const std::string& type, const std::string& name) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, std::chrono::seconds(20), [&] {
      if (!error_.empty()) return true;
      for (const auto& seen : events_)
        if (seen.type == type && seen.name == name) return true;
      return false;
    }) && error_.empty();
  }

  std::vector<Seen> finish(Client& client) {
    create(client, test_job("stop"));
    thread_.join();
    EXPECT_EQ(error_, "");
    return events_;
  }
  const WatchStats& stats() const { return stats_; }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<Seen> events_;
  std::string error_;
  WatchStats stats_;
  std::thread thread_;
};

// Every (change, object, resourceVersion) once (a deletion found by a re-list carries
// the last version seen); each name's story in a sensible order.
void expect_each_change_once(const std::vector<Recorder::Seen>& events) {
  std::map<std::tuple<std::string, std::string, std::string>, int> versions;
  std::map<std::string, std::vector<std::string>> story;
  for (const auto& seen : events) {
    const auto key = std::make_tuple(seen.type, seen.name, seen.version);
    EXPECT_EQ(++versions[key], 1) << seen.type << " " << seen.name << " at " << seen.version << " twice";
    story[seen.name].push_back(seen.type);
  }
  for (const auto& [name, types] : story) {
    EXPECT_EQ(types.front(), "ADDED") << name;
    EXPECT_EQ(std::count(types.begin(), types.end(), "ADDED"), 1) << name;
    EXPECT_LE(std::count(types.begin(), types.end(), "DELETED"), 1) << name;
  }
}

class WatchExpiry : public ::testing::TestWithParam<const char*> {};

TEST_P(WatchExpiry, RelistAfter410DeliversOnlyWhatChanged) {
  KubeTestServer server;
  server.control("config", {{"expire_mode", GetParam()}});
  Client client(server.access());
  create(client, test_job("before"));
  create(client, test_job("doomed"));
  Recorder recorder(client);
  ASSERT_TRUE(recorder.wait_for("ADDED", "doomed"));
  // Changes pile up unseen, then history is compacted: the watch can only catch up by re-listing.
  server.control("suspend_watches");
  create(client, test_job("during"));
  remove(client, resource_type("batch/v1", "Job"), "default", "doomed", Propagation::Background);
  server.control("expire");
  create(client, test_job("after"));
  ASSERT_TRUE(recorder.wait_for("ADDED", "after"));
  const auto events = recorder.finish(client);
  expect_each_change_once(events);
  EXPECT_TRUE(std::any_of(events.begin(), events.end(),
                          [](const auto& e) { return e.type == "DELETED" && e.name == "doomed"; }));
  EXPECT_TRUE(std::any_of(events.begin(), events.end(),
                          [](const auto& e) { return e.type == "ADDED" && e.name == "during"; }));
  EXPECT_GE(recorder.stats().expired, 1);
  EXPECT_GE(recorder.stats().lists, 2);
}

INSTANTIATE_TEST_SUITE_P(Modes, WatchExpiry, ::testing::Values("status", "event"));

TEST(Watch, DroppedStreamsResumeFromTheLastResourceVersion) {
  KubeTestServer server;
  Client client(server.access());
  create(client, test_job("first"));
  Recorder recorder(client);
  ASSERT_TRUE(recorder.wait_for("ADDED", "first"));
  // "first" may have come from the initial list; "probe", created after it, can only
  // come through the watch: then that stream is open, and took no part of the config below.
  create(client, test_job("probe"));
  ASSERT_TRUE(recorder.wait_for("ADDED", "probe"));
  // The open stream is cut before it sends the pending changes; the next one
  // sends one event and half of the next line, then is cut too.
  server.control("config", {{"drop_watch_after", 1}, {"torn", true}});
  server.control("suspend_watches");
  for (const char* name : {"one", "two", "three"}) create(client, test_job(name));
  server.control("drop_watches");
  ASSERT_TRUE(recorder.wait_for("MODIFIED", "three"));
  const auto events = recorder.finish(client);
  expect_each_change_once(events);
  for (const char* name : {"one", "two", "three"})
    EXPECT_EQ(std::count_if(events.begin(), events.end(), [&](const auto& e) { return e.name == name; }), 2)
        << name << ": created, then its status set";
  EXPECT_GE(recorder.stats().drops, 2);
  EXPECT_EQ(recorder.stats().lists, 1);
}

// A watch with allowWatchBookmarks gets the watch cache's periodic bookmarks (here every 0.3 s,
// the last 2 s before its timeout) carrying the current resourceVersion, and lasts its
// timeoutSeconds; after a compaction an older resourceVersion is 410 Gone, named as etcd does.
TEST(Watch, BookmarksComePeriodicallyAndCompactionExpiresOldVersions) {
  KubeTestServer server;
  Client client(server.access());
  HttpClient http(HttpClientOptions{.tls = {.ca_pem = server.ca_pem()}});
  create(client, test_job("first"));
  const std::string before = std::to_string(server.control("stats")["resourceVersion"].get<long>());
  server.control("config", {{"bookmark_every", 0.3}});
  HttpRequest watch_request;
  watch_request.url = server.server() + "/apis/batch/v1/namespaces/default/jobs?watch=1&allowWatchBookmarks=true"
                      "&timeoutSeconds=3&resourceVersion=" + before;
  const auto watched = http.send(watch_request);
  ASSERT_EQ(watched.status, 200) << watched.body;
  std::vector<json> marks;
  std::istringstream lines(watched.body);
  for (std::string line; std::getline(lines, line);)
    if (json event = json::parse(line); event["type"] == "BOOKMARK") marks.push_back(event["object"]);
  ASSERT_GE(marks.size(), 2u) << watched.body;
  EXPECT_EQ(marks.back()["metadata"]["resourceVersion"], before);
  EXPECT_EQ(marks.back()["kind"], "Job");

  create(client, test_job("second"));
  server.control("compact");
  const auto current = server.control("stats")["resourceVersion"].get<long>();
  HttpRequest old_request;
  old_request.url = server.server() + "/apis/batch/v1/namespaces/default/jobs?watch=1&resourceVersion=" + before;
  const auto gone = http.send(old_request);
  EXPECT_EQ(gone.status, 410);
  EXPECT_EQ(json::parse(gone.body)["message"],
            "too old resource version: " + before + " (" + std::to_string(current) + ")");
}

// What bookmarks are for: a watch whose selector matches nothing that changes still learns the
// current resourceVersion, so that after a compaction its next watch starts without a 410 and
// without listing again.
TEST(Watch, BookmarksLetAQuietWatchOutliveACompaction) {
  KubeTestServer server;
  Client client(server.access());
  server.control("config", {{"bookmark_every", 0.2}});
  WatchOptions options;
  options.timeout_seconds = 3;
  options.selectors.label_selector = "app=mine";
  WatchStats stats;
  std::thread watcher([&] {
    stats = watch(client, resource_type("v1", "ConfigMap"), "default", options,
                  [](const WatchEvent& event) { return event.object["metadata"]["name"] != "stop"; });
  });
  const auto watches_sent = [&] { return server.control("stats")["requests"].value("watch configmaps", 0); };
  for (int i = 0; i < 400 && watches_sent() < 1; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(25));
  for (int i = 0; i < 5; ++i)
    create(client, {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", "other" + std::to_string(i)}}}});
  for (int i = 0; i < 400 && watches_sent() < 2; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(25));
  server.control("compact");  // the other ConfigMaps' versions are gone; the open watch goes on
  for (int i = 0; i < 400 && watches_sent() < 3; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(25));
  create(client, {{"apiVersion", "v1"}, {"kind", "ConfigMap"},
                  {"metadata", {{"name", "stop"}, {"labels", {{"app", "mine"}}}}}});
  watcher.join();
  EXPECT_GE(stats.watches, 3);
  EXPECT_EQ(stats.expired, 0);
  EXPECT_EQ(stats.lists, 1);
}

std::string pod_of(Client& client, const std::string& job_name) {
  ListOptions options;
  options.label_selector = "job-name=" + job_name;
  return list(client, resource_type("v1", "Pod"), "default", options)["items"][0]["metadata"]["name"];
}

TEST(Logs, RefusedWhileTheContainerIsWaiting) {
  KubeTestServer server;
  Client client(server.access());
  create(client, test_job("pending"));
  try {
    follow_logs(client, "default", pod_of(client, "pending"), {}, [](std::string_view) { return true; });
    FAIL() << "logs of a waiting container were served";
  } catch (const ApiError& error) {
    EXPECT_EQ(error.status(), 400);
    EXPECT_NE(std::string(error.what()).find("is waiting to start: ContainerCreating"), std::string::npos)
        << error.what();
  }
}

TEST(Logs, FollowResumesAfterADropWithoutLosingOrRepeatingLines) {
  KubeTestServer server;
  Client client(server.access());
  create(client, test_job("train"));
  server.control("job", {{"namespace", "default"}, {"name", "train"}, {"phase", "running"}});
  // Three lines share one timestamp, so resuming by time alone would repeat or lose some.
  server.control("log", {{"namespace", "default"}, {"job", "train"}, {"timestamp", "2024-01-01T00:00:00.5Z"},
                         {"lines", {"step 1", "step 2", "step 3"}}});
  server.control("log", {{"namespace", "default"}, {"job", "train"}, {"lines", {"step 4", "step 5"}}});
  server.control("config", {{"drop_log_after", 2}, {"torn", true}});

  std::mutex mutex;
  std::condition_variable changed;
  std::vector<std::string> lines;
  LogStats stats;
  std::thread follower([&] {
    stats = follow_logs(client, "default", pod_of(client, "train"), {}, [&](std::string_view line) {
      std::lock_guard lock(mutex);
      lines.emplace_back(line);
      changed.notify_all();
      return true;
    });
  });
  {
    std::unique_lock lock(mutex);
    ASSERT_TRUE(changed.wait_for(lock, std::chrono::seconds(20), [&] { return lines.size() >= 5; }));
  }
  server.control("log", {{"namespace", "default"}, {"job", "train"}, {"lines", {"step 6", "{\"loss\": 0.1}"}}});
  server.control("job", {{"namespace", "default"}, {"name", "train"}, {"phase", "succeeded"}});
  follower.join();  // the stream ends when the container has finished
  EXPECT_EQ(lines, (std::vector<std::string>{"step 1", "step 2", "step 3", "step 4", "step 5", "step 6",
                                             "{\"loss\": 0.1}"}));
  EXPECT_EQ(stats.drops, 1);
  EXPECT_EQ(stats.requests, 2);
}

}  // namespace
}  // namespace gkebuild::kube
