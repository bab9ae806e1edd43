// Real proxies from Debian for the proxy-url tests, each started on a free loopback
// port for one test and stopped after it: tinyproxy (HTTP CONNECT with Basic auth),
// microsocks (SOCKS5 with a user and password) and stunnel in front of tinyproxy (an
// https proxy). Each logs the connections it forwarded: that is how a test knows its
// requests went through the proxy.
#pragma once

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "tests/common/temp_dir.h"

extern char** environ;

namespace gkebuild::testing {

// A loopback port nobody listens on now (the proxy binds it a moment later).
inline int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof address;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), size) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size) != 0) {
    ::close(fd);
    throw std::runtime_error("no free port");
  }
  ::close(fd);
  return ntohs(address.sin_port);
}

inline bool accepts_connections(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<uint16_t>(port));
  const bool connected = ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
  ::close(fd);
  return connected;
}

class ProxyProcess {
 public:
  // Runs `argv` with stdout and stderr appended to `log_file`, and waits until `port` accepts.
  ProxyProcess(const std::vector<std::string>& argv, std::filesystem::path log_file, int port)
      : log_(std::move(log_file)), port_(port) {
    std::vector<char*> args;
    for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log_.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    const int failed = posix_spawnp(&pid_, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (failed) throw std::runtime_error("cannot start " + argv[0] + " (scripts/setup.sh installs it)");
    for (int tries = 0; !accepts_connections(port_); ++tries) {
      int status = 0;
      if (tries > 400 || ::waitpid(pid_, &status, WNOHANG) == pid_) {
        stop();
        throw std::runtime_error(argv[0] + " did not start listening on port " + std::to_string(port_) + ":\n" + log());
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
  }
  ~ProxyProcess() { stop(); }
  ProxyProcess(const ProxyProcess&) = delete;
  ProxyProcess& operator=(const ProxyProcess&) = delete;

  int port() const { return port_; }
  std::string log() const {
    std::ifstream in(log_);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

 private:
  void stop() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGTERM);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = 0;
  }

  std::filesystem::path log_;
  int port_;
  pid_t pid_ = 0;
};

// tinyproxy asking for Basic auth; it logs "CONNECT host:port" per tunnel (LogLevel Connect).
inline std::unique_ptr<ProxyProcess> start_tinyproxy(const TempDir& dir, const std::string& user,
                                                     const std::string& password) {
  const int port = free_port();
  std::ofstream(dir / "tinyproxy.conf") << "Port " << port << "\nListen 127.0.0.1\nTimeout 600\n"
                                        << "LogFile \"" << (dir / "tinyproxy.log").string() << "\"\n"
                                        << "LogLevel Connect\nMaxClients 100\nAllow 127.0.0.1\n"
                                        << "BasicAuth " << user << " " << password << "\n";
  return std::make_unique<ProxyProcess>(
      std::vector<std::string>{"tinyproxy", "-d", "-c", (dir / "tinyproxy.conf").string()}, dir / "tinyproxy.log",
      port);
}

// microsocks asking for a user and password; it prints "connected to host:port" per connection.
inline std::unique_ptr<ProxyProcess> start_microsocks(const TempDir& dir, const std::string& user,
                                                      const std::string& password) {
  const int port = free_port();
  return std::make_unique<ProxyProcess>(
      std::vector<std::string>{"microsocks", "-i", "127.0.0.1", "-p", std::to_string(port), "-u", user, "-P",
                               password},
      dir / "microsocks.log", port);
}

// stunnel serving TLS with `certificate` and `key` in front of a plain proxy on `target_port`;
// with `client_ca`, it asks for a client certificate that CA signed.
inline std::unique_ptr<ProxyProcess> start_stunnel(const TempDir& dir, const std::filesystem::path& certificate,
                                                   const std::filesystem::path& key, int target_port,
                                                   const std::filesystem::path& client_ca = {}) {
  const int port = free_port();
  std::ofstream(dir / "stunnel.conf") << "foreground = yes\npid =\ndebug = notice\n[proxy]\n"
                                      << "accept = 127.0.0.1:" << port << "\nconnect = 127.0.0.1:" << target_port
                                      << "\ncert = " << certificate.string() << "\nkey = " << key.string() << "\n"
                                      << (client_ca.empty() ? "" : "verifyChain = yes\nCAfile = " + client_ca.string() + "\n");
  return std::make_unique<ProxyProcess>(std::vector<std::string>{"stunnel4", (dir / "stunnel.conf").string()},
                                        dir / "stunnel.log", port);
}

}  // namespace gkebuild::testing
