// String filters: case, trimming, replacing, indentation, formatting, escaping.
#include <algorithm>
#include <cmath>

#include "base/ascii_scan.h"
#include "tool/core/jinja/builtins/filters.h"
#include "tool/core/jinja/runtime/interpreter.h"
#include "tool/core/jinja/runtime/limits.h"
#include "tool/core/jinja/values/number_format.h"
#include "tool/core/jinja/values/python_format.h"
#include "tool/core/jinja/values/unicode.h"

namespace gkebuild::jinja {

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    const char* entity = nullptr;
    switch (c) {
      case '&': entity = "&amp;"; break;
      case '<': entity = "&lt;"; break;
      case '>': entity = "&gt;"; break;
      case '"': entity = "&#34;"; break;
      case '\'': entity = "&#39;"; break;
      default: out += c; continue;
    }
    out += entity;
    require_growth_within_limit(out.size());  // up to sixfold
  }
  return out;
}

namespace {

Value text_result(const Value& input, std::string text) {
  Value out = Value::string(std::move(text));
  return input.is_markup() ? out.as_markup() : out;
}

Value f_upper(Interpreter& in, const Value& v, CallArgs& a) {
  a.bind("upper", {});
  return text_result(v, to_upper(in.str(v)));
}
Value f_lower(Interpreter& in, const Value& v, CallArgs& a) {
  a.bind("lower", {});
  return text_result(v, to_lower(in.str(v)));
}

std::string capitalize_text(std::string_view text) {
  std::string out;
  size_t pos = 0;
  if (pos < text.size()) append_title(out, decode_utf8(text, pos));
  out += to_lower(text.substr(pos));
  return out;
}

Value f_capitalize(Interpreter& in, const Value& v, CallArgs& a) {
  a.bind("capitalize", {});
  return text_result(v, capitalize_text(in.str(v)));
}

// Jinja's title(): words start after runs of '-', whitespace, '(', '{', '[' or '<'.
Value f_title(Interpreter& in, const Value& v, CallArgs& a) {
  a.bind("title", {});
  std::string text = in.str(v);
  std::string out;
  bool word_start = true;
  for (size_t pos = 0; pos < text.size();) {
    char32_t cp = decode_utf8(text, pos);
    bool separator = cp == '-' || cp == '(' || cp == '{' || cp == '[' || cp == '<' || is_space(cp);
    if (separator) {
      append_utf8(out, cp);
      word_start = true;
    } else if (word_start) {
      append_upper(out, cp);
      word_start = false;
    } else {
      append_lower(out, cp);
    }
  }
  return text_result(v, std::move(out));
}

Value f_trim(Interpreter& in, const Value& v, CallArgs& a) {
  Bound b = a.bind("trim", {"chars"});
  std::string text = in.str(v);
  if (b[0] && !b[0]->is_none()) return text_result(v, std::string(strip_chars(text, arg_str(b[0], "", "chars"), true, true)));
  return text_result(v, std::string(strip_space(text)));
}

std::string replace_all(std::string_view text, std::string_view old, std::string_view replacement, int64_t count) {
  std::string out;
  if (old.empty()) {
    auto chars = split_code_points(text);
    int64_t done = 0;
    for (size_t i = 0; i <= chars.size(); ++i) {
      if (count < 0 || done < count) {
        out += replacement;
        ++done;
        require_result_size(out.size());  // 'x' * 100000 | replace('', 'y' * 100000)
      }
      if (i < chars.size()) out += chars[i];
    }
    return out;
  }
  size_t pos = 0;
  int64_t done = 0;
  while (count < 0 || done < count) {
    size_t found = text.find(old, pos);
    if (found == std::string_view::npos) break;
    out.append(text, pos, found - pos);
    out += replacement;
    require_result_size(out.size());
    pos = found + old.size();
    ++done;
  }
  out.append(text.substr(pos));
  return out;
}

Value f_replace(Interpreter& in, const Value& v, CallArgs& a) {
  Bound b = a.bind("replace", {"old", "new", "count"});
  if (!b[0] || !b[1]) throw EvalError("replace() missing required argument");
  std::string text = in.str(v);
  int64_t count = b[2] && !b[2]->is_none() ? arg_int(b[2], -1, "count") : -1;
  std::string old = in.str(*b[0]);
  std::string replacement = in.str(*b[1]);
  // Without autoescape (gkebuild never enables it) Jinja2 replaces in str(value): Markup
  // input such as tojson's output is neither escaped nor kept as Markup.
  return Value::string(replace_all(text, old, replacement, count));
}

Value f_center(Interpreter& in, const Value& v, CallArgs& a) {
  Bound b = a.bind("center", {"width"});
  std::string text = in.str(v);
  int64_t width = arg_int(b[0], 80, "width");
  int64_t len = static_cast<int64_t>(code_point_count(text));
  if (width <= len) return text_result(v, std::move(text));
  require_result_size(static_cast<uint64_t>(width));
  int64_t margin = width - len;
  int64_t left = margin / 2 + (margin & width & 1);
  return text_result(v, std::string(static_cast<size_t>(left), ' ') + text +
                            std::string(static_cast<size_t>(margin - left), ' '));
}

// indent() over text whose only line breaks are "\n" and whose other bytes are printable
// ASCII or tabs (what toyaml and the shipped templates give): the lines are v.split("\n"),
// written out in one pass. False, with `out` unspecified, for anything else (the other
// separators of Python's splitlines: \r, \v, \f, \x1c-\x1e, U+0085, U+2028, U+2029).
bool indent_plain_text(std::string_view text, std::string_view indentation, bool first, bool blank, std::string& out) {
  out.reserve(text.size() + text.size() / 8 * indentation.size() + indentation.size());
  if (first) out += indentation;
  const char* const end = text.data() + text.size();
  const char* line = text.data();
  bool first_line = true;
  for (const char* p = line;;) {
    p = find_ascii_stop<true>(p, end);
    if (p < end && *p == '\t') {
      ++p;
      continue;
    }
    if (p < end && *p != '\n') return false;
    if (!first_line) {
      out += '\n';
      if (blank || p != line) out += indentation;
    }
    out.append(line, static_cast<size_t>(p - line));
    if (p == end) return true;
    first_line = false;
    line = ++p;
  }
}

Value f_indent(Interpreter& in, const Value& v, CallArgs& a) {
  Bound b = a.bind("indent", {"width", "first", "blank"});
  std::string indentation;
  if (b[0] && b[0]->is_str()) indentation = std::string(b[0]->str());
  else {
    int64_t width = std::max<int64_t>(0, arg_int(b[0], 4, "width"));
    require_result_size(static_cast<uint64_t>(width));
    indentation = std::string(static_cast<size_t>(width), ' ');
  }
  bool first = arg_bool(b[1], false);
  bool blank = arg_bool(b[2], false);
  // Jinja2 appends "\n" to the value itself, which only a string supports (an Undefined
  // raises even in lenient mode).
  if (v.is_undefined()) in.fail_undefined(v);
  if (!v.is_str())
    throw EvalError("unsupported operand type(s) for +=: '" + std::string(type_name(v)) + "' and 'str'");
  // Every line gains the indentation: counted first when that could pass the limit.
  if (!indentation.empty() && v.str().size() > kMaxResultBytes / (indentation.size() + 1)) {
    const auto lines = static_cast<uint64_t>(std::count(v.str().begin(), v.str().end(), '\n')) + 2;
    require_result_size(v.str().size() + lines * indentation.size());
  }
  std::string out;
  if (indent_plain_text(v.str(), indentation, first, blank, out)) return text_result(v, std::move(out));
  out.clear();
  std::string text = in.str(v) + "\n";
  auto lines = split_lines(text, false);
  out.reserve(text.size() + (lines.size() + 1) * indentation.size());
  // Only empty lines count as blank (a line of spaces is indented), and `first`
  // indents the first line even when it is empty, as Jinja2 does.
  if (first) out = indentation;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (i > 0) out += '\n';
    if (i > 0 && (blank || !lines[i].empty())) out += indentation;
    out += lines[i];
    require_result_size(out.size());  // lines that end in \r, U+2028 … were not counted above
  }
  // Jinja drops the newline it appended, keeping a trailing newline of the input.
  return text_result(v, out);
}

Value f_truncate(Interpreter& in, const Value& v, CallArgs& a) {
  Bound b = a.bind("truncate", {"length", "killwords", "end", "leeway"});
  std::string text = in.str(v);
  int64_t length = arg_int(b[0], 255, "length");
  bool killwords = arg_bool(b[1], false);
  std::string end = b[2] ? in.str(*b[2]) : "...";
  int64_t leeway = b[3] && !b[3]->is_none() ? arg_int(b[3], 5, "leeway") : 5;
  int64_t end_len = static_cast<int64_t>(code_point_count(end));
  if (length < end_len) throw EvalError("expected length >= " + std::to_string(end_len) + ", got " + std::to_string(length));
  if (leeway < 0) throw EvalError("expected leeway >= 0, got " + std::to_string(leeway));
  if (static_cast<int64_t>(code_point_count(text)) <= length + leeway) return text_result(v, text);
  std::string head = text.substr(0, byte_offset_of(text, static_cast<size_t>(length - end_len)));
  if (killwords) return text_result(v, head + end);
  size_t space = head.rfind(' ');
  if (space != std::string::npos) head = head.substr(0, space);
  return text_result(v, head + end);
}

Value f_wordcount(Interpreter& in, const Value& v, CallArgs& a) {
  a.bind("wordcount", {});
  std::string text = in.str(v);
  int64_t words = 0;
  bool in_word = false;
  for (size_t pos = 0; pos < text.size();) {
    char32_t cp = decode_utf8(text, pos);
    bool word_char = cp == '_' || (cp >= '0' && cp <= '9') || is_alpha(cp);
    if (word_char && !in_word) ++words;
    in_word = word_char;
  }
  return Value::integer(words);
}

Value f_string(Interpreter& in, const Value& v, CallArgs& a) {
  a.bind("string", {});
  if (v.is_str()) return v;
  return Value::string(in.str(v));
}

Value f_escape(Interpreter& in, const Value& v, CallArgs& a) {
  a.bind("escape", {});
  if (v.is_markup()) return v;
  if (v.is_undefined() && !in.strict()) return Value::markup("");
  return Value::markup(html_escape(in.str(v)));
}

Value f_safe(Interpreter& in, const Value& v, CallArgs& a) {
  a.bind("safe", {});
  if (v.is_str()) return v.as_markup();
  return Value::markup(in.str(v));
}

Value f_format(Interpreter& in, const Value& v, CallArgs& a) {
  if (!a.positional.empty() && !a.keywords.empty())
    throw EvalError("can't handle positional and keyword arguments at the same time");
  std::string fmt = in.str(v);
  if (!a.keywords.empty()) {
    std::vector<std::pair<Value, Value>> pairs;
    for (const auto& [k, val] : a.keywords) pairs.emplace_back(Value::string(std::string(k)), val);
    return text_result(v, percent_format(fmt, Value::dict(std::move(pairs))));
  }
  // Each positional argument gets formatted, and a strict Undefined raises when it is.
  for (const Value& argument : a.positional) in.require_defined(argument);
  return text_result(v, percent_format(fmt, Value::tuple(a.positional)));
}

// int(float): Python truncates; NaN gives |int's default. Infinity is an OverflowError, which
// |int lets through for a float and turns into the default for a string (`infinity_fails`).
// A finite value beyond int64 would be a Python big integer: gkebuild's integers are 64-bit,
// so that is an error, not a wrong number.
Value float_to_int(double d, const Value& fallback, bool infinity_fails) {
  if (std::isnan(d) || (std::isinf(d) && !infinity_fails)) return fallback;
  if (std::isinf(d)) throw EvalError("cannot convert float infinity to integer");
  if (d >= 9223372036854775808.0 || d < -9223372036854775808.0) throw_int_overflow();
  return Value::integer(static_cast<int64_t>(std::trunc(d)));
}

Value f_int(Interpreter& in, const Value& v, CallArgs& a) {
  Bound b = a.bind("int", {"default", "base"});
  Value fallback = b[0] ? *b[0] : Value::integer(0);
  int64_t base = arg_int(b[1], 10, "base");
  in.require_defined(v);
  if (v.is_int() || v.is_bool()) return Value::integer(v.as_int());
  if (v.is_float()) return float_to_int(v.as_float(), fallback, true);
  if (v.is_str()) {
    int64_t parsed;
    switch (parse_python_int(v.str(), static_cast<int>(base), parsed)) {
      case ParsedInt::Ok: return Value::integer(parsed);
      case ParsedInt::TooBig: throw_int_overflow();
      case ParsedInt::Invalid: break;
    }
    double d;
    if (parse_python_float(v.str(), d)) return float_to_int(d, fallback, false);
  }
  return fallback;
}

Value f_float(Interpreter& in, const Value& v, CallArgs& a) {
  Bound b = a.bind("float", {"default"});
  Value fallback = b[0] ? *b[0] : Value::floating(0.0);
  in.require_defined(v);
  if (v.is_number()) return Value::floating(v.as_float());
  double d;
  if (v.is_str() && parse_python_float(v.str(), d)) return Value::floating(d);
  return fallback;
}

Value f_abs(Interpreter& in, const Value& v, CallArgs& a) {
  a.bind("abs", {});
  in.require_defined(v);
  if (v.is_float()) return Value::floating(std::fabs(v.as_float()));
  if (v.is_int() || v.is_bool()) {
    int64_t i = v.as_int();
    if (i == INT64_MIN) throw EvalError("integer result out of range: gkebuild integers are 64-bit");
    return Value::integer(i < 0 ? -i : i);
  }
  throw EvalError("bad operand type for abs(): '" + std::string(type_name(v)) + "'");
}

Value f_round(Interpreter& in, const Value& v, CallArgs& a) {
  Bound b = a.bind("round", {"precision", "method"});
  int64_t precision = arg_int(b[0], 0, "precision");
  std::string_view method = arg_str(b[1], "common", "method");
  if (method != "common" && method != "ceil" && method != "floor")
    throw EvalError("method must be common, ceil or floor");
  in.require_defined(v);
  if (!v.is_number()) throw EvalError("type " + std::string(type_name(v)) + " doesn't define __round__ method");
  if (method == "common") {
    if (!v.is_float()) {
      if (precision >= 0) return Value::integer(v.as_int());
      double scale = std::pow(10.0, static_cast<double>(-precision));
      return Value::integer(static_cast<int64_t>(python_round(static_cast<double>(v.as_int()) / scale, 0) * scale));
    }
    return Value::floating(python_round(v.as_float(), static_cast<int>(precision)));
  }
  double scale = std::pow(10.0, static_cast<double>(precision));
  double scaled = v.as_float() * scale;
  double rounded = method == "ceil" ? std::ceil(scaled) : std::floor(scaled);
  // Python's math.ceil/floor return integers, so a zero result has no sign: -0.0 gives 0.0.
  if (rounded == 0.0) rounded = 0.0;
  return Value::floating(rounded / scale);
}

Value f_urlencode(Interpreter& in, const Value& v, CallArgs& a) {
  a.bind("urlencode", {});
  auto quote = [](std::string_view text, bool for_query) {
    static const char* hex = "0123456789ABCDEF";
    require_result_size(text.size(), 3);  // each byte may become three
    std::string out;
    for (unsigned char c : text) {
      if (std::isalnum(c) || c == '_' || c == '.' || c == '-' || c == '~' || (!for_query && c == '/')) {
        out += static_cast<char>(c);
      } else if (for_query && c == ' ') {
        out += '+';
      } else {
        out += '%';
        out += hex[c >> 4];
        out += hex[c & 15];
      }
    }
    return out;
  };
  if (v.is_mapping() || v.is_list_like()) {
    std::string out;
    auto add = [&](const Value& k, const Value& val) {
      require_result_size(out.size());
      if (!out.empty()) out += '&';
      out += quote(in.str(k), true) + "=" + quote(in.str(val), true);
    };
    if (v.is_mapping()) {
      mapping_for_each(v, add);
    } else {
      Sequence seq(v);
      for (size_t i = 0; i < seq.size(); ++i) {
        Sequence pair(seq.at(i));
        if (pair.size() != 2) throw EvalError("urlencode expects pairs");
        add(pair.at(0), pair.at(1));
      }
    }
    return Value::string(std::move(out));
  }
  return Value::string(quote(in.str(v), false));
}

}  // namespace

const std::vector<FilterEntry>& text_filters() {
  using enum Effect;  // none of these keeps state
  static const std::vector<FilterEntry> filters = {
      {"upper", f_upper, ReadsOnly}, {"lower", f_lower, ReadsOnly}, {"capitalize", f_capitalize, ReadsOnly},
      {"title", f_title, ReadsOnly}, {"trim", f_trim, ReadsOnly}, {"replace", f_replace, ReadsOnly},
      {"center", f_center, ReadsOnly}, {"indent", f_indent, ReadsOnly}, {"truncate", f_truncate, ReadsOnly},
      {"wordcount", f_wordcount, ReadsOnly}, {"string", f_string, ReadsOnly}, {"escape", f_escape, ReadsOnly},
      {"e", f_escape, ReadsOnly}, {"safe", f_safe, ReadsOnly}, {"format", f_format, ReadsOnly},
      {"int", f_int, ReadsOnly}, {"float", f_float, ReadsOnly}, {"abs", f_abs, ReadsOnly},
      {"round", f_round, ReadsOnly}, {"urlencode", f_urlencode, ReadsOnly},
  };
  return filters;
}

}  // namespace gkebuild::jinja
