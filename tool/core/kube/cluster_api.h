// What a run needs of the API server, as one small interface: `gkebuild submit` (apply, create,
// and the dry run's get), its follow (watches, logs, a timer on the event loop) and `status`,
// `logs -f` and `delete` (list, remove) take a ClusterApi instead of the HTTP client, so that
// their logic runs against an in-memory cluster in tests (tests/tool/submit/fake_cluster.h) as well
// as against a real one (http_cluster_api.h). Each operation is the kube function it is named
// after (objects.h, watch.h, logs.h) and fails as that does: ApiError for a refusal.
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "tool/core/kube/kubeconfig.h"
#include "tool/core/kube/logs.h"
#include "tool/core/kube/objects.h"
#include "tool/core/kube/resources.h"
#include "tool/core/kube/watch.h"

namespace gkebuild::kube {

class ClusterApi {
 public:
  virtual ~ClusterApi() = default;

  // The kubeconfig context's namespace: where an object that names none goes.
  virtual const std::string& namespace_name() const = 0;

  // Server-side apply; the object as stored (or, dry run, as it would be).
  virtual nlohmann::json apply(const nlohmann::json& object, const ApplyOptions& options) = 0;
  // A create of a whole object; the object as stored (the dry run's check sends these).
  virtual nlohmann::json create(const nlohmann::json& object, bool dry_run) = 0;
  // A create prepared ahead (a sweep's Jobs); `uid`, when given, gets the new object's uid.
  virtual void send_create(const PreparedCreate& create, std::string* uid) = 0;
  // nullopt when there is no such object.
  virtual std::optional<nlohmann::json> get(const ResourceType& type, const std::string& namespace_name,
                                            const std::string& name) = 0;
  // The List object: items and metadata.resourceVersion.
  virtual nlohmann::json list(const ResourceType& type, const std::string& namespace_name,
                              const ListOptions& options) = 0;
  // False when there was nothing to delete.
  virtual bool remove(const ResourceType& type, const std::string& namespace_name, const std::string& name,
                      Propagation propagation) = 0;

  // The asynchronous operations run on the cluster's event loop, one thread: their callbacks
  // run there, never inside the call that started them (a caller may hold the lock they take),
  // and must not block.
  virtual void start_watch(const ResourceType& type, const std::string& namespace_name, const WatchOptions& options,
                           std::function<bool(const WatchEvent&)> on_event, WatchCompletion done) = 0;
  virtual void start_follow_logs(const std::string& namespace_name, const std::string& pod, const LogOptions& options,
                                 std::function<bool(std::string_view line)> on_line, LogCompletion done) = 0;
  // Runs `task` on the event loop after `delay`.
  virtual void after(std::chrono::milliseconds delay, std::function<void()> task) = 0;
};

// How a command reaches the cluster a kubeconfig context names: over HTTP in the binary
// (connect_over_http, http_cluster_api.h), to an in-memory cluster in unit tests.
using ConnectCluster = std::function<std::shared_ptr<ClusterApi>(const ClusterAccess& access)>;

}  // namespace gkebuild::kube
