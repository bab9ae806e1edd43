// Checks on raw bytes before any YAML parsing, so binary or broken files get one
// clear finding instead of a confusing parser message.
#pragma once

#include <optional>
#include <string_view>

#include "tool/steps/validate/manifest.h"

namespace gkebuild::validate {

// The position of the first NUL byte, if any (such a file is binary, not YAML).
std::optional<Position> find_nul_byte(std::string_view text);

// The position of the first byte that is not part of valid UTF-8, if any.
std::optional<Position> find_invalid_utf8(std::string_view text);

// 1-based line and column of byte `offset` in `text` (columns count bytes).
Position position_at(std::string_view text, size_t offset);

}  // namespace gkebuild::validate
