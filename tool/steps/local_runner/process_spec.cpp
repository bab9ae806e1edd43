#include "tool/steps/local_runner/process_spec.h"

#include <algorithm>
#include <stdexcept>

#include "base/error.h"

namespace gkebuild::local_runner {
namespace {

constexpr const char* kDefaultPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

const std::string* lookup(const EnvVars& vars, std::string_view name) {
  for (auto it = vars.rbegin(); it != vars.rend(); ++it) {
    if (it->first == name) return &it->second;
  }
  return nullptr;
}

std::string_view name_of(std::string_view assignment) { return assignment.substr(0, assignment.find('=')); }

// The container's own variables, each expanded with those before it, as the kubelet does.
EnvVars expanded(const EnvVars& env) {
  EnvVars out;
  for (const auto& [name, value] : env) out.emplace_back(name, expand_references(value, out));
  return out;
}

}  // namespace

std::string expand_references(std::string_view text, const EnvVars& vars) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '$' || i + 1 == text.size()) {
      out += text[i];
    } else if (text[i + 1] == '$') {
      out += '$';
      ++i;
    } else if (text[i + 1] == '(' && text.find(')', i + 2) != std::string_view::npos) {
      const size_t close = text.find(')', i + 2);
      const std::string_view name = text.substr(i + 2, close - i - 2);
      const std::string* value = lookup(vars, name);
      out += value ? std::string(*value) : std::string(text.substr(i, close - i + 1));
      i = close;
    } else {
      out += text[i];
    }
  }
  return out;
}

std::vector<std::string> process_env(const oci::ContainerConfig& image, const EnvVars& env,
                                     const std::string& hostname) {
  std::vector<std::string> out = image.env;
  auto set = [&out](std::string_view name, const std::string& value, bool replace) {
    auto same = [name](const std::string& a) { return name_of(a) == name; };
    auto it = std::find_if(out.begin(), out.end(), same);
    if (it == out.end()) {
      out.push_back(std::string(name) + "=" + value);
    } else if (replace) {
      *it = std::string(name) + "=" + value;
    }
  };
  for (const auto& [name, value] : expanded(env)) set(name, value, true);
  set("HOSTNAME", hostname, false);
  set("PATH", kDefaultPath, false);
  return out;
}

std::vector<std::string> process_args(const oci::ContainerConfig& image, const std::vector<std::string>& command,
                                      const std::vector<std::string>& args, const EnvVars& env) {
  const EnvVars vars = expanded(env);
  auto expand_all = [&vars](const std::vector<std::string>& words) {
    std::vector<std::string> out;
    for (const auto& w : words) out.push_back(expand_references(w, vars));
    return out;
  };
  std::vector<std::string> argv =
      !command.empty() ? expand_all(command) : image.entrypoint.value_or(std::vector<std::string>{});
  if (!args.empty()) {
    for (auto& a : expand_all(args)) argv.push_back(std::move(a));
  } else if (command.empty() && image.cmd) {
    argv.insert(argv.end(), image.cmd->begin(), image.cmd->end());
  }
  if (argv.empty()) {
    throw Error(ErrorKind::kBadInput, "nothing to run: the image has no Entrypoint or Cmd and the Job gives no command");
  }
  return argv;
}

}  // namespace gkebuild::local_runner
