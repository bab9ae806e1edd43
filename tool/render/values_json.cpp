#include "render/values_json.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <unordered_set>
#include <vector>

#include "base/ascii_scan.h"
#include "base/source_error.h"
#include "jinja/unicode.h"
#include "render/values_builder.h"

namespace gkebuild::render {
namespace {

using jinja::DocSlot;

// What the values of one JSON file borrow: its text, the strings that had escapes, and the
// slots, in blocks that never move.
struct JsonDocument : jinja::Object {
  std::string text;
  std::deque<std::string> decoded;
  std::vector<std::unique_ptr<DocSlot[]>> blocks;
  std::size_t block_size = 0;
  std::size_t block_used = 0;
  std::size_t next_block = 0;  // slots in the next block
  DocSlot root{};

  // Room for `count` slots, not initialised.
  DocSlot* allocate(std::size_t count) {
    if (count == 0) return nullptr;
    if (count > block_size - block_used) {
      block_size = std::max(count, next_block);
      blocks.emplace_back(new DocSlot[block_size]);
      block_used = 0;
      next_block = 2 * block_size;
    }
    DocSlot* slots = blocks.back().get() + block_used;
    block_used += count;
    return slots;
  }
};

DocSlot scalar(DocSlot::Type type) {
  DocSlot slot;
  slot.type = type;
  slot.size = 0;
  slot.i = 0;
  return slot;
}

class JsonReader {
 public:
  JsonReader(std::string text, const std::string& file) : document_(std::make_shared<JsonDocument>()), file_(file) {
    document_->text = std::move(text);
    text_ = document_->text;
    // About one slot for every ten bytes of a typical file.
    document_->next_block = text_.size() / 8 + 64;
  }

  jinja::Value document() {
    if (text_.starts_with("\xEF\xBB\xBF")) at_ = 3;  // a byte order mark, as some editors write
    skip_space();
    if (at_ >= text_.size()) return jinja::Value::none();
    document_->root = value(0);
    skip_space();
    if (at_ < text_.size()) fail(at_, "unexpected text after the JSON document");
    return jinja::Value::doc_root(document_->root, document_);
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

  DocSlot value(std::size_t depth) {
    if (depth >= kMaxValuesDepth)
      fail(at_, "nested more than " + std::to_string(kMaxValuesDepth) + " levels deep");
    if (at_ >= text_.size()) fail(at_, "unexpected end of the document");
    switch (text_[at_]) {
      case '{': return object(depth);
      case '[': return array(depth);
      case '"': return string();
      case 't': if (consume("true")) return scalar(DocSlot::True); break;
      case 'f': if (consume("false")) return scalar(DocSlot::False); break;
      case 'n': if (consume("null")) return scalar(DocSlot::Null); break;
      default:
        if (text_[at_] == '-' || (text_[at_] >= '0' && text_[at_] <= '9')) return number();
    }
    fail(at_, "expected a value");
  }

  // The entries from `start` on leave the scratch stack for the document.
  DocSlot finish(DocSlot::Type type, std::size_t start) {
    const std::size_t count = pending_.size() - start;
    DocSlot container = scalar(type);
    container.size = static_cast<uint32_t>(type == DocSlot::Dict ? count / 2 : count);
    DocSlot* slots = document_->allocate(count);
    std::copy(pending_.begin() + static_cast<std::ptrdiff_t>(start), pending_.end(), slots);
    container.items = slots;
    pending_.resize(start);
    return container;
  }

  // Whether the mapping whose entries start at `start` already has `key`. A wide mapping gets
  // an index, so that it stays linear overall.
  bool has_key(std::size_t start, std::string_view key, std::unordered_set<std::string_view>& index) {
    const std::size_t keys = (pending_.size() - start) / 2;
    if (keys > kLinearScanLimit) {
      if (index.empty())
        for (std::size_t i = start; i < pending_.size(); i += 2) index.emplace(pending_[i].s, pending_[i].size);
      return !index.emplace(key).second;
    }
    for (std::size_t i = start; i < pending_.size(); i += 2) {
      const DocSlot& known = pending_[i];
      if (known.size == key.size() && (key.empty() || known.s[0] == key[0]) &&
          std::memcmp(known.s, key.data(), key.size()) == 0)
        return true;
    }
    return false;
  }

  DocSlot object(std::size_t depth) {
    ++at_;  // {
    const std::size_t start = pending_.size();
    std::unordered_set<std::string_view> index;
    skip_space();
    if (at_ < text_.size() && text_[at_] == '}') {
      ++at_;
      return finish(DocSlot::Dict, start);
    }
    while (true) {
      skip_space();
      const std::size_t key_at = at_;
      if (at_ >= text_.size() || text_[at_] != '"') fail(at_, "expected a string key");
      const DocSlot key = string();
      const std::string_view key_text(key.s, key.size);
      if (has_key(start, key_text, index)) fail_at(key_at, "duplicate key '" + std::string(key_text) + "'");
      pending_.push_back(key);
      skip_space();
      if (at_ >= text_.size() || text_[at_] != ':') fail(at_, "expected ':' after a key");
      ++at_;
      skip_space();
      const DocSlot item = value(depth + 1);
      pending_.push_back(item);
      skip_space();
      if (at_ < text_.size() && text_[at_] == ',') {
        ++at_;
        continue;
      }
      if (at_ < text_.size() && text_[at_] == '}') {
        ++at_;
        return finish(DocSlot::Dict, start);
      }
      fail(at_, "expected ',' or '}'");
    }
  }

  DocSlot array(std::size_t depth) {
    ++at_;  // [
    const std::size_t start = pending_.size();
    skip_space();
    if (at_ < text_.size() && text_[at_] == ']') {
      ++at_;
      return finish(DocSlot::List, start);
    }
    while (true) {
      skip_space();
      const DocSlot item = value(depth + 1);
      pending_.push_back(item);
      skip_space();
      if (at_ < text_.size() && text_[at_] == ',') {
        ++at_;
        continue;
      }
      if (at_ < text_.size() && text_[at_] == ']') {
        ++at_;
        return finish(DocSlot::List, start);
      }
      fail(at_, "expected ',' or ']'");
    }
  }

  DocSlot string_slot(std::string_view text) {
    DocSlot slot = scalar(DocSlot::Str);
    slot.s = text.data();
    slot.size = static_cast<uint32_t>(text.size());
    return slot;
  }

  // Most strings have no escapes: they stay views into the file's text.
  DocSlot string() {
    const std::size_t open = at_++;
    const std::size_t start = at_;
    // A run of plain text ends at a quote, a backslash or a control character.
    const char* stop = find_ascii_stop<false, '"', '\\'>(text_.data() + at_, text_.data() + text_.size());
    at_ = static_cast<std::size_t>(stop - text_.data());
    if (at_ >= text_.size()) fail(open, "unterminated string");
    if (static_cast<unsigned char>(text_[at_]) < 0x20) fail(at_, "control character in a string");
    if (text_[at_] == '"') return string_slot(text_.substr(start, at_++ - start));
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
    return string_slot(document_->decoded.emplace_back(std::move(decoded)));
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

  DocSlot number() {
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
      if (error == std::errc() && end == last) {
        DocSlot slot = scalar(DocSlot::Int);
        slot.i = value;
        return slot;
      }
      // Too large for 64 bits: an error if a template reads it, never a rounded float.
      DocSlot slot = string_slot(text_.substr(start, at_ - start));
      slot.type = DocSlot::BigInt;
      return slot;
    }
    // strtod gives ±HUGE_VAL on overflow and 0 on underflow, as Python's float() does.
    DocSlot slot = scalar(DocSlot::Float);
    slot.f = std::strtod(std::string(first, last).c_str(), nullptr);
    return slot;
  }

  static constexpr std::size_t kLinearScanLimit = 16;

  std::shared_ptr<JsonDocument> document_;
  std::vector<DocSlot> pending_;  // entries of the containers being read, innermost last
  std::string_view text_;
  const std::string& file_;
  std::size_t at_ = 0;
};

}  // namespace

jinja::Value parse_json_values(std::string text, const std::string& file) {
  return JsonReader(std::move(text), file).document();
}

}  // namespace gkebuild::render
