#include "images/dockerfile_build/stage_builder.h"

#include <algorithm>

#include "images/dockerfile_build/run_command.h"

namespace gkebuild::build {

void StageBuilder::expose(const Instruction& in) {
  for (auto port : words(in)) {
    if (port.find('/') == std::string::npos) port += "/tcp";
    std::string number = port.substr(0, port.find('/'));
    std::string proto = port.substr(port.find('/') + 1);
    bool digits = !number.empty() && std::all_of(number.begin(), number.end(), ::isdigit);
    if (!digits || (proto != "tcp" && proto != "udp" && proto != "sctp")) {
      fail(in, "EXPOSE expects PORT[/tcp|udp|sctp], got '" + port + "'");
    }
    config_.exposed_ports.insert(port);
  }
  record(in);
}

void StageBuilder::docker_only(const Instruction& in, const std::string& key, nlohmann::json value) {
  if (options_.docker_format) {
    config_.other[key] = std::move(value);
  } else {
    config_.other.erase(key);
    warn(shared_.dockerfile.file + ":" + std::to_string(in.line) + ": " + in.name +
         " is not part of the OCI image format and is left out of the image; build with --format docker "
         "to keep it");
  }
  record(in);
}

void StageBuilder::shell(const Instruction& in) {
  if (!in.json || in.json->empty()) fail(in, "SHELL takes a JSON array: SHELL [\"/bin/bash\", \"-c\"]");
  shell_ = *in.json;
  docker_only(in, "Shell", shell_);
}

void StageBuilder::healthcheck(const Instruction& in) {
  auto parts = words(in);
  nlohmann::json check = nlohmann::json::object();
  std::string kind = parts.empty() ? "" : parts[0];
  std::transform(kind.begin(), kind.end(), kind.begin(), ::toupper);
  if (kind == "NONE") {
    check["Test"] = {"NONE"};
  } else if (kind == "CMD") {
    std::string rest = in.arguments.substr(3);
    rest.erase(0, rest.find_first_not_of(" \t"));
    auto exec = dockerfile::parse("FROM scratch\nCMD " + rest, "").instructions[1].json;
    if (exec) {
      check["Test"] = nlohmann::json::array({"CMD"});
      for (const auto& a : *exec) check["Test"].push_back(a);
    } else {
      check["Test"] = {"CMD-SHELL", rest};
    }
  } else {
    fail(in, "HEALTHCHECK takes CMD COMMAND or NONE");
  }
  for (const auto& flag : in.flags) {
    static const std::map<std::string, std::string> keys{
        {"interval", "Interval"}, {"timeout", "Timeout"}, {"start-period", "StartPeriod"},
        {"start-interval", "StartInterval"}, {"retries", "Retries"}};
    try {
      if (flag.name == "retries") {
        check["Retries"] = std::stoi(flag.value);
      } else {
        check[keys.at(flag.name)] = parse_duration(flag.value);
      }
    } catch (const std::exception&) {
      fail_at(in, flag.column, "--" + flag.name + "=" + flag.value + ": expected " +
                                   (flag.name == "retries" ? "a number" : "a duration such as 30s or 1m30s"));
    }
  }
  docker_only(in, "Healthcheck", check);
}

void StageBuilder::onbuild(const Instruction& in) {
  auto triggers = config_.other.value("OnBuild", nlohmann::json::array());
  triggers.push_back(in.arguments);
  docker_only(in, "OnBuild", triggers);
}

std::vector<std::string> StageBuilder::command(const Instruction& in) const {
  if (in.json) return *in.json;
  std::vector<std::string> argv = shell_;
  argv.push_back(in.arguments);
  return argv;
}

}  // namespace gkebuild::build
