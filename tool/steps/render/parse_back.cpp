#include "tool/steps/render/parse_back.h"

#include <algorithm>

#include "base/printable.h"
#include "base/source_error.h"
#include "tool/core/kube/object_names.h"
#include "tool/steps/render/manifest_header.h"

namespace gkebuild::render {
namespace {

struct Document {
  std::string text;
  int first_line;  // 1-based line of `text` in the whole rendered output
};

// Each document's lines, each ending in a newline; the "---" lines between them are left out.
std::vector<Document> split_documents(const std::string& rendered) {
  std::vector<Document> documents;
  const std::string_view text = rendered;
  size_t document_start = 0;
  int document_line = 1;
  const auto close = [&](size_t end) {
    documents.push_back({std::string(text.substr(document_start, end - document_start)), document_line});
    if (!documents.back().text.empty() && documents.back().text.back() != '\n') documents.back().text += '\n';
  };
  int line = 1;
  for (size_t start = 0; start < text.size(); ++line) {
    const size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view content = text.substr(start, end - start);
    if (content == "---" || content.starts_with("--- ")) {
      close(start);
      document_start = std::min(end + 1, text.size());
      document_line = line + 1;
    }
    start = end + 1;
  }
  close(text.size());
  return documents;
}

// The literal pieces of a template line: the text outside {{ }}, {% %} and {# #}.
std::vector<std::string> literal_pieces(const std::string& line) {
  std::vector<std::string> pieces;
  size_t position = 0;
  while (position <= line.size()) {
    size_t open = line.find('{', position);
    while (open != std::string::npos && open + 1 < line.size() && line[open + 1] != '{' &&
           line[open + 1] != '%' && line[open + 1] != '#')
      open = line.find('{', open + 1);
    std::string piece = line.substr(position, open == std::string::npos ? std::string::npos : open - position);
    if (!piece.empty()) pieces.push_back(piece);
    if (open == std::string::npos || open + 1 >= line.size()) break;
    const std::string close = line[open + 1] == '{' ? "}}" : std::string(1, line[open + 1]) + "}";
    size_t closing = line.find(close, open + 2);
    if (closing == std::string::npos) break;
    position = closing + 2;
  }
  return pieces;
}

bool contains_in_order(const std::string& text, const std::vector<std::string>& pieces) {
  size_t position = 0;
  for (const auto& piece : pieces) {
    position = text.find(piece, position);
    if (position == std::string::npos) return false;
    position += piece.size();
  }
  return true;
}

bool is_blank(const std::string& text) { return text.find_first_not_of(" \t") == std::string::npos; }

[[noreturn]] void fail(const std::string& rendered, const std::string& template_name,
                       const std::string& template_source, int line, int column, const std::string& message,
                       std::string_view what = "the rendered YAML is invalid") {
  // An unclosed bracket or quote is reported where the document ends: point at the
  // last line with text instead, which is where the mistake shows.
  while (line > 1 && is_blank(std::string(line_of(rendered, line)))) {
    --line;
    column = static_cast<int>(line_of(rendered, line).size()) + 1;
  }
  const std::string rendered_line(line_of(rendered, line));
  const int template_line = template_source.empty() ? 0 : locate_template_line(template_source, rendered_line);
  const std::string detail = std::string(what) + " (rendered line " + std::to_string(line) + ", column " +
                             std::to_string(column) + "): " + message;
  if (template_line > 0)
    throw SourceError({template_name, template_line, 0},
                      detail + "\n  rendered: " + rendered_line + "\n  from the template line", template_source);
  throw SourceError({template_name + " (rendered output)", line, column}, detail, rendered);
}

// The 0-based line of `document` that holds `key:` and `value` (the object's kind or name), the
// first line when none does.
int line_holding(const std::string& document, std::string_view key, const std::string& value) {
  int line = 0;
  for (size_t start = 0; start < document.size(); ++line) {
    const size_t end = std::min(document.find('\n', start), document.size());
    const std::string_view text = std::string_view(document).substr(start, end - start);
    const size_t at = text.find(key);
    if (at != std::string_view::npos && text.find(value, at + key.size()) != std::string_view::npos) return line;
    start = end + 1;
  }
  return 0;
}

// The kind and the name name a file (`render -o DIR`, a run's manifests/): both are checked by
// Kubernetes' own rules before that (`a/../../x` would climb out of DIR).
void check_kind_and_name(const Document& document, const ManifestHeader& header, const std::string& rendered,
                         const std::string& template_name, const std::string& template_source) {
  if (!kube::is_kind_name(header.kind))
    fail(rendered, template_name, template_source, document.first_line + line_holding(document.text, "kind:", header.kind),
         1, "kind " + in_quotes(header.kind) + " is not a kind's name (a letter, then letters and digits)",
         "the rendered object cannot be written");
  if (const auto problem = kube::name_problem(header.kind, header.name))
    fail(rendered, template_name, template_source, document.first_line + line_holding(document.text, "name:", header.name),
         1, "metadata.name " + in_quotes(header.name) + ": " + *problem, "the rendered object cannot be written");
}

}  // namespace

int locate_template_line(const std::string& template_source, const std::string& rendered_line) {
  int found = 0;
  int line_number = 0;
  size_t start = 0;
  while (start <= template_source.size()) {
    size_t end = template_source.find('\n', start);
    std::string line = template_source.substr(start, end == std::string::npos ? std::string::npos : end - start);
    ++line_number;
    auto pieces = literal_pieces(line);
    bool meaningful = false;
    for (const auto& piece : pieces) meaningful = meaningful || !is_blank(piece);
    if (meaningful && contains_in_order(rendered_line, pieces)) {
      if (found) return 0;  // ambiguous
      found = line_number;
    }
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return found;
}

std::vector<ParsedObject> parse_rendered(const std::string& rendered, const std::string& template_name,
                                         const std::string& template_source) {
  std::vector<ParsedObject> objects;
  for (auto& document : split_documents(rendered)) {
    YamlSyntaxError error;
    const auto header = read_manifest_header(document.text, error);
    if (!header)
      fail(rendered, template_name, template_source, document.first_line + error.line, error.column + 1,
           error.message);
    if (header->empty) continue;
    if (!header->is_mapping || header->kind.empty() || header->name.empty())
      fail(rendered, template_name, template_source, document.first_line, 1,
           "a manifest must be a mapping with kind and metadata.name");
    check_kind_and_name(document, *header, rendered, template_name, template_source);
    objects.push_back({std::move(document.text), header->kind, header->name, header->namespace_name});
  }
  return objects;
}

}  // namespace gkebuild::render
