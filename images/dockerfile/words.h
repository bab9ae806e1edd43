// Dockerfile word processing: quotes, escapes and $VAR / ${VAR} / ${VAR:-x} /
// ${VAR:+x} expansion, as Docker applies them to ENV, LABEL, COPY, WORKDIR, …
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gkebuild::dockerfile {

// Looks a variable up; nullopt when it is not set.
using Lookup = std::function<std::optional<std::string>(std::string_view name)>;

// Splits at unquoted blanks, removes quotes and escapes, expands variables.
// Throws InputError for an unterminated quote or ${…}.
std::vector<std::string> split_words(std::string_view text, const Lookup& lookup, char escape);

// The same processing without splitting: the whole text is one word.
std::string expand_word(std::string_view text, const Lookup& lookup, char escape);

}  // namespace gkebuild::dockerfile
