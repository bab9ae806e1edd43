#include "tool/steps/validate/yaml_loader.h"

#include <yaml-cpp/depthguard.h>

#include <stdexcept>
#include <unordered_map>

#include "tool/steps/validate/text_checks.h"
#include "tool/steps/validate/yaml_scalar.h"

namespace gkebuild::validate {
namespace {

struct DocumentText {
  std::string_view text;
  int line_offset;  // 0-based line of the document's first line in the file
};

bool is_document_marker(std::string_view line) {
  return line.starts_with("---") &&
         (line.size() == 3 || line[3] == ' ' || line[3] == '\t' || line[3] == '\r');
}

// Splits at lines starting with "---"; each part keeps its marker line, which yaml-cpp
// accepts, so marks inside a part are relative to the part's first line.
std::vector<DocumentText> split_documents(std::string_view text) {
  std::vector<DocumentText> parts;
  size_t part_start = 0;
  int part_line = 0;
  int line = 0;
  for (size_t pos = 0; pos < text.size();) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    if (pos > 0 && is_document_marker(text.substr(pos, end - pos))) {
      parts.push_back({text.substr(part_start, pos - part_start), part_line});
      part_start = pos;
      part_line = line;
    }
    pos = end + 1;
    ++line;
  }
  parts.push_back({text.substr(part_start), part_line});
  return parts;
}

struct LimitExceeded : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Converts a YAML tree to JSON, reporting duplicate keys and bounding alias expansion: the
// nodes a document expands to, and the depth, which a recursive alias (`a: &a [*a]`, a node
// that contains itself) makes infinite.
class Converter {
 public:
  Converter(const std::string& file, int line_offset, const LoadLimits& limits,
            std::vector<Finding>& findings)
      : file_(file), line_offset_(line_offset), budget_(limits.max_nodes), max_nodes_(limits.max_nodes),
        max_depth_(limits.max_depth), findings_(findings) {}

  nlohmann::json convert(const YAML::Node& node) {
    if (budget_-- == 0)
      throw LimitExceeded("document expands to more than " + std::to_string(max_nodes_) +
                          " nodes (alias expansion bomb?)");
    if (depth_ == max_depth_)
      throw LimitExceeded("nesting deeper than " + std::to_string(max_depth_) +
                          " levels (a recursive alias?); not a Kubernetes manifest");
    struct Level {
      std::size_t& depth;
      explicit Level(std::size_t& d) : depth(++d) {}
      ~Level() { --depth; }
    } level(depth_);
    switch (node.Type()) {
      case YAML::NodeType::Scalar: return resolve_scalar(node.Scalar(), node.Tag());
      case YAML::NodeType::Sequence: {
        nlohmann::json array = nlohmann::json::array();
        for (const auto& item : node) array.push_back(convert(item));
        return array;
      }
      case YAML::NodeType::Map: return convert_map(node);
      default: return nullptr;
    }
  }

 private:
  nlohmann::json convert_map(const YAML::Node& node) {
    nlohmann::json object = nlohmann::json::object();
    std::unordered_map<std::string, int> first_line;
    std::vector<nlohmann::json> merges;
    for (auto it = node.begin(); it != node.end(); ++it) {
      const YAML::Node key = it->first;
      if (!key.IsScalar()) {
        report(key.Mark(), "mapping keys must be scalars in a Kubernetes manifest", "yaml-syntax");
        continue;
      }
      const std::string& name = key.Scalar();
      if (name == "<<" && key.Tag() == "?") {
        merges.push_back(convert(it->second));
        continue;
      }
      int line = line_offset_ + key.Mark().line + 1;
      auto [seen, inserted] = first_line.emplace(name, line);
      if (!inserted)
        // kubectl decodes YAML keeping the last value (checked with kubectl 1.32:
        // `kubectl label --local -o yaml`), and so does this loader.
        report(key.Mark(), "duplicate key \"" + name + "\" (first defined on line " +
                               std::to_string(seen->second) + "); kubectl uses this later value and drops the one on line " +
                               std::to_string(seen->second), "duplicate-key");
      object[name] = convert(it->second);
    }
    apply_merges(object, merges);
    return object;
  }

  // YAML 1.1 merge keys (`<<: *defaults`), as PyYAML applies them: explicit keys win.
  static void apply_merges(nlohmann::json& object, const std::vector<nlohmann::json>& merges) {
    for (const auto& merge : merges) {
      auto add = [&](const nlohmann::json& source) {
        if (!source.is_object()) return;
        for (auto& [k, v] : source.items())
          if (!object.contains(k)) object[k] = v;
      };
      if (merge.is_array()) {
        for (const auto& item : merge) add(item);
      } else {
        add(merge);
      }
    }
  }

  void report(const YAML::Mark& mark, std::string message, const char* rule) {
    findings_.push_back({file_, line_offset_ + mark.line + 1, mark.column + 1, Severity::kError,
                         rule, std::move(message)});
  }

  const std::string& file_;
  int line_offset_;
  std::size_t budget_;
  std::size_t max_nodes_;
  std::size_t max_depth_;
  std::size_t depth_ = 0;
  std::vector<Finding>& findings_;
};

bool is_list_kind(const nlohmann::json& value) {
  if (!value.is_object()) return false;
  auto kind = value.find("kind");
  auto items = value.find("items");
  if (kind == value.end() || !kind->is_string() || items == value.end() || !items->is_array())
    return false;
  return kind->get_ref<const std::string&>().ends_with("List");
}

void add_document(const YAML::Node& root, DocumentText part, const std::string& file,
                  const LoadLimits& limits, LoadResult& out) {
  if (root.IsNull() || !root.IsDefined()) return;
  Converter converter(file, part.line_offset, limits, out.findings);
  nlohmann::json value;
  try {
    value = converter.convert(root);
  } catch (const LimitExceeded& e) {
    Manifest where{file, part.line_offset, root, {}};
    auto p = where.position({});
    out.findings.push_back({file, p.line, p.column, Severity::kError, "yaml-limits", e.what()});
    return;
  }
  if (!is_list_kind(value)) {
    out.manifests.push_back({file, part.line_offset, root, std::move(value)});
    return;
  }
  const YAML::Node items = root["items"];
  for (std::size_t i = 0; i < value["items"].size(); ++i)
    out.manifests.push_back({file, part.line_offset, items[i], std::move(value["items"][i])});
}

Finding text_finding(const std::string& file, Position p, const char* rule, std::string message) {
  return {file, p.line, p.column, Severity::kError, rule, std::move(message)};
}

}  // namespace

LoadResult load_manifests(std::string_view text, const std::string& file, const LoadLimits& limits) {
  LoadResult out;
  if (text.size() > limits.max_bytes) {
    out.findings.push_back(text_finding(
        file, {1, 1}, "yaml-limits",
        "file is larger than the " + std::to_string(limits.max_bytes >> 20) +
            " MiB limit; not a manifest (Kubernetes objects are at most ~1.5 MiB)"));
    return out;
  }
  if (auto nul = find_nul_byte(text)) {
    out.findings.push_back(text_finding(file, *nul, "yaml-syntax",
                                        "binary data (NUL byte): this is not a YAML or JSON file"));
    return out;
  }
  if (auto bad = find_invalid_utf8(text)) {
    out.findings.push_back(text_finding(file, *bad, "yaml-syntax",
                                        "invalid UTF-8 byte sequence; YAML files must be UTF-8"));
    return out;
  }
  for (const auto& part : split_documents(text)) {
    YAML::Node root;
    try {
      root = YAML::Load(std::string(part.text));
    } catch (const YAML::DeepRecursion& e) {
      out.findings.push_back({file, part.line_offset + e.mark.line + 1, e.mark.column + 1,
                              Severity::kError, "yaml-limits",
                              "nesting deeper than " + std::to_string(e.depth()) +
                                  " levels; not a Kubernetes manifest"});
      continue;
    } catch (const YAML::ParserException& e) {
      out.findings.push_back({file, part.line_offset + e.mark.line + 1, e.mark.column + 1,
                              Severity::kError, "yaml-syntax", e.msg});
      continue;
    }
    add_document(root, part, file, limits, out);
  }
  return out;
}

}  // namespace gkebuild::validate
