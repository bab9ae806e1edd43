// Object operations: server-side apply for long-lived objects, create for Jobs
// (a new object on every run), get, list, and delete with a propagation policy.
#pragma once

#include <nlohmann/json.hpp>

#include <exception>
#include <functional>
#include <optional>
#include <string>

#include "tool/core/kube/client.h"
#include "tool/core/kube/resources.h"

namespace gkebuild::kube {

inline constexpr const char* kFieldManager = "gkebuild";

struct ApplyOptions {
  std::string field_manager = kFieldManager;
  bool force = false;    // take over fields another manager owns
  bool dry_run = false;  // dryRun=All: validated and admitted, not stored
};

// PATCH application/apply-patch+yaml: creates the object or updates the fields
// this manager sets. Returns the object as the server stored (or would store) it.
nlohmann::json server_side_apply(Client& client, const nlohmann::json& object, const ApplyOptions& options = {});

// POST; metadata.generateName is honoured. An existing name is an ApiError (409 AlreadyExists).
nlohmann::json create(Client& client, const nlohmann::json& object, bool dry_run = false);

// A create prepared ahead, its object serialised once: a sweep keeps thousands of these
// (as nlohmann::json they would take six times the memory).
struct PreparedCreate {
  std::string name;
  std::string url;     // path on the API server
  std::string body;    // the object as JSON, its namespace set
  std::string action;  // "create Job ns/name", for errors
};
// `default_namespace`: where the object goes if it names no namespace (the client's).
PreparedCreate prepare_create(const std::string& default_namespace, const nlohmann::json& object);
// POSTs it. The answer (the object as stored) is not read unless `uid` is given, which gets
// the new object's metadata.uid (to name it as an owner); ApiError unless 2xx.
void send_create(Client& client, const PreparedCreate& create, std::string* uid = nullptr);

// nullopt on 404.
std::optional<nlohmann::json> get(Client& client, const ResourceType& type, const std::string& namespace_name,
                                  const std::string& name);

struct ListOptions {
  std::string label_selector;
  std::string field_selector;
  int page_size = 500;  // limit per request, as kubectl and client-go's pager ask; 0: one request
};
// The List object (items and metadata.resourceVersion), read in pages of `page_size` (limit and
// continue) and put together; the resourceVersion is the first page's, which the server keeps
// for every page. A continue token that expired (410) starts the list again without pages.
nlohmann::json list(Client& client, const ResourceType& type, const std::string& namespace_name,
                    const ListOptions& options = {});
// The same on the client's event loop: `done` gets the List object, or the error list() throws.
using ListCompletion = std::function<void(nlohmann::json listed, std::exception_ptr error)>;
void start_list(Client& client, const ResourceType& type, const std::string& namespace_name,
                const ListOptions& options, ListCompletion done);

enum class Propagation { Background, Foreground, Orphan };
// False when there was nothing to delete (404).
bool remove(Client& client, const ResourceType& type, const std::string& namespace_name, const std::string& name,
            Propagation propagation = Propagation::Background, bool dry_run = false);

// "Job team/train-abc" for messages.
std::string describe_object(const ResourceType& type, const std::string& namespace_name, const std::string& name);

// The namespace an object goes to: its own, or `default_namespace` (the client's; cluster-scoped: "").
std::string namespace_for(const std::string& default_namespace, const ResourceType& type,
                          const nlohmann::json& object);

// "?labelSelector=…&fieldSelector=…" (or "") from list options, with `first` as the separator.
std::string selector_query(const ListOptions& options, char first = '?');

}  // namespace gkebuild::kube
