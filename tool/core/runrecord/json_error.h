// nlohmann::json reports a parse error as a byte offset; users want file:line:col.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "base/source_error.h"

namespace gkebuild::runrecord {

// The 1-based line and column of byte `offset` (0-based) in `text`.
SourceLocation location_of_offset(std::string_view text, std::size_t offset, const std::string& file);

// "file:line:col: error: <what the parser expected>", never quoting the file's content.
SourceError json_parse_error(const nlohmann::json::parse_error& error, std::string_view text,
                             const std::string& file);

// The parser's explanation without its "[json.exception…] parse error at line…:" prefix and
// without the bytes it last read.
std::string json_parse_reason(const nlohmann::json::parse_error& error);

}  // namespace gkebuild::runrecord
