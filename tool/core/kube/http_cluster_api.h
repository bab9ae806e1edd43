// The ClusterApi of a real API server: each operation is kube's function of the same name on
// an HTTP client (kube::Client) of its own.
#pragma once

#include <memory>

#include "tool/core/kube/client.h"
#include "tool/core/kube/cluster_api.h"

namespace gkebuild::kube {

class HttpClusterApi : public ClusterApi {
 public:
  explicit HttpClusterApi(const ClusterAccess& access) : client_(access) {}

  Client& client() { return client_; }

  const std::string& namespace_name() const override { return client_.namespace_name(); }
  nlohmann::json apply(const nlohmann::json& object, const ApplyOptions& options) override;
  nlohmann::json create(const nlohmann::json& object, bool dry_run) override;
  void send_create(const PreparedCreate& create, std::string* uid) override;
  std::optional<nlohmann::json> get(const ResourceType& type, const std::string& namespace_name,
                                    const std::string& name) override;
  nlohmann::json list(const ResourceType& type, const std::string& namespace_name,
                      const ListOptions& options) override;
  bool remove(const ResourceType& type, const std::string& namespace_name, const std::string& name,
              Propagation propagation) override;
  void start_watch(const ResourceType& type, const std::string& namespace_name, const WatchOptions& options,
                   std::function<bool(const WatchEvent&)> on_event, WatchCompletion done) override;
  void start_follow_logs(const std::string& namespace_name, const std::string& pod, const LogOptions& options,
                         std::function<bool(std::string_view line)> on_line, LogCompletion done) override;
  void after(std::chrono::milliseconds delay, std::function<void()> task) override;

 private:
  Client client_;
};

// The ConnectCluster of the gkebuild binary.
std::shared_ptr<ClusterApi> connect_over_http(const ClusterAccess& access);

}  // namespace gkebuild::kube
