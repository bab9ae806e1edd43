#include "tests/registry/harness.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <random>
#include <stdexcept>
#include <thread>

#include "base/atomic_file.h"
#include "base/base64.h"
#include "base/rfc3339.h"
#include "images/layer/layer_writer.h"
#include "images/oci/layout.h"
#include "images/oci/media_types.h"

extern char** environ;

namespace gkebuild::testing {

std::string servers_script() {
  return std::string(GKEBUILD_SOURCE_ROOT) + "/tests/registry/registry_servers.py";
}

Child::~Child() {
  if (pid_ > 0) kill(SIGKILL);
}

Child::Child(Child&& other) noexcept : pid_(other.pid_) { other.pid_ = -1; }

Child& Child::operator=(Child&& other) noexcept {
  if (this != &other) {
    if (pid_ > 0) kill(SIGKILL);
    pid_ = other.pid_;
    other.pid_ = -1;
  }
  return *this;
}

Child Child::start(const std::vector<std::string>& argv, const fs::path& log) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  Child child;
  int rc = ::posix_spawnp(&child.pid_, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw std::runtime_error("cannot start " + argv[0]);
  return child;
}

void Child::kill(int signal) {
  if (pid_ <= 0) return;
  ::kill(pid_, signal);
  int status = 0;
  ::waitpid(pid_, &status, 0);
  pid_ = -1;
}

int Child::wait() {
  int status = 0;
  ::waitpid(pid_, &status, 0);
  pid_ = -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int http_status(const std::string& url, const std::string& extra) {
  auto r = run_command("curl -s -o /dev/null -w '%{http_code}' " + extra + " '" + url + "'");
  return std::atoi(r.out.c_str());
}

HelperServer start_helper(const std::vector<std::string>& args, const fs::path& log) {
  std::vector<std::string> argv{"python3", "-u", servers_script()};
  argv.insert(argv.end(), args.begin(), args.end());
  HelperServer server;
  server.child = Child::start(argv, log);
  for (int i = 0; i < 200; ++i) {
    std::ifstream in(log);
    std::string word;
    int port = 0;
    while (in >> word)
      if (word == "READY" && in >> port) {
        server.port = port;
        return server;
      }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  throw std::runtime_error("helper server did not start: " + read_file(log));
}

int free_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  ::close(fd);
  return ntohs(addr.sin_port);
}

void wait_for_port(int port) {
  for (int i = 0; i < 300; ++i) {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
    ::close(fd);
    if (ok) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  throw std::runtime_error("nothing listens on port " + std::to_string(port));
}

Pki make_pki(const fs::path& dir) {
  Pki pki{dir / "ca.crt", dir / "server.crt", dir / "server.key",
          dir / "token.crt", dir / "token.key", dir / "other-ca.crt"};
  std::string d = "'" + dir.string() + "'";
  auto r = run_command(
      "cd " + d + " && "
      "openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.crt -days 2 -subj /CN=gkebuild-test-ca && "
      "openssl req -x509 -newkey rsa:2048 -nodes -keyout other-ca.key -out other-ca.crt -days 2 -subj /CN=other-ca && "
      "openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj /CN=127.0.0.1 && "
      "printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\\n' > ext && "
      "openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out server.crt -days 2 -extfile ext && "
      "openssl req -x509 -newkey rsa:2048 -nodes -keyout token.key -out token.crt -days 2 -subj /CN=gkebuild-token-issuer");
  if (r.exit_code != 0) throw std::runtime_error("openssl failed: " + r.err);
  return pki;
}

Registry::Registry(fs::path dir, RegistryConfig config, const Pki* pki)
    : dir_(std::move(dir)), config_(std::move(config)), pki_(pki), port_(free_port()) {
  std::string yaml = "version: 0.1\nlog:\n  level: error\n  accesslog:\n    disabled: true\n"
                     "storage:\n  filesystem:\n    rootdirectory: " + (dir_ / "data").string() +
                     "\n  delete:\n    enabled: true\n"
                     "http:\n  addr: 127.0.0.1:" + std::to_string(port_) + "\n  secret: gkebuild-test\n";
  if (config_.tls)
    yaml += "  tls:\n    certificate: " + pki_->server_cert.string() + "\n    key: " + pki_->server_key.string() + "\n";
  if (!config_.htpasswd.empty())
    yaml += "auth:\n  htpasswd:\n    realm: gkebuild-test\n    path: " + config_.htpasswd.string() + "\n";
  if (!config_.token_realm.empty())
    yaml += "auth:\n  token:\n    realm: " + config_.token_realm + "\n    service: gkebuild-test-registry\n"
            "    issuer: gkebuild-test-issuer\n    rootcertbundle: " + config_.token_cert.string() + "\n";
  fs::create_directories(dir_);
  write_file_atomically(dir_ / "config.yml", yaml);
  start();
}

void Registry::start() {
  child_ = Child::start({"docker-registry", "serve", (dir_ / "config.yml").string()}, dir_ / "registry.log");
  wait_for_port(port_);
}

void Registry::kill() { child_.kill(SIGKILL); }

fs::path make_htpasswd(const fs::path& dir, const std::string& user, const std::string& password) {
  auto file = dir / "htpasswd";
  auto r = run_command("htpasswd -Bbn '" + user + "' '" + password + "' > '" + file.string() + "'");
  if (r.exit_code != 0) throw std::runtime_error("htpasswd failed: " + r.err);
  return file;
}

std::string basic_auths_json(const std::string& registry, const std::string& user,
                             const std::string& password) {
  return R"({"auths":{")" + registry + R"(":{"auth":")" +
         base64_encode(user + ":" + password) + R"("}}})";
}

void write_docker_config(const fs::path& dir, const std::string& json) {
  write_file_atomically(dir / "config.json", json);
}

oci::Descriptor make_test_image(const fs::path& dir, const std::string& tag,
                                const std::vector<size_t>& layer_sizes, unsigned seed) {
  auto layout = oci::Layout::open_or_create(dir);
  std::mt19937 random(seed);
  oci::ImageConfig config;
  config.created = format_rfc3339_seconds(0);
  config.config.cmd = std::vector<std::string>{"/data0"};
  oci::Manifest manifest;
  manifest.media_type = std::string(oci::media::kOciManifest);
  TempDir files;
  for (size_t i = 0; i < layer_sizes.size(); ++i) {
    auto source = files.path() / ("data" + std::to_string(i));
    std::string bytes(layer_sizes[i], '\0');
    for (auto& c : bytes) c = static_cast<char>(random() & 0xff);
    write_file_atomically(source, bytes);
    layer::Entry entry;
    entry.path = "data" + std::to_string(i);
    entry.size = static_cast<int64_t>(bytes.size());
    entry.source = source;
    auto built = layer::write_layer(layout, {entry}, {});
    manifest.layers.push_back(built.blob);
    config.diff_ids.push_back(built.diff_id);
  }
  manifest.config = layout.write_blob(oci::media::kOciConfig, oci::to_json_text(config));
  auto descriptor = layout.write_blob(oci::media::kOciManifest, oci::to_json_text(manifest));
  layout.tag(tag, descriptor);
  return descriptor;
}

}  // namespace gkebuild::testing
