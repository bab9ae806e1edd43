#include "tool/steps/render/manifest_header.h"

#include "tool/steps/render/block_yaml_header.h"
#include "tool/steps/render/yaml_events.h"

namespace gkebuild::render {
namespace {

// Consumes the node that starts at the current event, nested ones included.
bool skip_node(EventReader& reader) {
  int depth = 0;
  do {
    const auto type = reader.type();
    if (type == YAML_SEQUENCE_START_EVENT || type == YAML_MAPPING_START_EVENT) ++depth;
    else if (type == YAML_SEQUENCE_END_EVENT || type == YAML_MAPPING_END_EVENT) --depth;
    if (depth == 0) return true;
  } while (reader.next());
  return false;
}

// With the reader on a mapping's start, calls on_value(key) at each value's first event;
// on_value consumes the value node. Keys that are not scalars are skipped with their value.
template <class OnValue>
bool read_mapping(EventReader& reader, OnValue on_value) {
  while (reader.next()) {
    if (reader.type() == YAML_MAPPING_END_EVENT) return true;
    const bool scalar_key = reader.type() == YAML_SCALAR_EVENT;
    const std::string key = scalar_key ? reader.scalar() : std::string();
    if (!scalar_key && !skip_node(reader)) return false;
    if (!reader.next()) return false;
    if (!(scalar_key ? on_value(key) : skip_node(reader))) return false;
  }
  return false;
}

// The value of a wanted scalar field, or the node skipped.
bool take_scalar(EventReader& reader, std::string& into) {
  if (reader.type() == YAML_SCALAR_EVENT) {
    into = reader.scalar();
    return true;
  }
  return skip_node(reader);
}

bool read_metadata(EventReader& reader, ManifestHeader& header) {
  if (reader.type() != YAML_MAPPING_START_EVENT) return skip_node(reader);
  return read_mapping(reader, [&](const std::string& key) {
    if (key == "name") return take_scalar(reader, header.name);
    if (key == "namespace") return take_scalar(reader, header.namespace_name);
    return skip_node(reader);
  });
}

bool read_root(EventReader& reader, ManifestHeader& header) {
  if (reader.type() != YAML_MAPPING_START_EVENT) {
    header.empty = reader.is_null_scalar();
    return skip_node(reader);
  }
  header.is_mapping = true;
  return read_mapping(reader, [&](const std::string& key) {
    if (key == "kind") return take_scalar(reader, header.kind);
    if (key == "metadata") return read_metadata(reader, header);
    return skip_node(reader);
  });
}

}  // namespace

std::optional<ManifestHeader> read_manifest_header(const std::string& text, YamlSyntaxError& error) {
  if (auto header = read_block_yaml_header(text)) return header;
  return read_manifest_header_with_libyaml(text, error);
}

std::optional<ManifestHeader> read_manifest_header_with_libyaml(const std::string& text, YamlSyntaxError& error) {
  EventReader reader(text);
  ManifestHeader header;
  bool ok = reader.next() && reader.next();  // stream start, then a document or the stream's end
  if (ok && reader.type() == YAML_STREAM_END_EVENT) {
    header.empty = true;
    return header;
  }
  ok = ok && reader.next() && read_root(reader, header);
  // The rest of the stream must parse too: a mistake after the fields read is still a mistake.
  while (ok && reader.type() != YAML_STREAM_END_EVENT) ok = reader.next();
  if (!ok) {
    error = reader.error();
    return std::nullopt;
  }
  return header;
}

}  // namespace gkebuild::render
