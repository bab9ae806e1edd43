// toyaml output read back by PyYAML (a YAML 1.1 parser) gives the original values.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "jinja/environment.h"
#include "yaml_values.h"

namespace gkebuild::jinja {
namespace {

using Json = nlohmann::ordered_json;

std::string run(const std::string& command) {
  std::string output;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return output;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
  EXPECT_EQ(pclose(pipe), 0) << command;
  return output;
}

TEST(JinjaToYamlPeer, PyYamlReadsBackTheSameValues) {
  Json values = testing::tricky_yaml_values();
  Environment env;
  std::string yaml = env.render_string("{{ v | toyaml }}", {{"v", values}});
  auto path = std::filesystem::temp_directory_path() / ("gkebuild_toyaml_" + std::to_string(::getpid()) + ".yaml");
  std::ofstream(path, std::ios::binary) << yaml;
  std::string json = run("python3 -c 'import json, sys, yaml; "
                         "print(json.dumps(yaml.safe_load(open(sys.argv[1], encoding=\"utf-8\"))))' " +
                         path.string());
  std::filesystem::remove(path);
  Json back = Json::parse(json);
  // JSON has no key order guarantee from Python 3.7+ dicts beyond insertion, which PyYAML keeps.
  EXPECT_EQ(back, values) << yaml;
}

}  // namespace
}  // namespace gkebuild::jinja
