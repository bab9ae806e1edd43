#include "tool/core/kube/exec_plugin.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <vector>

#include "base/base64.h"
#include "base/printable.h"
#include "base/source_error.h"

extern char** environ;

namespace gkebuild::kube {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr std::size_t kMaxOutputBytes = 1u << 20;

bool executable(const fs::path& path) {
  std::error_code error;
  return fs::is_regular_file(path, error) && ::access(path.c_str(), X_OK) == 0;
}

std::string exec_info(const ExecConfig& exec, const ClusterConfig& cluster, bool interactive) {
  json info = {{"apiVersion", exec.api_version},
               {"kind", "ExecCredential"},
               {"spec", {{"interactive", interactive}}}};
  if (exec.provide_cluster_info) {
    json about = {{"server", cluster.server}};
    if (!cluster.ca_pem.empty()) {
      // The plugin receives the CA as the base64 data kubectl would pass.
      about["certificate-authority-data"] = base64_encode(cluster.ca_pem);
    }
    if (!cluster.tls_server_name.empty()) about["tls-server-name"] = cluster.tls_server_name;
    if (!cluster.proxy_url.empty()) about["proxy-url"] = cluster.proxy_url;
    if (cluster.insecure_skip_tls_verify) about["insecure-skip-tls-verify"] = true;
    if (!cluster.exec_extension.is_null()) about["config"] = cluster.exec_extension;
    info["spec"]["cluster"] = about;
  }
  return info.dump();
}

// The process environment plus the entry's env and KUBERNETES_EXEC_INFO (later wins).
std::vector<std::string> plugin_environment(const ExecConfig& exec, const std::string& info) {
  std::map<std::string, std::string> values;
  for (char** item = environ; *item; ++item) {
    std::string_view entry(*item);
    const auto equals = entry.find('=');
    if (equals != std::string_view::npos)
      values[std::string(entry.substr(0, equals))] = std::string(entry.substr(equals + 1));
  }
  for (const auto& [name, value] : exec.env) values[name] = value;
  values["KUBERNETES_EXEC_INFO"] = info;
  std::vector<std::string> out;
  for (const auto& [name, value] : values) out.push_back(name + "=" + value);
  return out;
}

struct PluginRun {
  int status = 0;
  std::string output;
};

PluginRun spawn_plugin(const fs::path& program, const ExecConfig& exec, const std::string& info,
                       bool interactive) {
  std::vector<std::string> arguments{exec.command};
  arguments.insert(arguments.end(), exec.args.begin(), exec.args.end());
  std::vector<char*> argv;
  for (auto& argument : arguments) argv.push_back(argument.data());
  argv.push_back(nullptr);
  auto environment = plugin_environment(exec, info);
  std::vector<char*> envp;
  for (auto& item : environment) envp.push_back(item.data());
  envp.push_back(nullptr);

  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0)
    throw SourceError(exec.where, std::string("cannot start the exec plugin: ") + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  // stdin only when the plugin may interact with the user; stderr always reaches the user.
  if (!interactive) posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipe_fds[1]);
  if (spawned != 0) {
    ::close(pipe_fds[0]);
    throw SourceError(exec.where, "cannot run exec plugin " + in_quotes(exec.command) + ": " + std::strerror(spawned));
  }
  PluginRun run;
  char buffer[4096];
  for (ssize_t got; (got = ::read(pipe_fds[0], buffer, sizeof buffer)) != 0;) {
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) break;
    if (run.output.size() < kMaxOutputBytes) run.output.append(buffer, static_cast<std::size_t>(got));
  }
  ::close(pipe_fds[0]);
  while (::waitpid(pid, &run.status, 0) < 0 && errno == EINTR) {
  }
  return run;
}

Credential parse_credential(const ExecConfig& exec, const std::string& output) {
  const std::string who = "exec plugin " + in_quotes(exec.command);
  json credential = json::parse(output, nullptr, false);
  if (credential.is_discarded() || !credential.is_object())
    throw SourceError(exec.where, who + " did not print an ExecCredential JSON object");
  if (credential.value("kind", "") != "ExecCredential")
    throw SourceError(exec.where, who + " printed kind " + in_quotes(credential.value("kind", "")) +
                                      ", expected ExecCredential");
  if (credential.value("apiVersion", "") != exec.api_version)
    throw SourceError(exec.where, who + " answered with apiVersion " + in_quotes(credential.value("apiVersion", "")) +
                                      " but the kubeconfig asks for " + in_quotes(exec.api_version));
  const json status = credential.value("status", json::object());
  Credential out;
  out.token = status.value("token", "");
  const std::string cert = status.value("clientCertificateData", "");
  const std::string key = status.value("clientKeyData", "");
  if (cert.empty() != key.empty())
    throw SourceError(exec.where, who + " returned a client certificate without its key (both are required)");
  out.client_certificate_pem = cert;
  out.client_key_pem = key;
  if (out.token.empty() && cert.empty())
    throw SourceError(exec.where, who + " returned neither a token nor a client certificate");
  if (const std::string expiry = status.value("expirationTimestamp", ""); !expiry.empty()) {
    out.expires = parse_rfc3339(expiry);
    if (!out.expires)
      throw SourceError(exec.where, who + " returned expirationTimestamp " + in_quotes(expiry) + ", not RFC 3339");
  }
  return out;
}

// What to do when a well-known plugin fails: GKE's needs a gcloud account.
std::string plugin_hint(const std::string& command) {
  if (fs::path(command).filename() != "gke-gcloud-auth-plugin") return "";
  return "\ngke-gcloud-auth-plugin takes its token from gcloud: without an account there, run `gcloud auth login` "
         "(or `gcloud auth activate-service-account --key-file=KEY.json`), then "
         "`gcloud container clusters get-credentials CLUSTER --location=LOCATION`";
}

}  // namespace

std::optional<fs::path> resolve_exec_command(const ExecConfig& exec) {
  const fs::path command(exec.command);
  if (exec.command.find('/') != std::string::npos) {
    const fs::path path = command.is_absolute() ? command : exec.base_dir / command;
    return executable(path) ? std::optional(path) : std::nullopt;
  }
  const char* path_env = std::getenv("PATH");
  std::string_view rest(path_env ? path_env : "");
  while (true) {
    const auto colon = rest.find(':');
    const std::string_view dir = rest.substr(0, colon);
    const fs::path candidate = fs::path(dir.empty() ? "." : std::string(dir)) / command;
    if (executable(candidate)) return candidate;
    if (colon == std::string_view::npos) return std::nullopt;
    rest = rest.substr(colon + 1);
  }
}

Credential run_exec_plugin(const ExecConfig& exec, const ClusterConfig& cluster) {
  const auto program = resolve_exec_command(exec);
  if (!program) {
    std::string message = "exec credential plugin " + in_quotes(exec.command) + " not found";
    message += exec.command.find('/') != std::string::npos ? " (relative to " + exec.base_dir.string() + ")"
                                                           : " on PATH";
    if (!exec.install_hint.empty()) message += "\n" + exec.install_hint;
    throw SourceError(exec.where, message);
  }
  const bool terminal = ::isatty(STDIN_FILENO) != 0;
  if (exec.interactive_mode == "Always" && !terminal)
    throw SourceError(exec.where, "exec plugin '" + exec.command +
                                      "' has interactiveMode: Always but standard input is not a terminal");
  const bool interactive = terminal && exec.interactive_mode != "Never";
  const PluginRun run = spawn_plugin(*program, exec, exec_info(exec, cluster, interactive), interactive);
  if (!WIFEXITED(run.status) || WEXITSTATUS(run.status) != 0) {
    const std::string how = WIFEXITED(run.status) ? "exited with status " + std::to_string(WEXITSTATUS(run.status))
                                                  : "was killed by signal " + std::to_string(WTERMSIG(run.status));
    throw SourceError(exec.where, "exec credential plugin " + in_quotes(exec.command) + " " + how +
                                      " (its own message, if any, is above)" + plugin_hint(exec.command));
  }
  return parse_credential(exec, run.output);
}

}  // namespace gkebuild::kube
