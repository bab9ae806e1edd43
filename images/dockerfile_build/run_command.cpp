#include "images/dockerfile_build/run_command.h"

#include <cctype>
#include <sstream>
#include <stdexcept>

#include "base/error.h"

namespace gkebuild::build {

RunScript run_script(const dockerfile::Instruction& in, const std::vector<std::string>& shell) {
  RunScript script;
  if (in.json) {
    script.argv = *in.json;
    return script;
  }
  std::string command = in.arguments;
  if (!in.heredocs.empty()) {
    auto lone = dockerfile::heredoc_marker(command);
    if (in.heredocs.size() == 1 && lone && lone->name == in.heredocs[0].name) {
      std::string body = dockerfile::heredoc_text(in.heredocs[0]);
      if (body.starts_with("#!")) {
        // A script with its own interpreter: run it, reading the script from stdin.
        std::istringstream first_line(body.substr(2, body.find('\n') - 2));
        for (std::string w; first_line >> w;) script.argv.push_back(w);
        script.argv.push_back("/dev/stdin");
        script.stdin_data = body;
        return script;
      }
      command = body;
    } else {
      for (const auto& h : in.heredocs) command += "\n" + h.body + h.name;
    }
  }
  script.argv = shell;
  script.argv.push_back(command);
  return script;
}

RunRequest::CacheMount parse_cache_mount(const std::string& value) {
  RunRequest::CacheMount mount;
  std::string type = "bind";
  std::istringstream in(value);
  for (std::string field; std::getline(in, field, ',');) {
    size_t eq = field.find('=');
    std::string key = field.substr(0, eq), v = eq == std::string::npos ? "" : field.substr(eq + 1);
    if (key == "type") {
      type = v;
    } else if (key == "target" || key == "dst" || key == "destination") {
      mount.target = v;
    } else if (key == "id") {
      mount.id = v;
    } else if (key != "sharing") {
      throw InputError("RUN --mount option '" + key + "' is not supported (cache mounts take target, "
                       "id and sharing)");
    }
  }
  if (type != "cache") {
    throw InputError("RUN --mount=type=" + type +
                     " is not supported: only type=cache and type=secret mounts are");
  }
  if (!mount.target.starts_with('/')) {
    throw InputError("RUN --mount=type=cache needs target=/ABSOLUTE/DIR");
  }
  return mount;
}

void check_network(const std::string& value) {
  if (value == "default" || value == "host") return;
  throw InputError("RUN --network=" + value +
                   " is not supported: RUN steps use the host's network (default or host)");
}

int64_t parse_duration(const std::string& value) {
  static const std::pair<const char*, int64_t> units[] = {
      {"ns", 1}, {"us", 1000}, {"ms", 1000000}, {"s", 1000000000}, {"m", 60000000000}, {"h", 3600000000000}};
  if (value.empty()) throw InputError("empty duration");
  int64_t total = 0;
  size_t p = 0;
  while (p < value.size()) {
    size_t start = p;
    while (p < value.size() && (std::isdigit(static_cast<unsigned char>(value[p])) || value[p] == '.')) ++p;
    if (p == start) throw InputError("bad duration");
    double number = std::stod(value.substr(start, p - start));
    size_t unit_start = p;
    while (p < value.size() && std::isalpha(static_cast<unsigned char>(value[p]))) ++p;
    std::string unit = value.substr(unit_start, p - unit_start);
    bool known = false;
    for (const auto& [name, ns] : units) {
      if (unit == name) {
        total += static_cast<int64_t>(number * static_cast<double>(ns));
        known = true;
      }
    }
    if (!known) throw InputError("bad duration unit");
  }
  return total;
}

}  // namespace gkebuild::build
