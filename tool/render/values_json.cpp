#include "render/values_json.h"

#include <charconv>
#include <cstdlib>

#include "base/ascii_scan.h"
#include "base/source_error.h"
#include "jinja/unicode.h"
#include "render/values_builder.h"

namespace gkebuild::render {
namespace {

class JsonReader {
 public:
  JsonReader(std::string text, const std::string& file) : strings_(std::move(text)), file_(file) {
    text_ = strings_.text();
  }

  jinja::Value document() {
    if (text_.starts_with("\xEF\xBB\xBF")) at_ = 3;  // a byte order mark, as some editors write
    skip_space();
    if (at_ >= text_.size()) return jinja::Value::none();
    jinja::Value root = value(0);
    skip_space();
    if (at_ < text_.size()) fail(at_, "unexpected text after the JSON document");
    return root;
  }

 private:
  [[noreturn]] void fail(std::size_t offset, const std::string& message) const {
    fail_at(offset, "invalid JSON: " + message);
  }
  [[noreturn]] void fail_at(std::size_t offset, const std::string& message) const {
    int line = 1;
    std::size_t line_start = 0;
    for (std::size_t i = 0; i < offset && i < text_.size(); ++i)
      if (text_[i] == '\n') {
        ++line;
        line_start = i + 1;
      }
    throw SourceError({file_, line, static_cast<int>(offset - line_start) + 1}, message, text_);
  }

  void skip_space() {
    while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\n' || text_[at_] == '\t' || text_[at_] == '\r'))
      ++at_;
  }

  bool consume(std::string_view word) {
    if (text_.substr(at_, word.size()) != word) return false;
    at_ += word.size();
    return true;
  }

  jinja::Value value(std::size_t depth) {
    if (depth >= kMaxValuesDepth)
      fail(at_, "nested more than " + std::to_string(kMaxValuesDepth) + " levels deep");
    if (at_ >= text_.size()) fail(at_, "unexpected end of the document");
    switch (text_[at_]) {
      case '{': return object(depth);
      case '[': return array(depth);
      case '"': return string();
      case 't': if (consume("true")) return jinja::Value::boolean(true); break;
      case 'f': if (consume("false")) return jinja::Value::boolean(false); break;
      case 'n': if (consume("null")) return jinja::Value::none(); break;
      default:
        if (text_[at_] == '-' || (text_[at_] >= '0' && text_[at_] <= '9')) return number();
    }
    fail(at_, "expected a value");
  }

  jinja::Value object(std::size_t depth) {
    ++at_;  // {
    MappingBuilder mapping(pairs_);
    skip_space();
    if (at_ < text_.size() && text_[at_] == '}') {
      ++at_;
      return mapping.finish();
    }
    while (true) {
      skip_space();
      const std::size_t key_at = at_;
      if (at_ >= text_.size() || text_[at_] != '"') fail(at_, "expected a string key");
      jinja::Value key = string();
      skip_space();
      if (at_ >= text_.size() || text_[at_] != ':') fail(at_, "expected ':' after a key");
      ++at_;
      skip_space();
      jinja::Value item = value(depth + 1);
      const std::string_view key_text = key.str();  // stays in strings_, which outlives the mapping
      if (!mapping.add(std::move(key), std::move(item)))
        fail_at(key_at, "duplicate key '" + std::string(key_text) + "'");
      skip_space();
      if (at_ < text_.size() && text_[at_] == ',') {
        ++at_;
        continue;
      }
      if (at_ < text_.size() && text_[at_] == '}') {
        ++at_;
        return mapping.finish();
      }
      fail(at_, "expected ',' or '}'");
    }
  }

  jinja::Value array(std::size_t depth) {
    ++at_;  // [
    const std::size_t start = items_.size();
    skip_space();
    if (at_ < text_.size() && text_[at_] == ']') {
      ++at_;
      return jinja::Value::list({});
    }
    while (true) {
      skip_space();
      jinja::Value item = value(depth + 1);
      items_.push_back(std::move(item));
      skip_space();
      if (at_ < text_.size() && text_[at_] == ',') {
        ++at_;
        continue;
      }
      if (at_ < text_.size() && text_[at_] == ']') {
        ++at_;
        return finish_list(items_, start);
      }
      fail(at_, "expected ',' or ']'");
    }
  }

  // Most strings have no escapes: they stay views into the file's text.
  jinja::Value string() {
    const std::size_t open = at_++;
    const std::size_t start = at_;
    // A run of plain text ends at a quote, a backslash or a control character.
    const char* stop = find_ascii_stop<false, '"', '\\'>(text_.data() + at_, text_.data() + text_.size());
    at_ = static_cast<std::size_t>(stop - text_.data());
    if (at_ >= text_.size()) fail(open, "unterminated string");
    if (static_cast<unsigned char>(text_[at_]) < 0x20) fail(at_, "control character in a string");
    if (text_[at_] == '"') return strings_.view(text_.substr(start, at_++ - start));
    std::string decoded(text_.substr(start, at_ - start));
    while (true) {
      if (at_ >= text_.size()) fail(open, "unterminated string");
      const char c = text_[at_];
      if (c == '"') break;
      if (static_cast<unsigned char>(c) < 0x20) fail(at_, "control character in a string");
      if (c == '\\') {
        escape(decoded);
        continue;
      }
      const char* run = find_ascii_stop<false, '"', '\\'>(text_.data() + at_, text_.data() + text_.size());
      const std::size_t run_end = static_cast<std::size_t>(run - text_.data());
      decoded.append(text_, at_, run_end - at_);
      at_ = run_end;
    }
    ++at_;
    return strings_.copy(decoded);
  }

  void escape(std::string& out) {
    const std::size_t backslash = at_++;
    if (at_ >= text_.size()) fail(backslash, "unterminated string");
    switch (text_[at_++]) {
      case '"': out += '"'; return;
      case '\\': out += '\\'; return;
      case '/': out += '/'; return;
      case 'b': out += '\b'; return;
      case 'f': out += '\f'; return;
      case 'n': out += '\n'; return;
      case 'r': out += '\r'; return;
      case 't': out += '\t'; return;
      case 'u': break;
      default: fail(backslash, "invalid escape");
    }
    char32_t code = hex4(backslash);
    if (code >= 0xD800 && code <= 0xDBFF) {
      if (!consume("\\u")) fail(backslash, "unpaired surrogate");
      const char32_t low = hex4(backslash);
      if (low < 0xDC00 || low > 0xDFFF) fail(backslash, "unpaired surrogate");
      code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
    } else if (code >= 0xDC00 && code <= 0xDFFF) {
      fail(backslash, "unpaired surrogate");
    }
    jinja::append_utf8(out, code);
  }

  char32_t hex4(std::size_t escape_at) {
    unsigned value = 0;
    if (at_ + 4 > text_.size()) fail(escape_at, "invalid \\u escape");
    auto [end, error] = std::from_chars(text_.data() + at_, text_.data() + at_ + 4, value, 16);
    if (error != std::errc() || end != text_.data() + at_ + 4) fail(escape_at, "invalid \\u escape");
    at_ += 4;
    return value;
  }

  jinja::Value number() {
    const std::size_t start = at_;
    if (text_[at_] == '-') ++at_;
    const std::size_t digits = at_;
    while (at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9') ++at_;
    if (at_ == digits || (text_[digits] == '0' && at_ - digits > 1)) fail(start, "invalid number");
    bool integral = true;
    if (at_ < text_.size() && text_[at_] == '.') {
      integral = false;
      const std::size_t fraction = ++at_;
      while (at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9') ++at_;
      if (at_ == fraction) fail(start, "invalid number");
    }
    if (at_ < text_.size() && (text_[at_] == 'e' || text_[at_] == 'E')) {
      integral = false;
      ++at_;
      if (at_ < text_.size() && (text_[at_] == '+' || text_[at_] == '-')) ++at_;
      const std::size_t exponent = at_;
      while (at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9') ++at_;
      if (at_ == exponent) fail(start, "invalid number");
    }
    const char* first = text_.data() + start;
    const char* last = text_.data() + at_;
    if (integral) {
      int64_t value = 0;
      auto [end, error] = std::from_chars(first, last, value);
      if (error == std::errc() && end == last) return jinja::Value::integer(value);
      // Too large for 64 bits: a float, as the YAML reader types it.
    }
    // strtod gives ±HUGE_VAL on overflow and 0 on underflow, as Python's float() does.
    return jinja::Value::floating(std::strtod(std::string(first, last).c_str(), nullptr));
  }

  ValuesText strings_;
  std::vector<ValuePair> pairs_;       // scratch of the mappings being read
  std::vector<jinja::Value> items_;    // scratch of the lists being read
  std::string_view text_;
  const std::string& file_;
  std::size_t at_ = 0;
};

}  // namespace

jinja::Value parse_json_values(std::string text, const std::string& file) {
  return JsonReader(std::move(text), file).document();
}

}  // namespace gkebuild::render
