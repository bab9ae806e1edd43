#include "tool/core/kube/objects.h"

#include <memory>

#include "base/error.h"
#include "tool/core/kube/api_error.h"
#include "tool/core/kube/wait_for.h"

namespace gkebuild::kube {
namespace {

using nlohmann::json;

std::string name_of(const json& object) {
  const json metadata = object.value("metadata", json::object());
  return metadata.value("name", "");
}

std::string dry_run_suffix(bool dry_run, char separator) { return dry_run ? std::string(1, separator) + "dryRun=All" : ""; }

}  // namespace

std::string describe_object(const ResourceType& type, const std::string& namespace_name, const std::string& name) {
  std::string text(type.kind);
  text += " ";
  if (type.namespaced && !namespace_name.empty()) text += namespace_name + "/";
  return text + (name.empty() ? "(generated name)" : name);
}

std::string namespace_for(const std::string& default_namespace, const ResourceType& type, const json& object) {
  if (!type.namespaced) return "";
  const std::string own = object.value("metadata", json::object()).value("namespace", "");
  return own.empty() ? default_namespace : own;
}

std::string selector_query(const ListOptions& options, char first) {
  std::string query;
  auto add = [&](const char* key, const std::string& value) {
    if (value.empty()) return;
    query += (query.empty() ? first : '&');
    query += key;
    query += "=" + percent_encode(value);
  };
  add("labelSelector", options.label_selector);
  add("fieldSelector", options.field_selector);
  return query;
}

json server_side_apply(Client& client, const json& object, const ApplyOptions& options) {
  const ResourceType& type = resource_type_of(object);
  const std::string name = name_of(object);
  const std::string ns = namespace_for(client.namespace_name(), type, object);
  const std::string action = "apply " + describe_object(type, ns, name);
  if (name.empty()) throw Error(ErrorKind::kBadInput, action + ": server-side apply needs metadata.name");
  json body = object;
  if (type.namespaced) body["metadata"]["namespace"] = ns;
  body["metadata"].erase("managedFields");  // apply refuses a body that carries them
  HttpRequest request;
  request.method = "PATCH";
  request.url = object_path(type, ns, name) + "?fieldManager=" + percent_encode(options.field_manager) +
                (options.force ? "&force=true" : "") + dry_run_suffix(options.dry_run, '&');
  // JSON is YAML, so the apply content type takes it as it is.
  request.headers.push_back("Content-Type: application/apply-patch+yaml");
  request.body = body.dump();
  return client.send_json(request, action);
}

json create(Client& client, const json& object, bool dry_run) {
  const ResourceType& type = resource_type_of(object);
  const std::string ns = namespace_for(client.namespace_name(), type, object);
  HttpRequest request;
  request.method = "POST";
  request.url = collection_path(type, ns) + dry_run_suffix(dry_run, '?');
  request.headers.push_back("Content-Type: application/json");
  const json* namespace_set = object.contains("metadata") ? &object["metadata"] : nullptr;
  if (!type.namespaced || (namespace_set && namespace_set->value("namespace", "") == ns)) {
    request.body = object.dump();  // as it is: no copy of a large object only to set what it says
  } else {
    json body = object;
    body["metadata"]["namespace"] = ns;
    request.body = body.dump();
  }
  return client.send_json(request, "create " + describe_object(type, ns, name_of(object)));
}

PreparedCreate prepare_create(const std::string& default_namespace, const json& object) {
  const ResourceType& type = resource_type_of(object);
  const std::string ns = namespace_for(default_namespace, type, object);
  json body = object;
  if (type.namespaced) body["metadata"]["namespace"] = ns;
  return {name_of(object), collection_path(type, ns), body.dump(), "create " + describe_object(type, ns, name_of(object))};
}

void send_create(Client& client, const PreparedCreate& create, std::string* uid) {
  HttpRequest request;
  request.method = "POST";
  request.url = create.url;
  request.headers.push_back("Content-Type: application/json");
  request.body = create.body;
  const HttpResult result = client.send(request);
  if (result.status < 200 || result.status >= 300) throw ApiError(create.action, result.status, result.body);
  if (uid) *uid = Client::json_body(result, create.action)["metadata"].value("uid", "");
}

std::optional<json> get(Client& client, const ResourceType& type, const std::string& namespace_name,
                        const std::string& name) {
  HttpRequest request;
  request.url = object_path(type, namespace_name, name);
  HttpResult result = client.send(request);
  if (result.status == 404) return std::nullopt;
  return Client::json_body(result, "get " + describe_object(type, namespace_name, name));
}

namespace {

// A paged list in flight: one request per page, each started when the previous one answered.
class Pager : public std::enable_shared_from_this<Pager> {
 public:
  Pager(Client& client, const ResourceType& type, const std::string& namespace_name, ListOptions options,
        ListCompletion done)
      : client_(client), type_(type), namespace_(namespace_name), options_(std::move(options)), done_(std::move(done)) {
    what_ = type.plural;
    if (type.namespaced) what_ += " in namespace " + namespace_name;
  }

  void next_page() {
    std::string url = collection_path(type_, namespace_) + selector_query(options_);
    if (options_.page_size > 0) {
      url += (url.find('?') == std::string::npos ? '?' : '&') + std::string("limit=") + std::to_string(options_.page_size);
      if (!next_.empty()) url += "&continue=" + percent_encode(next_);
    }
    HttpRequest request;
    request.url = url;
    client_.start(request, nullptr, [self = shared_from_this()](HttpResult result, std::exception_ptr error) {
      if (error) return self->done_({}, error);
      try {
        self->take(result);
      } catch (...) {
        self->done_({}, std::current_exception());
      }
    });
  }

 private:
  void take(const HttpResult& result) {
    if (result.status == 410 && !next_.empty()) {
      // The snapshot the pages came from is gone (compacted): start again in one request.
      options_.page_size = 0;
      next_.clear();
      whole_ = json();
      return next_page();
    }
    json page = Client::json_body(result, "list " + what_);
    next_ = page.value("metadata", json::object()).value("continue", "");
    if (whole_.is_null()) {
      whole_ = std::move(page);
    } else {
      auto& items = whole_["items"];
      for (auto& item : page["items"]) items.push_back(std::move(item));
    }
    if (!next_.empty()) return next_page();
    if (whole_.contains("metadata")) whole_["metadata"].erase("continue");
    if (!whole_.contains("items") || whole_["items"].is_null()) whole_["items"] = json::array();
    done_(std::move(whole_), nullptr);
  }

  Client& client_;
  const ResourceType type_;
  const std::string namespace_;
  ListOptions options_;
  const ListCompletion done_;
  std::string what_;
  std::string next_;
  json whole_;
};

}  // namespace

void start_list(Client& client, const ResourceType& type, const std::string& namespace_name,
                const ListOptions& options, ListCompletion done) {
  std::make_shared<Pager>(client, type, namespace_name, options, std::move(done))->next_page();
}

json list(Client& client, const ResourceType& type, const std::string& namespace_name, const ListOptions& options) {
  return wait_for<json>([&](ListCompletion done) { start_list(client, type, namespace_name, options, std::move(done)); });
}

bool remove(Client& client, const ResourceType& type, const std::string& namespace_name, const std::string& name,
            Propagation propagation, bool dry_run) {
  static const char* policies[] = {"Background", "Foreground", "Orphan"};
  HttpRequest request;
  request.method = "DELETE";
  request.url = object_path(type, namespace_name, name) +
                "?propagationPolicy=" + policies[static_cast<int>(propagation)] + dry_run_suffix(dry_run, '&');
  HttpResult result = client.send(request);
  if (result.status == 404) return false;
  if (result.status < 200 || result.status >= 300)
    throw ApiError("delete " + describe_object(type, namespace_name, name), result.status, result.body);
  return true;
}

}  // namespace gkebuild::kube
