// An in-memory API server for unit tests of submit, its follow and the run commands: a
// kube::ClusterApi that keeps objects by kind, namespace and name, records every call, answers
// watches from what it holds and from each change after, and serves pods' logs. What a Job does
// once created (its pods, their events, its status) is scripted: the changes are played one
// every few milliseconds on the fake's own event-loop thread, which, like the HTTP client's
// loop, runs every callback (never inside the call that started it). Selectors: labels by
// `k=v`, `k!=v` and `k`; fields by `dotted.path=v`. What submit sends is checked as strictly as
// the API server does (fake_admission.h: names, namespaces that exist, the embedded schemas;
// fake_field_managers.h: server-side apply with field managers and conflicts), dry runs
// included, so a test cannot pass where the server would refuse. The namespaces a cluster starts
// with (default, kube-system, kube-public, kube-node-lease) and the context's exist from the
// start. Not modelled: a Job controller (the script is one), the garbage collector (a deleted
// Job leaves its pods, a deleted Namespace its objects). The HTTP contract itself (paging, 410s,
// drops) is tests/tool/core/kube's, against the Python test server.
#pragma once

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "fake_field_managers.h"
#include "tool/core/kube/cluster_api.h"

namespace gkebuild::testing {

// One change a script makes: an object stored (created or replaced), or deleted; `lasts` is
// how long until the script's next change (the follow view shows a state at most ten times a
// second: a state a test means to see lasts longer than that).
struct Change {
  nlohmann::json object;
  bool deleted = false;
  std::chrono::milliseconds lasts{5};
};

// What a Job does once it is created, from the Job as stored (name, namespace, labels, uid).
using Script = std::function<std::vector<Change>(const nlohmann::json& job)>;

class FakeCluster : public kube::ClusterApi {
 public:
  explicit FakeCluster(std::string namespace_name = "default");
  ~FakeCluster() override;
  FakeCluster(const FakeCluster&) = delete;
  FakeCluster& operator=(const FakeCluster&) = delete;

  // The scene. `put` stores at once (watchers hear of it); `play` makes the changes on the
  // event loop, one a tick. A created Job runs the script of the first `match` its name
  // contains ("" matches every Job); a Job without one stays as created.
  void put(nlohmann::json object);
  // `put`, its fields owned by `manager` (as a kubectl edit or another tool's update would).
  void put(nlohmann::json object, const std::string& manager);
  void play(std::vector<Change> changes);
  void script(std::string match, Script script);
  void set_log(const std::string& pod, std::vector<std::string> lines);
  // Every later call `what` ("create Job", "apply Namespace", "watch Workload", "logs Pod",
  // "list Job", "delete Job", "get Namespace") is refused with an ApiError of `status` whose
  // Status says `message` (a server may quote what it was sent).
  void refuse(const std::string& what, int status, const std::string& message = "refused by the test");

  // What the test reads back.
  std::optional<nlohmann::json> object(const std::string& kind, const std::string& namespace_name,
                                       const std::string& name) const;
  std::vector<nlohmann::json> objects(const std::string& kind) const;
  // "apply Namespace gpu-info", "create Job ns/name", "create Job ns/name (dry run)", "watch Pod ns",
  // "logs ns/pod", "list Job ns", "delete Job ns/name", in the order they came.
  std::vector<std::string> calls() const;
  // How many calls start with `prefix`.
  int count_calls(const std::string& prefix) const;

  // kube::ClusterApi
  const std::string& namespace_name() const override { return namespace_; }
  nlohmann::json apply(const nlohmann::json& object, const kube::ApplyOptions& options) override;
  nlohmann::json create(const nlohmann::json& object, bool dry_run) override;
  void send_create(const kube::PreparedCreate& create, std::string* uid) override;
  std::optional<nlohmann::json> get(const kube::ResourceType& type, const std::string& namespace_name,
                                    const std::string& name) override;
  nlohmann::json list(const kube::ResourceType& type, const std::string& namespace_name,
                      const kube::ListOptions& options) override;
  bool remove(const kube::ResourceType& type, const std::string& namespace_name, const std::string& name,
              kube::Propagation propagation) override;
  void start_watch(const kube::ResourceType& type, const std::string& namespace_name,
                   const kube::WatchOptions& options, std::function<bool(const kube::WatchEvent&)> on_event,
                   kube::WatchCompletion done) override;
  void start_follow_logs(const std::string& namespace_name, const std::string& pod, const kube::LogOptions& options,
                         std::function<bool(std::string_view line)> on_line, kube::LogCompletion done) override;
  void after(std::chrono::milliseconds delay, std::function<void()> task) override;

 private:
  using Key = std::tuple<std::string, std::string, std::string>;  // kind, namespace, name
  struct Watcher;

  // Records the call and throws the ApiError a refusal asks for.
  void called(const std::string& what, const std::string& action);
  nlohmann::json store(nlohmann::json object);  // with a new resourceVersion (and uid, if new)
  bool namespace_exists(const std::string& name) const;
  void erase(const Key& key);
  nlohmann::json create_object(nlohmann::json object, const std::string& action, bool dry_run);
  void run_script(const nlohmann::json& job);
  void make(const Change& change);
  // On the loop: every watcher of the object's kind that selects it hears of it.
  void notify(const std::string& type, const nlohmann::json& object);
  void deliver(Watcher& watcher, const std::string& type, const nlohmann::json& object);
  void end_cancelled_watchers();
  void loop();

  const std::string namespace_;
  mutable std::mutex mutex_;  // the objects, the calls, the scripts and the refusals
  std::map<Key, nlohmann::json> objects_;
  std::map<Key, FieldManagers> managers_;
  std::vector<std::string> calls_;
  std::vector<std::pair<std::string, Script>> scripts_;
  std::map<std::string, std::vector<std::string>> logs_;
  std::map<std::string, std::pair<int, std::string>> refusals_;  // what -> status, message
  long version_ = 0;

  std::list<std::shared_ptr<Watcher>> watchers_;  // the loop's only
  std::mutex loop_mutex_;
  std::condition_variable wake_;
  std::map<std::pair<std::chrono::steady_clock::time_point, long>, std::function<void()>> tasks_;
  long task_number_ = 0;
  bool stopping_ = false;
  std::thread thread_;  // last: it runs the loop over the members above
};

// A ConnectCluster that hands out `cluster`, whatever the kubeconfig's server.
kube::ConnectCluster connect_to(std::shared_ptr<FakeCluster> cluster);

// Objects as the Job controller, the scheduler and the kubelet write them, for scripts.
// A pod of `job` named JOB-SUFFIX (an Indexed Job's: JOB-INDEX-SUFFIX), with the Job's pod
// labels and the job-name label, in the given phase.
nlohmann::json pod_of(const nlohmann::json& job, const std::string& suffix, const std::string& phase, int index = -1);
// `pod`, waiting: PodScheduled False with the scheduler's `message`.
nlohmann::json unschedulable(nlohmann::json pod, const std::string& message);
// `pod`, running on `node`.
nlohmann::json running(nlohmann::json pod, const std::string& node);
// `pod`, its container terminated (phase Succeeded for exit code 0, else Failed).
nlohmann::json terminated(nlohmann::json pod, int exit_code, const std::string& reason = "",
                          const std::string& message = "");
// `job` with status `status` (the object's other fields as they are).
nlohmann::json with_status(nlohmann::json job, nlohmann::json status);
// `job` finished: a Complete condition (reason empty) or a Failed one with `reason`.
nlohmann::json finished(nlohmann::json job, bool succeeded, const std::string& reason = "");
// An Event about `pod`.
nlohmann::json pod_event(const nlohmann::json& pod, const std::string& reason, const std::string& message,
                         const std::string& time);

}  // namespace gkebuild::testing
