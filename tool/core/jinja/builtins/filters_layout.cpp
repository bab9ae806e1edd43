// Filters that lay text out: wordwrap (Python's textwrap), filesizeformat and pprint
// (Python's pprint.pformat), byte for byte as Jinja2 3.1 prints them.
#include <algorithm>
#include <cmath>

#include "tool/core/jinja/builtins/filters.h"
#include "tool/core/jinja/runtime/interpreter.h"
#include "tool/core/jinja/runtime/limits.h"
#include "tool/core/jinja/values/number_format.h"
#include "tool/core/jinja/values/python_format.h"
#include "tool/core/jinja/values/unicode.h"

namespace gkebuild::jinja {

namespace {

// ---- wordwrap ------------------------------------------------------------------------

using Chunks = std::vector<std::u32string>;

// textwrap's whitespace; splitlines() has already removed all but spaces and tabs.
bool is_wrap_space(char32_t c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}
bool is_letter(char32_t c) { return is_word_char(c) && !(c >= '0' && c <= '9'); }  // [^\d\W]
bool is_word_punct(char32_t c) {
  return is_word_char(c) || std::u32string_view(U"!\"'&.,?").find(c) != std::u32string_view::npos;
}

// TextWrapper.wordsep_re at `pos`, after the word "text[start, pos)": the end of its
// hyphenated-word or em-dash alternatives, or npos.
size_t word_split(const std::u32string& text, size_t start, size_t pos) {
  auto at = [&](size_t i) { return i < text.size() ? text[i] : U'\0'; };
  auto letter_before = [&](size_t i, size_t back) { return i >= back && is_letter(text[i - back]); };
  if (text[pos] == '-') {  // -(?:(?<=lt{2}-)|(?<=lt-lt-))(?=lt-?lt)
    bool behind = (letter_before(pos, 1) && letter_before(pos, 2)) ||
                  (letter_before(pos, 1) && pos >= 2 && text[pos - 2] == '-' && letter_before(pos, 3));
    bool ahead = is_letter(at(pos + 1)) && (is_letter(at(pos + 2)) || (at(pos + 2) == '-' && is_letter(at(pos + 3))));
    if (behind && ahead) return pos + 1;
  }
  if (pos > start && is_word_punct(text[pos - 1]) && at(pos) == '-' && at(pos + 1) == '-') {  // (?=-{2,}\w)
    size_t dashes = pos;
    while (at(dashes) == '-') ++dashes;
    if (is_word_char(at(dashes))) return pos;
  }
  return std::u32string::npos;
}

// TextWrapper._split: runs of whitespace and the words between them; with break_on_hyphens
// words also split after the hyphen of "goof-ball" and around "--" between words, as
// wordsep_re's alternatives do, tried in its order at each position.
Chunks split_chunks(std::string_view line_utf8, bool break_on_hyphens) {
  std::u32string text = to_code_points(line_utf8);
  Chunks chunks;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = pos;
    if (is_wrap_space(text[pos])) {
      while (end < text.size() && is_wrap_space(text[end])) ++end;
    } else if (break_on_hyphens && pos > 0 && is_word_punct(text[pos - 1]) && text[pos] == '-' &&
               pos + 1 < text.size() && text[pos + 1] == '-') {
      while (end < text.size() && text[end] == '-') ++end;  // an em-dash "--" between words
      if (end == text.size() || !is_word_char(text[end])) end = pos;
    }
    if (end == pos) {
      for (end = pos + 1; end < text.size() && !is_wrap_space(text[end]); ++end) {
        size_t split = break_on_hyphens ? word_split(text, pos, end) : std::u32string::npos;
        if (split != std::u32string::npos) {
          end = split;
          break;
        }
      }
    }
    chunks.push_back(text.substr(pos, end - pos));
    pos = end;
  }
  return chunks;
}

// str.strip() == "": textwrap drops such chunks at line ends (Unicode whitespace counts).
bool is_blank(const std::u32string& chunk) { return std::all_of(chunk.begin(), chunk.end(), is_space); }

// TextWrapper._handle_long_word with break_long_words: as much of the chunk as fits, cut
// after its last hyphen within the space when break_on_hyphens (and something precedes it).
size_t long_word_cut(const std::u32string& chunk, size_t space_left, bool break_on_hyphens) {
  if (!break_on_hyphens || chunk.size() <= space_left || space_left == 0) return space_left;
  size_t hyphen = chunk.rfind(U'-', space_left - 1);
  if (hyphen == std::u32string::npos || hyphen == 0) return space_left;
  bool other_before = std::any_of(chunk.begin(), chunk.begin() + static_cast<std::ptrdiff_t>(hyphen),
                                  [](char32_t c) { return c != '-'; });
  return other_before ? hyphen + 1 : space_left;
}

// TextWrapper._wrap_chunks with drop_whitespace, no indents and no max_lines.
std::vector<std::string> wrap_chunks(Chunks chunks, size_t width, bool break_long_words, bool break_on_hyphens) {
  std::vector<std::string> lines;
  std::reverse(chunks.begin(), chunks.end());
  while (!chunks.empty()) {
    std::vector<std::u32string> line;
    size_t used = 0;
    if (is_blank(chunks.back()) && !lines.empty()) chunks.pop_back();
    while (!chunks.empty() && used + chunks.back().size() <= width) {
      used += chunks.back().size();
      line.push_back(std::move(chunks.back()));
      chunks.pop_back();
    }
    // A word longer than a whole line: split it at the width, or give it a line of its own.
    if (!chunks.empty() && chunks.back().size() > width) {
      if (break_long_words) {
        size_t cut = long_word_cut(chunks.back(), width - used, break_on_hyphens);
        line.push_back(chunks.back().substr(0, cut));
        chunks.back().erase(0, cut);
      } else if (line.empty()) {
        line.push_back(std::move(chunks.back()));
        chunks.pop_back();
      }
    }
    if (!line.empty() && is_blank(line.back())) line.pop_back();
    if (!line.empty()) {
      std::u32string text;
      for (const std::u32string& chunk : line) text += chunk;
      lines.push_back(to_utf8(text));
    }
  }
  return lines;
}

Value f_wordwrap(Interpreter& in, const Value& v, CallArgs& a) {
  Bound b = a.bind("wordwrap", {"width", "break_long_words", "wrapstring", "break_on_hyphens"});
  in.require_defined(v);
  if (!v.is_str()) throw EvalError("'" + std::string(type_name(v)) + "' object has no attribute 'splitlines'");
  int64_t width = arg_int(b[0], 79, "width");
  bool break_long_words = arg_bool(b[1], true);
  std::string wrapstring = b[2] && !b[2]->is_none() ? in.str(*b[2]) : "\n";
  bool break_on_hyphens = arg_bool(b[3], true);
  // Code points (4 bytes each) and chunks of them: a long text is refused before that.
  require_result_size(v.str().size(), 16);
  // Each line of the text is a paragraph wrapped on its own; the wrapped lines and the
  // paragraphs (an empty one included) are joined with wrapstring.
  std::string out;
  bool first_paragraph = true;
  for (std::string_view line : split_lines(v.str(), false)) {
    if (width <= 0) throw EvalError("invalid width " + std::to_string(width) + " (must be > 0)");
    if (!first_paragraph) out += wrapstring;
    first_paragraph = false;
    std::vector<std::string> wrapped = wrap_chunks(split_chunks(line, break_on_hyphens),
                                                   static_cast<size_t>(width), break_long_words, break_on_hyphens);
    for (size_t i = 0; i < wrapped.size(); ++i) {
      require_result_size(out.size() + wrapstring.size() + wrapped[i].size());  // a long wrapstring
      out += (i ? wrapstring : "") + wrapped[i];
    }
  }
  return Value::string(std::move(out));
}

// ---- filesizeformat ------------------------------------------------------------------

double to_python_float(Interpreter& in, const Value& v) {
  in.require_defined(v);
  if (v.is_number()) return v.as_float();
  double parsed;
  if (v.is_str() && parse_python_float(v.str(), parsed)) return parsed;
  if (v.is_str()) throw EvalError("could not convert string to float: " + repr(v));
  throw EvalError("float() argument must be a string or a real number, not '" + std::string(type_name(v)) + "'");
}

std::string one_decimal(double value) { return percent_format("%.1f", Value::tuple({Value::floating(value)})); }

Value f_filesizeformat(Interpreter& in, const Value& v, CallArgs& a) {
  Bound b = a.bind("filesizeformat", {"binary"});
  double bytes = to_python_float(in, v);
  bool binary = arg_bool(b[0], false);
  double base = binary ? 1024 : 1000;
  static const char* const kDecimal[] = {"kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"};
  static const char* const kBinary[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"};
  if (bytes == 1) return Value::string("1 Byte");
  if (bytes < base) {
    if (std::isinf(bytes)) throw EvalError("cannot convert float infinity to integer");
    if (bytes < -9.2e18) throw_int_overflow();
    return Value::string(std::to_string(static_cast<int64_t>(std::trunc(bytes))) + " Bytes");
  }
  // unit = base ** (i + 2) is a Python integer: `bytes < unit` compares exactly (1000 ** 9
  // fits the 64-bit mantissa of long double), `/ unit` rounds unit to a double first.
  long double unit = static_cast<long double>(base) * base;
  for (int i = 0; i < 8; ++i, unit *= base) {
    if (static_cast<long double>(bytes) < unit || i == 7)
      return Value::string(one_decimal(base * bytes / static_cast<double>(unit)) + " " +
                           (binary ? kBinary[i] : kDecimal[i]));
  }
  return Value::string("");  // not reached: the last unit always returns
}

// ---- pprint --------------------------------------------------------------------------

constexpr int kPprintWidth = 80;  // pprint.pformat's defaults: width 80, indent 1, sorted dicts

// Dict items in pprint's order: sorted by key; keys that do not compare (None and str)
// fall back to their type names, as pprint's _safe_key does.
std::vector<std::pair<Value, Value>> sorted_items(const Value& mapping) {
  std::vector<std::pair<Value, Value>> items;
  mapping_for_each(mapping, [&](const Value& k, const Value& val) { items.emplace_back(k, val); });
  std::stable_sort(items.begin(), items.end(), [](const auto& x, const auto& y) {
    try {
      return compare(x.first, y.first) < 0;
    } catch (const EvalError&) {
      return type_name(x.first) < type_name(y.first);
    }
  });
  return items;
}

// pprint's _safe_repr: repr() with dict keys sorted at every level.
std::string safe_repr(const Value& v) {
  ValueNesting nesting;
  if (v.is_mapping()) {
    std::string out = "{";
    for (const auto& [k, val] : sorted_items(v)) {
      if (out.size() > 1) out += ", ";
      out += safe_repr(k) + ": " + safe_repr(val);
    }
    return out + "}";
  }
  if (v.is_list_like()) {
    bool tuple = v.kind() == Kind::Tuple;
    std::vector<Value> items = to_vector(v);
    std::string out = tuple ? "(" : "[";
    for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + safe_repr(items[i]);
    if (tuple && items.size() == 1) out += ",";
    return out + (tuple ? ")" : "]");
  }
  return repr(v);
}

class PrettyPrinter {
 public:
  std::string format(const Value& v) {
    write(v, 0, 0, 0);
    return std::move(out_);
  }

 private:
  // PrettyPrinter._format: the one-line repr when it fits, else the type's multi-line layout.
  void write(const Value& v, int indent, int allowance, int level) {
    ValueNesting nesting;
    require_growth_within_limit(out_.size());
    std::string rep = safe_repr(v);
    int max_width = kPprintWidth - indent - allowance;
    if (static_cast<int>(code_point_count(rep)) > max_width) {
      if (v.is_mapping()) return write_dict(v, indent, allowance, level + 1);
      if (v.is_list_like()) return write_items(v, indent, allowance, level + 1);
      if (v.is_str() && !v.is_markup()) return write_str(v.str(), indent, allowance, level + 1);
    }
    out_ += rep;
  }

  void write_dict(const Value& v, int indent, int allowance, int level) {
    out_ += '{';
    auto items = sorted_items(v);
    indent += 1;
    for (size_t i = 0; i < items.size(); ++i) {
      bool last = i + 1 == items.size();
      std::string key = safe_repr(items[i].first);
      out_ += key + ": ";
      write(items[i].second, indent + static_cast<int>(code_point_count(key)) + 2, last ? allowance + 1 : 1, level);
      if (!last) out_ += ",\n" + std::string(static_cast<size_t>(indent), ' ');
    }
    out_ += '}';
  }

  void write_items(const Value& v, int indent, int allowance, int level) {
    bool tuple = v.kind() == Kind::Tuple;
    std::vector<Value> items = to_vector(v);
    std::string end = !tuple ? "]" : items.size() == 1 ? ",)" : ")";
    out_ += tuple ? '(' : '[';
    allowance += static_cast<int>(end.size());
    indent += 1;
    for (size_t i = 0; i < items.size(); ++i) {
      if (i) out_ += ",\n" + std::string(static_cast<size_t>(indent), ' ');
      write(items[i], indent, i + 1 == items.size() ? allowance : 1, level);
    }
    out_ += end;
  }

  // PrettyPrinter._pprint_str: a long string as adjacent literals, split after whitespace.
  void write_str(std::string_view text, int indent, int allowance, int level) {
    std::vector<std::string> chunks;
    std::vector<std::string_view> lines = split_lines(text, true);
    if (level == 1) indent += 1, allowance += 1;
    int max_width = kPprintWidth - indent;
    int max_width1 = max_width;
    std::string rep;
    auto width_of = [](std::string_view s) { return static_cast<int>(code_point_count(repr(Value::borrowed(s)))); };
    for (size_t i = 0; i < lines.size(); ++i) {
      rep = repr(Value::borrowed(lines[i]));
      bool last_line = i + 1 == lines.size();
      if (last_line) max_width1 -= allowance;
      if (static_cast<int>(code_point_count(rep)) <= max_width1) {
        chunks.push_back(rep);
        continue;
      }
      std::vector<std::string_view> parts = split_after_whitespace(lines[i]);
      int max_width2 = max_width;
      std::string current;
      for (size_t j = 0; j < parts.size(); ++j) {
        std::string candidate = current + std::string(parts[j]);
        if (j + 1 == parts.size() && last_line) max_width2 -= allowance;
        if (width_of(candidate) > max_width2) {
          if (!current.empty()) chunks.push_back(repr(Value::borrowed(current)));
          current = std::string(parts[j]);
        } else {
          current = std::move(candidate);
        }
      }
      if (!current.empty()) chunks.push_back(repr(Value::borrowed(current)));
    }
    if (chunks.size() == 1) {
      out_ += rep;  // sic: pprint writes the repr of the last line here
      return;
    }
    if (level == 1) out_ += '(';
    for (size_t i = 0; i < chunks.size(); ++i) {
      if (i) out_ += "\n" + std::string(static_cast<size_t>(indent), ' ');
      out_ += chunks[i];
    }
    if (level == 1) out_ += ')';
  }

  // re.findall(r'\S*\s*', line) without its final empty match.
  static std::vector<std::string_view> split_after_whitespace(std::string_view line) {
    std::vector<std::string_view> parts;
    size_t pos = 0;
    while (pos < line.size()) {
      size_t start = pos;
      size_t next = pos;
      while (next < line.size()) {
        size_t after = next;
        if (is_space(decode_utf8(line, after))) break;
        next = after;
      }
      while (next < line.size()) {
        size_t after = next;
        if (!is_space(decode_utf8(line, after))) break;
        next = after;
      }
      parts.push_back(line.substr(start, next - start));
      pos = next;
    }
    return parts;
  }

  std::string out_;
};

Value f_pprint(Interpreter& in, const Value& v, CallArgs& a) {
  a.bind("pprint", {});
  (void)in;  // pformat only calls repr(), which even StrictUndefined answers
  return Value::string(PrettyPrinter().format(v));
}

}  // namespace

const std::vector<FilterEntry>& layout_filters() {
  using enum Effect;  // none of these keeps state
  static const std::vector<FilterEntry> filters = {
      {"wordwrap", f_wordwrap, ReadsOnly}, {"filesizeformat", f_filesizeformat, ReadsOnly},
      {"pprint", f_pprint, ReadsOnly},
  };
  return filters;
}

}  // namespace gkebuild::jinja
