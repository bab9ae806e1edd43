// Every rendered manifest is read back as YAML before anything is written: a template
// that yields invalid YAML is an error naming the rendered line and, where it can be
// found, the template line that produced it.
#pragma once

#include <string>
#include <vector>

namespace gkebuild::render {

struct ParsedObject {
  std::string text;  // one YAML document, ending in a newline, without "---"
  std::string kind;
  std::string name;
  std::string namespace_name;
};

// Splits `rendered` at "---" lines, checks each document's YAML syntax and reads its
// kind and metadata.name (both required). Empty documents are dropped.
// `template_name` and `template_source` (may be empty) are used in messages.
std::vector<ParsedObject> parse_rendered(const std::string& rendered, const std::string& template_name,
                                         const std::string& template_source);

// The 1-based line of `template_source` whose literal text produced `rendered_line`,
// when exactly one line matches; 0 otherwise.
int locate_template_line(const std::string& template_source, const std::string& rendered_line);

}  // namespace gkebuild::render
