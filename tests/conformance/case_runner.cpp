// Renders conformance cases with gkebuild's Jinja engine for compare.py and fuzz.py.
// Input (a file named as the only argument, or stdin): a JSON array of cases
//   {"name", "template", "context", "options": {...}, "templates": {name: source}}.
// Output (stdout): a JSON array of {"name", "output"} or {"name", "error", "kind"}, in input
// order; kind is syntax, undefined, not_found or runtime (jinja::TemplateErrorKind), or internal for an
// exception that is not a template error (which never agrees with Jinja2).
// One process renders a whole batch, so the Python side pays the start-up once.

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "base/source_error.h"
#include "tool/core/jinja/environment.h"
#include "tool/core/jinja/errors.h"
#include "tool/steps/render/values_json.h"

namespace {

using nlohmann::ordered_json;
namespace jinja = gkebuild::jinja;
namespace render = gkebuild::render;

jinja::Options options_of(const ordered_json& options) {
  jinja::Options result;
  result.trim_blocks = options.value("trim_blocks", false);
  result.lstrip_blocks = options.value("lstrip_blocks", false);
  result.keep_trailing_newline = options.value("keep_trailing_newline", false);
  const std::string undefined = options.value("undefined", std::string("strict"));
  result.undefined = undefined == "lenient" ? jinja::UndefinedMode::Lenient : jinja::UndefinedMode::Strict;
  // GKEBUILD_CASE_SPLIT=1: every loop of two items or more is split (tool/core/jinja/runtime/split_loop.cpp)
  // into blocks of one item on three threads, so that the output must come out the same.
  static const bool split = std::getenv("GKEBUILD_CASE_SPLIT") != nullptr;
  if (split) {
    result.loop_threads = 3;
    result.split_loop_items = 2;
  }
  return result;
}

std::string render_case(const ordered_json& test_case) {
  jinja::Environment environment(options_of(test_case.value("options", ordered_json::object())));
  const ordered_json templates = test_case.value("templates", ordered_json::object());
  for (const auto& [name, source] : templates.items()) {
    environment.add_template(name, source.get<std::string>());
  }
  const ordered_json context = test_case.value("context", ordered_json::object());
  // GKEBUILD_CASE_CONTEXT=values: the context as `render --template --values ctx.json` reads
  // it (a values document), instead of the JSON a project render passes.
  static const bool as_values = [] {
    const char* mode = std::getenv("GKEBUILD_CASE_CONTEXT");
    return mode && std::string_view(mode) == "values";
  }();
  if (!as_values) return environment.render_string(test_case.at("template").get<std::string>(), context);
  const jinja::Value values = render::parse_json_values(context.dump(), "context.json");
  environment.add_template("<string>", test_case.at("template").get<std::string>());
  return environment.render_file("<string>", values);
}

ordered_json run_case(const ordered_json& test_case) {
  ordered_json result = {{"name", test_case.value("name", std::string())}};
  try {
    result["output"] = render_case(test_case);
  } catch (const jinja::TemplateError& error) {
    result["error"] = error.what();
    result["kind"] = std::string(to_string(error.template_kind()));
  } catch (const std::exception& error) {
    result["error"] = std::string("exception: ") + error.what();
    result["kind"] = "internal";
  }
  return result;
}

std::string read_input(int argc, char** argv) {
  if (argc > 1) {
    std::ifstream file(argv[1], std::ios::binary);
    if (!file) throw std::runtime_error(std::string("cannot open ") + argv[1]);
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
  }
  return {std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()};
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const ordered_json cases = ordered_json::parse(read_input(argc, argv));
    ordered_json results = ordered_json::array();
    for (const auto& test_case : cases) results.push_back(run_case(test_case));
    // Invalid UTF-8 in an output must show up as a mismatch, not abort the batch.
    std::cout << results.dump(-1, ' ', false, ordered_json::error_handler_t::replace) << '\n';
    return 0;
  } catch (const std::exception& error) {
    std::cerr << "case_runner: " << error.what() << '\n';
    return 2;
  }
}
