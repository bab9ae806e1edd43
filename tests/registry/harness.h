// Test harness for the registry client: child processes, a real docker-registry in several set-ups (plain HTTP, TLS
// with a CA made by openssl, htpasswd basic auth, token auth), the Python helper servers of registry_servers.py, and
// small test images built with the images library.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "images/oci/descriptor.h"
#include "tests/common/run.h"
#include "tests/common/temp_dir.h"

namespace gkebuild::testing {

namespace fs = std::filesystem;

// A child process, killed (SIGKILL) when the object goes away.
class Child {
 public:
  Child() = default;
  ~Child();
  Child(Child&&) noexcept;
  Child& operator=(Child&&) noexcept;
  // Starts `argv`; stdout and stderr go to `log`.
  static Child start(const std::vector<std::string>& argv, const fs::path& log);
  void kill(int signal);
  // Waits for the process to end; its exit status (128 + signal when killed).
  int wait();
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
};

// A Python helper server; returns once it printed "READY <port>".
struct HelperServer {
  Child child;
  int port = 0;
};
HelperServer start_helper(const std::vector<std::string>& args, const fs::path& log);

// A CA, a server certificate for 127.0.0.1/localhost signed by it, and a
// self-signed token-signing certificate.
struct Pki {
  fs::path ca_cert, server_cert, server_key, token_cert, token_key, other_ca_cert;
};
Pki make_pki(const fs::path& dir);

struct RegistryConfig {
  bool tls = false;
  fs::path htpasswd;  // basic auth when set
  std::string token_realm;  // token auth when set
  fs::path token_cert;
};

// docker-registry on 127.0.0.1 with its storage in `dir`.
class Registry {
 public:
  Registry(fs::path dir, RegistryConfig config, const Pki* pki = nullptr);
  void start();  // (again) on the same port and storage
  void kill();
  std::string host() const { return "127.0.0.1:" + std::to_string(port_); }
  int port() const { return port_; }

 private:
  fs::path dir_;
  RegistryConfig config_;
  const Pki* pki_;
  int port_;
  Child child_;
};

int free_port();
void wait_for_port(int port);

// Writes htpasswd (bcrypt) for one user.
fs::path make_htpasswd(const fs::path& dir, const std::string& user, const std::string& password);

// A Docker config.json in `dir` with `auths` for registry -> user:password.
void write_docker_config(const fs::path& dir, const std::string& json);
std::string basic_auths_json(const std::string& registry, const std::string& user,
                             const std::string& password);

// An image in the OCI layout `dir` tagged `tag`: one layer per size, of
// random (incompressible) bytes from `seed`. Returns the manifest descriptor.
oci::Descriptor make_test_image(const fs::path& dir, const std::string& tag,
                                const std::vector<size_t>& layer_sizes, unsigned seed);

// The HTTP status of a GET (curl; `extra` adds options such as -u or --cacert).
int http_status(const std::string& url, const std::string& extra = "");

// The helper servers' script.
std::string servers_script();

}  // namespace gkebuild::testing
