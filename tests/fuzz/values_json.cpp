// JSON values files straight through their reader (tool/steps/render/values_json.h), which documents one
// error: SourceError. Every value read is walked back (jinja::to_json), so a slot built wrong
// shows, and where nlohmann::json reads the document too, both must read the same.
#include <cstdio>
#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

#include "base/source_error.h"
#include "fuzz_target.h"
#include "tool/core/jinja/errors.h"
#include "tool/steps/render/values_json.h"

GKEBUILD_FUZZ_TARGET_EXPECTING(gkebuild::SourceError, {
  const gkebuild::jinja::Value value = gkebuild::render::parse_json_values(std::string(input), "fuzz.json");
  gkebuild::jinja::Json ours;
  try {
    ours = gkebuild::jinja::to_json(value);
  } catch (const gkebuild::jinja::EvalError&) {
    return 0;  // an integer beyond 64 bits: read, and an error when read (nlohmann rounds it)
  }
  const auto reference = gkebuild::jinja::Json::parse(input, nullptr, /*allow_exceptions=*/false);
  if (!reference.is_discarded() && ours != reference) {
    const auto replace = nlohmann::json::error_handler_t::replace;
    std::fprintf(stderr, "read as %s, nlohmann::json reads %s\n", ours.dump(-1, ' ', false, replace).c_str(),
                 reference.dump(-1, ' ', false, replace).c_str());
    std::abort();
  }
})
