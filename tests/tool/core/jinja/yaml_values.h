// Values that a careless YAML writer gets wrong; shared by the yaml-cpp and PyYAML round trips.
#pragma once

#include <nlohmann/json.hpp>

namespace gkebuild::jinja::testing {

inline nlohmann::ordered_json tricky_yaml_values() {
  nlohmann::ordered_json strings = nlohmann::ordered_json::array();
  for (const char* s : {"y", "n", "Y", "yes", "No", "ON", "off", "true", "False", "TRUE", "null", "Null", "~", "",
                        "0x1F", "0o17", "017", "1e3", ".5", "1_000", "+1", "-1", "1.10", ".inf", "-.Inf", ".NaN",
                        "2001-12-14", "2001-12-14t21:59:43.10-05:00", "12:30", "1:20:30", "- a", "? x", ": x", ",a",
                        "[a]", "{a}", "#c", "&a", "*a", "!t", "|x", ">x", "'q", "\"q", "%p", "@a", "`b", " lead",
                        "trail ", "a: b", "a #b", "multi\nline\n", "tab\there", "cr\rhere", "\x01ctl", "é unicode",
                        "\xF0\x9F\x98\x80", "back\\slash", "quote\"in", "a:b", "http://x.y/z", "key:", "-", "---",
                        "...", "=", "<<", "plain words", "a,b", "x]", "\xC2\x85nel", "\xE2\x80\xA8ls"})
    strings.push_back(s);
  return {
      {"strings", strings},
      {"numbers", {0, -7, 9007199254740993LL, 1.5, 0.1, 1e20, 1e-7, -0.0, 100.0}},
      {"flags", {true, false, nullptr}},
      {"empty", {{"list", nlohmann::ordered_json::array()}, {"map", nlohmann::ordered_json::object()}}},
      {"nested", {{{"name", "a"}, {"ports", {80, 443}}}, {{"name", "yes"}, {"env", {{"K", "on"}}}}}},
      {"list of lists", {{1, {2, 3}}, nlohmann::ordered_json::array()}},
      {"yes", "key that needs quotes"},
  };
}

}  // namespace gkebuild::jinja::testing
