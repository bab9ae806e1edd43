// The program of the local runner's test image: it runs its arguments as a small script of
// steps, so one image shows streaming, exit codes, the environment, the user and the
// working directory a container gets.
//   print TEXT | err TEXT | env NAME | id | cwd | write PATH | exists PATH | sleep SECONDS | exit CODE
//   | term: exit 143 on SIGTERM from here on (else PID 1 ignores it, and a stop waits for SIGKILL)
//   SECONDS may have a fraction (0.2).
//   | rendezvous: the torchrun handshake in small: NODE_RANK 0 listens on MASTER_PORT and takes
//     one line from each of the NNODES-1 others, which resolve MASTER_ADDR and connect to it.
#include <grp.h>
#include <signal.h>
#include <time.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

void line(FILE* to, const std::string& text) {
  std::fprintf(to, "%s\n", text.c_str());
  std::fflush(to);
}

std::string identity() {
  std::vector<gid_t> groups(static_cast<size_t>(::getgroups(0, nullptr)));
  ::getgroups(static_cast<int>(groups.size()), groups.data());
  std::string out = "uid=" + std::to_string(::getuid()) + " gid=" + std::to_string(::getgid()) + " groups=";
  for (size_t i = 0; i < groups.size(); ++i) out += (i ? "," : "") + std::to_string(groups[i]);
  return out;
}

int env_int(const char* name) {
  const char* value = std::getenv(name);
  return value ? std::atoi(value) : -1;
}

// Rank 0: accepts NNODES-1 connections and prints what each sent. Returns the exit code.
int serve(int port, int peers) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  const int yes = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || ::listen(fd, peers) != 0) {
    line(stderr, "rank 0: cannot listen on " + std::to_string(port));
    return 3;
  }
  for (int met = 0; met < peers; ++met) {
    const int peer = ::accept(fd, nullptr, nullptr);
    char buffer[128] = {};
    const ssize_t got = ::read(peer, buffer, sizeof buffer - 1);
    ::close(peer);
    line(stdout, "rank 0 met " + std::string(buffer, got > 0 ? static_cast<size_t>(got) : 0));
  }
  ::close(fd);
  return 0;
}

// Rank > 0: resolves the master's name (its /etc/hosts) and connects, retrying while rank 0 starts.
int reach(const std::string& host, int port, int rank) {
  for (int attempt = 0; attempt < 200; ++attempt) {
    addrinfo hints{};
    hints.ai_family = AF_INET;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    if (::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found) != 0) {
      line(stderr, "rank " + std::to_string(rank) + ": cannot resolve " + host);
      return 4;
    }
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    const bool connected = ::connect(fd, found->ai_addr, found->ai_addrlen) == 0;
    ::freeaddrinfo(found);
    if (connected) {
      const std::string hello = "rank " + std::to_string(rank);
      const bool sent = ::write(fd, hello.data(), hello.size()) == static_cast<ssize_t>(hello.size());
      ::close(fd);
      line(stdout, "rank " + std::to_string(rank) + " reached " + host);
      return sent ? 0 : 5;
    }
    ::close(fd);
    ::usleep(50000);
  }
  line(stderr, "rank " + std::to_string(rank) + ": no answer from " + host);
  return 6;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> steps(argv + 1, argv + argc);
  for (size_t i = 0; i < steps.size(); ++i) {
    const std::string& step = steps[i];
    if (step == "id") {
      line(stdout, identity());
    } else if (step == "rendezvous") {
      const int rank = env_int("NODE_RANK");
      const char* master = std::getenv("MASTER_ADDR");
      const int port = env_int("MASTER_PORT");
      const int code = rank == 0 ? serve(port, env_int("NNODES") - 1) : reach(master ? master : "", port, rank);
      if (code != 0) return code;
    } else if (step == "term") {
      ::signal(SIGTERM, [](int) { ::_exit(143); });
    } else if (step == "cwd") {
      line(stdout, std::string("cwd=") + std::filesystem::current_path().string());
    } else if (i + 1 < steps.size()) {
      const std::string& value = steps[++i];
      const char* env = std::getenv(value.c_str());
      if (step == "print") line(stdout, value);
      if (step == "err") line(stderr, value);
      if (step == "env") line(stdout, value + "=" + (env ? env : "<unset>"));
      if (step == "write") std::ofstream(value) << "written\n";
      if (step == "exists") line(stdout, value + (::access(value.c_str(), F_OK) == 0 ? " exists" : " missing"));
      if (step == "cat") {
        std::ifstream in(value);
        if (!in) line(stdout, value + ": cannot open");
        for (std::string text; std::getline(in, text);) line(stdout, value + ": " + text);
      }
      if (step == "sleep") {
        const double seconds = std::atof(value.c_str());
        timespec wait{static_cast<time_t>(seconds), static_cast<long>((seconds - static_cast<long>(seconds)) * 1e9)};
        while (::nanosleep(&wait, &wait) != 0) {
        }
      }
      if (step == "exit") return std::atoi(value.c_str());
    }
  }
  return 0;
}
