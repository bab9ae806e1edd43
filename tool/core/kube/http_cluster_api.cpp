#include "tool/core/kube/http_cluster_api.h"

namespace gkebuild::kube {

nlohmann::json HttpClusterApi::apply(const nlohmann::json& object, const ApplyOptions& options) {
  return server_side_apply(client_, object, options);
}

nlohmann::json HttpClusterApi::create(const nlohmann::json& object, bool dry_run) {
  return kube::create(client_, object, dry_run);
}

void HttpClusterApi::send_create(const PreparedCreate& create, std::string* uid) {
  kube::send_create(client_, create, uid);
}

std::optional<nlohmann::json> HttpClusterApi::get(const ResourceType& type, const std::string& namespace_name,
                                                  const std::string& name) {
  return kube::get(client_, type, namespace_name, name);
}

nlohmann::json HttpClusterApi::list(const ResourceType& type, const std::string& namespace_name,
                                    const ListOptions& options) {
  return kube::list(client_, type, namespace_name, options);
}

bool HttpClusterApi::remove(const ResourceType& type, const std::string& namespace_name, const std::string& name,
                            Propagation propagation) {
  return kube::remove(client_, type, namespace_name, name, propagation);
}

void HttpClusterApi::start_watch(const ResourceType& type, const std::string& namespace_name,
                                 const WatchOptions& options, std::function<bool(const WatchEvent&)> on_event,
                                 WatchCompletion done) {
  kube::start_watch(client_, type, namespace_name, options, std::move(on_event), std::move(done));
}

void HttpClusterApi::start_follow_logs(const std::string& namespace_name, const std::string& pod,
                                       const LogOptions& options, std::function<bool(std::string_view line)> on_line,
                                       LogCompletion done) {
  kube::start_follow_logs(client_, namespace_name, pod, options, std::move(on_line), std::move(done));
}

void HttpClusterApi::after(std::chrono::milliseconds delay, std::function<void()> task) {
  client_.after(delay, std::move(task));
}

std::shared_ptr<ClusterApi> connect_over_http(const ClusterAccess& access) {
  return std::make_shared<HttpClusterApi>(access);
}

}  // namespace gkebuild::kube
