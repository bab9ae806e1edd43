// From merged kubeconfig entries to the one cluster and user a command talks to.
#include <cstdlib>

#include "base/base64.h"
#include "base/http_client.h"
#include "base/printable.h"
#include "base/source_error.h"
#include "base/suggest.h"
#include "tool/core/kube/credential_file.h"
#include "tool/core/kube/in_cluster.h"
#include "tool/core/kube/kubeconfig.h"
#include "tool/core/kube/kubeconfig_merge.h"
#include "tool/core/yamlfile/scalars.h"
#include "tool/core/yamlfile/to_json.h"

namespace gkebuild::kube {
namespace {

namespace fs = std::filesystem;

// Field access on one named entry, with errors at the entry's positions.
class Entry {
 public:
  Entry(const NamedEntry& entry, std::string what) : entry_(entry), what_(std::move(what)) {}

  const yamlfile::Document& doc() const { return *entry_.document; }
  // Absent and null keys both read as undefined (`token:` with nothing after it).
  YAML::Node node(const std::string& key) const {
    const YAML::Node& body = entry_.body;
    const YAML::Node value = body[key];
    return value.IsDefined() && !value.IsNull() ? value : YAML::Node(YAML::NodeType::Undefined);
  }
  bool has(const std::string& key) const { return node(key).IsDefined(); }
  std::string text(const std::string& key) const {
    const YAML::Node value = node(key);
    return value ? yamlfile::as_scalar_text(doc(), value, name(key)) : std::string();
  }
  bool flag(const std::string& key) const {
    const YAML::Node value = node(key);
    return value && yamlfile::as_bool(doc(), value, name(key));
  }
  std::string name(const std::string& key) const { return what_ + "." + key; }
  const std::string& label() const { return what_; }
  [[noreturn]] void fail(const std::string& key, const std::string& message) const {
    doc().fail(has(key) ? node(key) : entry_.name_node, message);
  }
  fs::path path(const std::string& key) const {
    const fs::path value = text(key);
    return value.is_absolute() ? value : base_directory(doc()) / value;
  }

  // `<key>-data` (base64) or `<key>` (a file relative to the kubeconfig), "" when neither.
  std::string pem(const std::string& key) const {
    if (has(key + "-data")) {
      auto decoded = base64_decode(text(key + "-data"));
      if (!decoded) fail(key + "-data", name(key + "-data") + " is not valid base64");
      return *decoded;
    }
    if (!has(key)) return {};
    try {
      return read_credential_file(path(key), kMaxCaFileBytes);
    } catch (const SourceError& error) {
      fail(key, name(key) + ": " + path(key).string() + ": " + error.message());
    }
  }

 private:
  const NamedEntry& entry_;
  std::string what_;
};

const NamedEntry& find_entry(const std::map<std::string, NamedEntry>& entries, const std::string& name,
                             const std::string& kind, const NamedEntry& referrer, const char* key) {
  auto it = entries.find(name);
  if (it != entries.end()) return it->second;
  std::vector<std::string> names;
  for (const auto& [known, entry] : entries) names.push_back(known);
  const YAML::Node at = referrer.body[key] ? referrer.body[key] : referrer.name_node;
  referrer.document->fail(at, kind + " " + in_quotes(name) + " is not defined in any kubeconfig file" +
                                  did_you_mean(name, names));
}

ExecConfig read_exec(const Entry& user) {
  const YAML::Node node = user.node("exec");
  const auto& doc = user.doc();
  if (!node.IsMap()) doc.fail(node, user.name("exec") + " must be a mapping");
  NamedEntry inner{&doc, node, node};
  Entry exec(inner, user.name("exec"));
  ExecConfig config;
  config.api_version = exec.text("apiVersion");
  if (config.api_version != "client.authentication.k8s.io/v1" &&
      config.api_version != "client.authentication.k8s.io/v1beta1")
    exec.fail("apiVersion", exec.name("apiVersion") + " is '" + config.api_version +
                                "'; gkebuild supports client.authentication.k8s.io/v1 and /v1beta1");
  config.command = exec.text("command");
  if (config.command.empty()) exec.fail("command", exec.name("command") + " is missing");
  if (exec.has("args")) config.args = yamlfile::as_strings(doc, exec.node("args"), exec.name("args"));
  if (const YAML::Node env = exec.node("env")) {
    if (!env.IsSequence()) doc.fail(env, exec.name("env") + " must be a list of {name, value}");
    for (const YAML::Node& item : env) {
      if (!item.IsMap() || !item["name"]) doc.fail(item, exec.name("env") + " entries need a name");
      config.env.emplace_back(yamlfile::as_string(doc, item["name"], exec.name("env[].name")),
                              item["value"] ? yamlfile::as_scalar_text(doc, item["value"], "value") : "");
    }
  }
  config.install_hint = exec.text("installHint");
  config.provide_cluster_info = exec.flag("provideClusterInfo");
  config.interactive_mode = exec.text("interactiveMode");
  if (config.interactive_mode.empty()) {
    // v1 made the field required; v1beta1 defaults to IfAvailable.
    if (config.api_version.ends_with("/v1"))
      exec.fail("apiVersion", exec.name("interactiveMode") + " is required with " + config.api_version);
    config.interactive_mode = "IfAvailable";
  }
  if (config.interactive_mode != "Never" && config.interactive_mode != "IfAvailable" &&
      config.interactive_mode != "Always")
    exec.fail("interactiveMode", exec.name("interactiveMode") + " must be Never, IfAvailable or Always");
  config.base_dir = base_directory(doc);
  config.where = doc.where(node);
  return config;
}

UserConfig read_user(const std::string& name, const NamedEntry& entry) {
  Entry user(entry, "user " + in_quotes(name));
  if (user.has("auth-provider"))
    user.fail("auth-provider", user.name("auth-provider") +
                                   " is the removed in-tree auth; run `gcloud container clusters "
                                   "get-credentials` again to get an exec entry for gke-gcloud-auth-plugin");
  UserConfig config;
  config.name = name;
  config.client_certificate_pem = user.pem("client-certificate");
  config.client_key_pem = user.pem("client-key");
  if (config.client_certificate_pem.empty() != config.client_key_pem.empty())
    user.fail(config.client_key_pem.empty() ? "client-certificate" : "client-key",
              user.label() + " needs both a client certificate and its key");
  config.token = user.text("token");
  if (config.token.empty() && user.has("tokenFile")) config.token_file = user.path("tokenFile");
  config.username = user.text("username");
  config.password = user.text("password");
  const bool has_token = !config.token.empty() || !config.token_file.empty();
  const bool has_basic = !config.username.empty() || !config.password.empty();
  if (has_token && has_basic)
    user.fail("username", user.label() + " sets both a token and a username/password; keep one");
  if (user.has("exec")) {
    if (has_basic) user.fail("exec", user.label() + " sets both exec and a username/password; keep one");
    config.exec = read_exec(user);
  }
  return config;
}

ClusterConfig read_cluster(const std::string& name, const NamedEntry& entry) {
  Entry cluster(entry, "cluster " + in_quotes(name));
  ClusterConfig config;
  config.name = name;
  config.server = cluster.text("server");
  if (config.server.empty()) cluster.fail("server", cluster.name("server") + " is missing");
  if (!config.server.starts_with("https://") && !config.server.starts_with("http://"))
    cluster.fail("server", cluster.name("server") + " must be an http:// or https:// URL");
  while (config.server.ends_with('/')) config.server.pop_back();
  config.ca_pem = cluster.pem("certificate-authority");
  config.insecure_skip_tls_verify = cluster.flag("insecure-skip-tls-verify");
  config.tls_server_name = cluster.text("tls-server-name");
  config.proxy_url = cluster.text("proxy-url");
  // client-go's rule. The URL may hold a password: the message gives its position, not its line.
  const std::string proxy_scheme = scheme_of(config.proxy_url);
  if (!config.proxy_url.empty() && proxy_scheme != "http" && proxy_scheme != "https" && proxy_scheme != "socks5")
    throw SourceError(cluster.doc().where(cluster.node("proxy-url")),
                      cluster.name("proxy-url") + " must be an http://, https:// or socks5:// URL");
  if (const YAML::Node extensions = cluster.node("extensions"); extensions && extensions.IsSequence())
    for (const YAML::Node& item : extensions)
      if (item.IsMap() && item["name"] && item["name"].IsScalar() &&
          item["name"].Scalar() == "client.authentication.k8s.io/exec")
        config.exec_extension = yamlfile::to_json(item["extension"]);
  return config;
}

std::string joined(const std::vector<fs::path>& files) {
  std::string text;
  for (const auto& file : files) text += (text.empty() ? "" : ", ") + file.string();
  return text;
}

}  // namespace

std::vector<fs::path> kubeconfig_files(const KubeconfigOptions& options) {
  if (options.kubeconfig) return {*options.kubeconfig};
  std::vector<fs::path> files;
  if (const char* env = std::getenv("KUBECONFIG"); env && *env) {
    std::string_view rest(env);
    while (!rest.empty()) {
      const auto colon = rest.find(':');
      const std::string_view item = rest.substr(0, colon);
      if (!item.empty()) files.emplace_back(item);
      rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
    }
    if (!files.empty()) return files;
  }
  const char* home = std::getenv("HOME");
  return {fs::path(home ? home : "") / ".kube" / "config"};
}

ClusterAccess load_cluster_access(const KubeconfigOptions& options) {
  const auto files = kubeconfig_files(options);
  MergedKubeconfig merged = merge_kubeconfigs(files, options.kubeconfig.has_value());
  // kubectl's deferred loading: no kubeconfig at all, inside a pod, is the pod's service account.
  if (merged.documents.empty() && options.context.empty() && in_cluster_environment()) {
    ClusterAccess access = in_cluster_access();
    if (!options.namespace_name.empty()) access.namespace_name = options.namespace_name;
    return access;
  }
  if (merged.documents.empty())
    throw SourceError({joined(files)}, "no kubeconfig file found; run `gcloud container clusters "
                                       "get-credentials CLUSTER` or set KUBECONFIG");
  const std::string context_name = options.context.empty() ? merged.current_context : options.context;
  const SourceLocation first{merged.documents.front()->file()};
  if (context_name.empty())
    throw SourceError(first, "no current-context is set; pass --context or set cluster.context");
  auto context_it = merged.contexts.find(context_name);
  if (context_it == merged.contexts.end()) {
    std::vector<std::string> names;
    for (const auto& [name, entry] : merged.contexts) names.push_back(name);
    throw SourceError({joined(files)}, "context " + in_quotes(context_name) + " is not defined" +
                                           did_you_mean(context_name, names));
  }
  const NamedEntry& context = context_it->second;
  Entry fields(context, "context " + in_quotes(context_name));
  const std::string cluster_name = fields.text("cluster");
  const std::string user_name = fields.text("user");
  if (cluster_name.empty()) fields.fail("cluster", fields.name("cluster") + " is missing");

  ClusterAccess access;
  access.context = context_name;
  access.cluster = read_cluster(cluster_name, find_entry(merged.clusters, cluster_name, "cluster", context, "cluster"));
  if (!user_name.empty())
    access.user = read_user(user_name, find_entry(merged.users, user_name, "user", context, "user"));
  access.namespace_name = !options.namespace_name.empty() ? options.namespace_name
                          : fields.has("namespace")        ? fields.text("namespace")
                                                           : "default";
  return access;
}

}  // namespace gkebuild::kube
