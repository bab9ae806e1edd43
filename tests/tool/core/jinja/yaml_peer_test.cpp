// toyaml output read back by PyYAML (a YAML 1.1 parser) gives the original values.
#include <gtest/gtest.h>

#include "tests/common/run.h"
#include "tests/common/temp_dir.h"
#include "tool/core/jinja/environment.h"
#include "yaml_values.h"

namespace gkebuild::jinja {
namespace {

using Json = nlohmann::ordered_json;

TEST(JinjaToYamlPeer, PyYamlReadsBackTheSameValues) {
  Json values = testing::tricky_yaml_values();
  Environment env;
  std::string yaml = env.render_string("{{ v | toyaml }}", {{"v", values}});
  gkebuild::testing::TempDir dir;
  const auto path = dir.write("values.yaml", yaml);
  const auto read_back = gkebuild::testing::run_command(
      "python3 -c 'import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1], encoding=\"utf-8\"))))' " +
      gkebuild::testing::shell_quoted(path.string()));
  ASSERT_EQ(read_back.exit_code, 0) << read_back.err;
  Json back = Json::parse(read_back.out);
  // JSON has no key order guarantee from Python 3.7+ dicts beyond insertion, which PyYAML keeps.
  EXPECT_EQ(back, values) << yaml;
}

}  // namespace
}  // namespace gkebuild::jinja
