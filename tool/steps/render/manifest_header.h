// Reads one rendered YAML document just far enough to know what it is: checks the whole
// document's syntax and returns its kind, metadata.name and metadata.namespace.
// It uses libyaml's event parser, which builds no tree: reading back a thousand Jobs
// costs a few milliseconds, where building yaml-cpp nodes for them was most of a render.
#pragma once

#include <optional>
#include <string>

namespace gkebuild::render {

struct ManifestHeader {
  bool is_mapping = false;  // the document's root is a mapping
  bool empty = false;       // no document, or a null root (comments only, `~`)
  std::string kind;
  std::string name;
  std::string namespace_name;
};

struct YamlSyntaxError {
  int line = 0;    // 0-based, within the document text
  int column = 0;  // 0-based
  std::string message;
};

// Reads `text` (one document). On a syntax error returns nullopt and fills `error`.
// Plain block YAML is read by a line reader of its own (block_yaml_header.h), the rest by libyaml.
std::optional<ManifestHeader> read_manifest_header(const std::string& text, YamlSyntaxError& error);
// The same, always by libyaml: the reference the line reader is tested against.
std::optional<ManifestHeader> read_manifest_header_with_libyaml(const std::string& text, YamlSyntaxError& error);

}  // namespace gkebuild::render
