// The program of the local runner's test image: it runs its arguments as a small script of
// steps, so one image shows streaming, exit codes, the environment, the user and the
// working directory a container gets.
//   print TEXT | err TEXT | env NAME | id | cwd | write PATH | exists PATH | sleep SECONDS | exit CODE
#include <grp.h>
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

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> steps(argv + 1, argv + argc);
  for (size_t i = 0; i < steps.size(); ++i) {
    const std::string& step = steps[i];
    if (step == "id") {
      line(stdout, identity());
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
      if (step == "sleep") ::sleep(static_cast<unsigned>(std::atoi(value.c_str())));
      if (step == "exit") return std::atoi(value.c_str());
    }
  }
  return 0;
}
