// Python string formatting: `fmt % args` (the format filter) and str.format().
#pragma once

#include <string>
#include <string_view>

#include "tool/core/jinja/values/calls.h"
#include "tool/core/jinja/values/value.h"

namespace gkebuild::jinja {

// `fmt % values`; `values` is a tuple of positionals, or a mapping for %(name)s.
std::string percent_format(std::string_view fmt, const Value& values);
// `fmt.format(*args, **kwargs)`.
std::string brace_format(std::string_view fmt, const CallArgs& args);
// format(value, spec) with Python's format-spec mini-language.
std::string format_with_spec(const Value& value, std::string_view spec);

}  // namespace gkebuild::jinja
