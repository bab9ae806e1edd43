// Jinja's filters (`x | upper`), looked up by name at parse time, plus the helpers the
// filter groups share.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tool/core/jinja/syntax/ast.h"
#include "tool/core/jinja/values/calls.h"
#include "tool/core/jinja/builtins/effects.h"

namespace gkebuild::jinja {

// The filter's table entry; null when no filter has that name. Called through
// Interpreter::call_filter (or append_filter), which acts on the entry's Effect.
const FilterEntry* find_filter(std::string_view name);
// Every filter's entry, find_filter's table (for tests/tool/core/jinja/effects_test.cpp).
const std::vector<FilterEntry>& filter_entries();

std::string html_escape(std::string_view text);

// Jinja's make_attrgetter: "a.b.0" looks up each part with getitem (digits as indexes).
Value get_attribute_path(Interpreter& interp, const Value& item, std::string_view path);

// The filters of each group (filters_text.cpp, filters_sequence.cpp, yaml_helpers.cpp);
// filters.cpp builds find_filter's table from these lists.
const std::vector<FilterEntry>& text_filters();
const std::vector<FilterEntry>& sequence_filters();
const std::vector<FilterEntry>& yaml_filters();
const std::vector<FilterEntry>& markup_filters();  // filters_markup.cpp
const std::vector<FilterEntry>& layout_filters();  // filters_layout.cpp

}  // namespace gkebuild::jinja
