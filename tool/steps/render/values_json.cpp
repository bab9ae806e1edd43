#include "tool/steps/render/values_json.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <unordered_set>
#include <vector>

#include "base/ascii_scan.h"
#include "base/source_error.h"
#include "tool/core/jinja/values/unicode.h"
#include "tool/steps/render/values_builder.h"

namespace gkebuild::render {
namespace {

using jinja::DocSlot;

// What the values of one JSON file borrow: its text, the strings that had escapes, and the
// slots, in blocks that never move.
struct JsonDocument : jinja::Object {
  explicit JsonDocument(yamlfile::FileText file_text) : text(std::move(file_text)) {}
  yamlfile::FileText text;
  std::deque<std::string> decoded;
  std::vector<std::unique_ptr<DocSlot[]>> blocks;
  std::size_t block_size = 0;
  std::size_t block_used = 0;
  std::size_t next_block = 0;  // slots in the next block
  // Blocks grow to 256 KiB: the unused end of the last one is at most that, and the memory
  // allocated after the document (the output) follows close behind it, in pages already
  // touched. (A block sized from the file's length left megabytes unused between them.)
  static constexpr std::size_t kMaxBlock = (std::size_t{256} << 10) / sizeof(DocSlot);
  DocSlot root{};

  // Room for `count` slots, not initialised.
  DocSlot* allocate(std::size_t count) {
    if (count == 0) return nullptr;
    if (count > block_size - block_used) {
      block_size = std::max(count, next_block);
      blocks.emplace_back(new DocSlot[block_size]);
      block_used = 0;
      next_block = std::min(2 * block_size, kMaxBlock);
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

// Reads the text in one loop with an explicit stack of the containers being read, so that
// the read position stays in a register: stores into the slots could otherwise alias it.
// The text ends in a NUL (see FileText), which stops every scan.
class JsonReader {
 public:
  JsonReader(yamlfile::FileText text, const std::string& file)
      : document_(std::make_shared<JsonDocument>(std::move(text))), text_(document_->text.view()), file_(file) {
    // About one slot for every ten bytes of a typical file.
    document_->next_block = std::min(text_.size() / 8 + 64, JsonDocument::kMaxBlock);
  }

  jinja::Value document() {
    const char* p = text_.data();
    if (text_.starts_with("\xEF\xBB\xBF")) p += 3;  // a byte order mark, as some editors write
    p = skip_space(p);
    if (p == end()) return jinja::Value::none();
    const char* root_at = p;
    document_->root = read(p);
    // An integer beyond 64 bits inside a container is an error when a template reads it; as the
    // whole document it would be read now, so it is refused here, with its position.
    if (document_->root.type == DocSlot::BigInt)
      fail_at(root_at,
              "integer " + std::string(root_at, document_->root.size) + " does not fit in a signed 64-bit integer");
    p = skip_space(p);
    if (p != end()) fail(p, "unexpected text after the JSON document");
    return jinja::Value::doc_root(document_->root, document_);
  }

 private:
  // A list or mapping whose entries are still being read; they wait on pending_ from `start`.
  struct Open {
    // Built in place: a temporary copied in stalled on a partly forwarded store.
    Open(std::size_t start, bool mapping) : start(start), mapping(mapping) {}
    std::size_t start;
    bool mapping;
    std::unique_ptr<std::unordered_set<std::string_view>> keys;  // a wide mapping's index
    // The keys of an earlier mapping that this one's keys have matched so far, or null.
    // Keys that match them need no check for duplicates, and a mapping that matches all of
    // them shares them.
    const DocSlot* shape = nullptr;
    uint32_t shape_size = 0;
  };

  // The keys of the latest finished mapping with a given first key (by a hash of it).
  struct Shape {
    const DocSlot* keys = nullptr;
    uint32_t size = 0;
  };

  const char* end() const { return text_.data() + text_.size(); }

  [[noreturn]] void fail(const char* at, const std::string& message) const {
    fail_at(at, "invalid JSON: " + message);
  }
  [[noreturn]] void fail_at(const char* at, const std::string& message) const {
    const std::size_t offset = static_cast<std::size_t>(at - text_.data());
    int line = 1;
    std::size_t line_start = 0;
    for (std::size_t i = 0; i < offset && i < text_.size(); ++i)
      if (text_[i] == '\n') {
        ++line;
        line_start = i + 1;
      }
    throw SourceError({file_, line, static_cast<int>(offset - line_start) + 1}, message, text_);
  }

  static const char* skip_space(const char* p) {
    while (*p <= ' ' && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')) ++p;
    return p;
  }

  // The value at `p` (no space before it), and `p` moved past it.
  DocSlot read(const char*& position) {
    const char* p = position;
    std::vector<Open> open;
    DocSlot done;
    while (true) {
      // Read a value, or open a container and go on to its first entry.
      if (open.size() >= kMaxValuesDepth)
        fail(p, "nested more than " + std::to_string(kMaxValuesDepth) + " levels deep");
      switch (*p) {
        case '{':
          p = skip_space(p + 1);
          if (*p == '}') {
            ++p;
            done = scalar(DocSlot::Dict);  // empty
            break;
          }
          open.emplace_back(pending_.size(), true);
          p = read_key(p, open.back());
          continue;
        case '[':
          p = skip_space(p + 1);
          if (*p == ']') {
            ++p;
            done = finish_list(pending_.size());
            break;
          }
          open.emplace_back(pending_.size(), false);
          continue;
        case '"': done = string(p); break;
        case 't': done = word(p, "true", DocSlot::True); break;
        case 'f': done = word(p, "false", DocSlot::False); break;
        case 'n': done = word(p, "null", DocSlot::Null); break;
        default:
          if (p == end()) fail(p, "unexpected end of the document");
          if (*p != '-' && !is_digit(*p)) fail(p, "expected a value");
          done = number(p);
      }
      // A value is done: it joins its container, which may be done in turn.
      while (true) {
        if (open.empty()) {
          position = p;
          return done;
        }
        pending_.push_back(done);
        p = skip_space(p);
        Open& inner = open.back();
        if (*p == ',') {
          p = skip_space(p + 1);
          if (inner.mapping) p = read_key(p, inner);
          break;
        }
        if (*p != (inner.mapping ? '}' : ']')) fail(p, inner.mapping ? "expected ',' or '}'" : "expected ',' or ']'");
        ++p;
        done = inner.mapping ? finish_mapping(inner) : finish_list(inner.start);
        open.pop_back();
      }
    }
  }

  // A mapping's key at `p` and the ':' after it; returns where its value starts.
  [[gnu::always_inline]] const char* read_key(const char* p, Open& mapping) {
    if (*p != '"') fail(p, "expected a string key");
    const auto index = static_cast<uint32_t>((pending_.size() - mapping.start) / 2);
    // The key the earlier mapping of the same shape had here, written out as it was: taken
    // without a scan, and, like the keys before it, known not to repeat one.
    if (mapping.shape && index < mapping.shape_size && verbatim(p, mapping.shape[index])) {
      pending_.push_back(mapping.shape[index]);
      p = skip_space(p + mapping.shape[index].size + 2);
      if (*p != ':') fail(p, "expected ':' after a key");
      return skip_space(p + 1);
    }
    const char* key_at = p;
    const DocSlot key = string(p);
    if (index == 0) {
      const Shape& earlier = shapes_[shape_bucket(key)];
      mapping.shape = earlier.keys;
      mapping.shape_size = earlier.size;
    }
    if (!(mapping.shape && index < mapping.shape_size && same_key(mapping.shape[index], key))) {
      mapping.shape = nullptr;
      if (has_key(mapping, {key.s, key.size}))
        fail_at(key_at, "duplicate key '" + std::string(key.s, key.size) + "'");
    }
    pending_.push_back(key);
    p = skip_space(p);
    if (*p != ':') fail(p, "expected ':' after a key");
    return skip_space(p + 1);
  }

  // The items from `start` on leave the scratch stack for the document.
  DocSlot finish_list(std::size_t start) {
    DocSlot list = scalar(DocSlot::List);
    list.size = static_cast<uint32_t>(pending_.size() - start);
    DocSlot* slots = document_->allocate(list.size);
    std::copy(pending_.begin() + static_cast<std::ptrdiff_t>(start), pending_.end(), slots);
    list.items = slots;
    pending_.resize(start);
    return list;
  }

  // The mapping's keys and values leave the scratch stack: its values after a Keys slot, its
  // keys in an array of their own unless an earlier mapping has the same ones.
  DocSlot finish_mapping(const Open& open) {
    DocSlot mapping = scalar(DocSlot::Dict);
    mapping.size = static_cast<uint32_t>((pending_.size() - open.start) / 2);
    const DocSlot* entries = pending_.data() + open.start;
    const DocSlot* keys = open.shape;
    if (!keys || open.shape_size != mapping.size) {
      DocSlot* own = document_->allocate(mapping.size);
      for (uint32_t i = 0; i < mapping.size; ++i) own[i] = entries[2 * i];
      shapes_[shape_bucket(own[0])] = {own, mapping.size};
      keys = own;
    }
    DocSlot* slots = document_->allocate(mapping.size + 1);
    slots[0] = scalar(DocSlot::Keys);
    slots[0].size = mapping.size;
    slots[0].items = keys;
    for (uint32_t i = 0; i < mapping.size; ++i) slots[1 + i] = entries[2 * i + 1];
    mapping.items = slots;
    pending_.resize(open.start);
    return mapping;
  }

  static std::size_t shape_bucket(const DocSlot& first_key) {
    const std::size_t size = first_key.size;
    const std::size_t ends = size ? static_cast<unsigned char>(first_key.s[0]) * 7u +
                                        static_cast<unsigned char>(first_key.s[size - 1])
                                  : 0;
    return (size * 31 + ends) % kShapes;
  }

  // Whether the text at `quote` is the string `key` written as it was the first time. A key
  // that is a view into the text had no escapes (decoded ones live elsewhere).
  bool verbatim(const char* quote, const DocSlot& key) const {
    const bool from_text = key.s >= text_.data() && key.s < end();
    return from_text && static_cast<std::size_t>(end() - quote) >= key.size + std::size_t{2} &&
           jinja::same_text(quote + 1, {key.s, key.size}) && quote[1 + key.size] == '"';
  }

  static bool same_key(const DocSlot& a, const DocSlot& b) {
    return a.size == b.size && jinja::same_text(a.s, {b.s, b.size});
  }

  // Whether the mapping being read already has `key`. A wide mapping gets an index, so that
  // it stays linear overall.
  bool has_key(Open& mapping, std::string_view key) {
    const std::size_t start = mapping.start;
    const std::size_t keys = (pending_.size() - start) / 2;
    if (keys > kLinearScanLimit) {
      if (!mapping.keys) {
        mapping.keys = std::make_unique<std::unordered_set<std::string_view>>();
        for (std::size_t i = start; i < pending_.size(); i += 2) mapping.keys->emplace(pending_[i].s, pending_[i].size);
      }
      return !mapping.keys->emplace(key).second;
    }
    for (std::size_t i = start; i < pending_.size(); i += 2) {
      const DocSlot& known = pending_[i];
      if (known.size == key.size() && (key.empty() || known.s[0] == key[0]) &&
          std::memcmp(known.s, key.data(), key.size()) == 0)
        return true;
    }
    return false;
  }

  DocSlot word(const char*& p, std::string_view text, DocSlot::Type type) {
    if (std::string_view(p, std::min<std::size_t>(text.size(), static_cast<std::size_t>(end() - p))) != text)
      fail(p, "expected a value");
    p += text.size();
    return scalar(type);
  }

  static DocSlot string_slot(const char* text, std::size_t size) {
    DocSlot slot = scalar(DocSlot::Str);
    slot.s = text;
    slot.size = static_cast<uint32_t>(size);
    return slot;
  }

  // Most strings have no escapes: they stay views into the file's text.
  DocSlot string(const char*& p) {
    const char* start = p + 1;
    // A run of plain text ends at a quote, a backslash or a control character.
    const char* stop = find_ascii_stop<false, '"', '\\'>(start, end());
    if (*stop != '"') return decoded_string(p, stop);
    p = stop + 1;
    return string_slot(start, static_cast<std::size_t>(stop - start));
  }

  // The rest of the string that opens at `open`, from the first byte at `p` that is not plain
  // text; kept decoded in the document. Out of line: the plain path stays small.
  [[gnu::noinline]] DocSlot decoded_string(const char*& position, const char* p) {
    const char* open = position;
    std::string decoded(open + 1, p);
    while (true) {
      if (p == end()) fail(open, "unterminated string");
      if (*p == '"') break;
      if (static_cast<unsigned char>(*p) < 0x20) fail(p, "control character in a string");
      if (*p == '\\') {
        p = escape(p, decoded);
        continue;
      }
      const char* run = find_ascii_stop<false, '"', '\\'>(p, end());
      decoded.append(p, run);
      p = run;
    }
    position = p + 1;
    const std::string& kept = document_->decoded.emplace_back(std::move(decoded));
    return string_slot(kept.data(), kept.size());
  }

  // The escape at `backslash` appended to `out`; returns what follows it.
  const char* escape(const char* backslash, std::string& out) {
    const char* p = backslash + 1;
    switch (*p++) {
      case '"': out += '"'; return p;
      case '\\': out += '\\'; return p;
      case '/': out += '/'; return p;
      case 'b': out += '\b'; return p;
      case 'f': out += '\f'; return p;
      case 'n': out += '\n'; return p;
      case 'r': out += '\r'; return p;
      case 't': out += '\t'; return p;
      case 'u': break;
      default:
        if (p - 1 == end()) fail(backslash, "unterminated string");
        fail(backslash, "invalid escape");
    }
    char32_t code = hex4(p, backslash);
    if (code >= 0xD800 && code <= 0xDBFF) {
      if (p[0] != '\\' || p[1] != 'u') fail(backslash, "unpaired surrogate");
      p += 2;
      const char32_t low = hex4(p, backslash);
      if (low < 0xDC00 || low > 0xDFFF) fail(backslash, "unpaired surrogate");
      code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
    } else if (code >= 0xDC00 && code <= 0xDFFF) {
      fail(backslash, "unpaired surrogate");
    }
    jinja::append_utf8(out, code);
    return p;
  }

  char32_t hex4(const char*& p, const char* escape_at) {
    unsigned value = 0;
    if (end() - p < 4) fail(escape_at, "invalid \\u escape");
    auto [last, error] = std::from_chars(p, p + 4, value, 16);
    if (error != std::errc() || last != p + 4) fail(escape_at, "invalid \\u escape");
    p += 4;
    return value;
  }

  static bool is_digit(char c) { return c >= '0' && c <= '9'; }

  DocSlot number(const char*& p) {
    const char* start = p;
    if (*p == '-') ++p;
    const char* digits = p;
    while (is_digit(*p)) ++p;
    if (p == digits || (*digits == '0' && p - digits > 1)) fail(start, "invalid number");
    bool integral = true;
    if (*p == '.') {
      integral = false;
      const char* fraction = ++p;
      while (is_digit(*p)) ++p;
      if (p == fraction) fail(start, "invalid number");
    }
    if (*p == 'e' || *p == 'E') {
      integral = false;
      ++p;
      if (*p == '+' || *p == '-') ++p;
      const char* exponent = p;
      while (is_digit(*p)) ++p;
      if (p == exponent) fail(start, "invalid number");
    }
    if (integral) {
      int64_t value = 0;
      auto [last, error] = std::from_chars(start, p, value);
      if (error == std::errc() && last == p) {
        DocSlot slot = scalar(DocSlot::Int);
        slot.i = value;
        return slot;
      }
      // Too large for 64 bits: an error if a template reads it, never a rounded float.
      DocSlot slot = string_slot(start, static_cast<std::size_t>(p - start));
      slot.type = DocSlot::BigInt;
      return slot;
    }
    // strtod gives ±HUGE_VAL on overflow and 0 on underflow, as Python's float() does.
    DocSlot slot = scalar(DocSlot::Float);
    slot.f = std::strtod(std::string(start, p).c_str(), nullptr);
    return slot;
  }

  static constexpr std::size_t kLinearScanLimit = 16;
  static constexpr std::size_t kShapes = 64;

  std::shared_ptr<JsonDocument> document_;
  std::vector<DocSlot> pending_;  // entries of the containers being read, innermost last
  std::array<Shape, kShapes> shapes_{};
  std::string_view text_;
  const std::string& file_;
};

}  // namespace

jinja::Value parse_json_values(yamlfile::FileText text, const std::string& file) {
  return JsonReader(std::move(text), file).document();
}

}  // namespace gkebuild::render
