// `gkebuild render --template FILE`: any Jinja template with a JSON/YAML context, like
// j2cli. Includes and imports are looked up in the template's own folder.
#pragma once

#include <filesystem>
#include <string>

#include "tool/core/jinja/environment.h"
#include "tool/core/jinja/values/value.h"

namespace gkebuild::render {

// Throws SourceError for a missing or too large file and for template errors.
std::string render_template_file(const std::filesystem::path& file, const jinja::Value& context,
                                 const jinja::Options& options);
// The same, giving the output to `sink` in pieces as it is produced.
void render_template_file(const std::filesystem::path& file, const jinja::Value& context,
                          const jinja::Options& options, const jinja::OutputSink& sink);

}  // namespace gkebuild::render
