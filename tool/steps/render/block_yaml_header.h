// The fast path of read_manifest_header: a line-by-line reader for the plain block YAML that
// templates render (block mappings and sequences, plain and one-line quoted scalars, `[]`,
// `{}`, comments). It answers only where it is sure that libyaml would accept the document
// and read the same header; anything else (flow collections, block scalars, anchors, tags,
// multi-line scalars, non-ASCII text, odd indentation, and every error) is left to libyaml.
// libyaml costs about 180 instructions a byte; most of a 1,000-point sweep went there.
#pragma once

#include <optional>
#include <string_view>

#include "tool/steps/render/manifest_header.h"

namespace gkebuild::render {

// The header when `text` is in the subset above; nullopt means "ask libyaml", not "invalid".
std::optional<ManifestHeader> read_block_yaml_header(std::string_view text);

}  // namespace gkebuild::render
