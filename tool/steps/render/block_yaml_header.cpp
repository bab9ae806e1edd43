#include "tool/steps/render/block_yaml_header.h"

#include <array>
#include <string>
#include <vector>

#include "base/ascii_scan.h"

namespace gkebuild::render {
namespace {

constexpr std::size_t kNone = std::string_view::npos;
// libyaml refuses simple keys of 1024 characters or more.
constexpr std::size_t kMaxKeyLength = 1000;

// Which mapping a block is, for the three fields the header wants.
enum class Role : unsigned char { Root, Metadata, Other };

struct Block {
  std::size_t indent;
  bool sequence;
  Role role;
};

constexpr bool is_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }
constexpr bool is_key_start(char c) { return is_alnum(c) || c == '_'; }
// A table: every character of every key goes through it.
constexpr auto kKeyChars = [] {
  std::array<bool, 256> table{};
  for (int c = 0; c < 128; ++c)
    table[c] = is_key_start(static_cast<char>(c)) || c == '.' || c == '/' || c == '-';
  return table;
}();
bool is_key_char(char c) { return kKeyChars[static_cast<unsigned char>(c)]; }

// The characters a plain scalar may start with here (no indicator: - ? : , [ ] { } # & * ! | > ' " % @ `).
bool is_plain_start(std::string_view line, std::size_t at) {
  const char c = line[at];
  if (is_alnum(c) || c == '/' || c == '_' || c == '.' || c == '(') return true;
  return c == '-' && at + 1 < line.size() && line[at + 1] != ' ';
}

// Where `line` ends after a value that ended at `end`: only spaces, or spaces and a comment.
bool only_comment_after(std::string_view line, std::size_t end) {
  std::size_t at = end;
  while (at < line.size() && line[at] == ' ') ++at;
  return at == line.size() || (line[at] == '#' && at > end);
}

class Reader {
 public:
  bool line(std::string_view line, std::size_t indent) {
    const bool dash = line[indent] == '-' && (indent + 1 == line.size() || line[indent + 1] == ' ');
    if (blocks_.empty()) {  // the first line with content: the root mapping starts at column 0
      if (indent != 0 || dash) return false;
      blocks_.push_back({0, false, Role::Root});
      header_.is_mapping = true;
      return key_line(line, indent);
    }
    if (pending_) {
      pending_ = false;
      const Block& parent = blocks_.back();
      // Deeper: the value of the key or item before. At the key's own column: its sequence.
      if (indent > parent.indent || (indent == parent.indent && dash && !parent.sequence)) {
        blocks_.push_back({indent, dash, dash ? Role::Other : pending_role_});
        pending_field_ = nullptr;
        return dash ? dash_line(line, indent) : key_line(line, indent);
      }
      if (pending_field_) pending_field_->clear();  // `kind:` alone is an empty scalar
      pending_field_ = nullptr;
    }
    while (blocks_.back().indent > indent) blocks_.pop_back();  // the root is at column 0
    if (blocks_.back().indent != indent) return false;
    if (blocks_.back().sequence && !dash) {  // a sequence at its key's column ends here
      blocks_.pop_back();
      if (blocks_.empty() || blocks_.back().indent != indent || blocks_.back().sequence) return false;
    }
    if (dash) return blocks_.back().sequence && dash_line(line, indent);
    return key_line(line, indent);
  }

  ManifestHeader finish() {
    if (pending_ && pending_field_) pending_field_->clear();
    if (blocks_.empty()) header_.empty = true;
    return header_;
  }

 private:
  void expect_nested(Role role, std::string* field) {
    pending_ = true;
    pending_role_ = role;
    pending_field_ = field;
  }

  bool dash_line(std::string_view line, std::size_t indent) {
    const std::size_t content = line.find_first_not_of(' ', indent + 1);
    if (content == kNone || line[content] == '#') {
      expect_nested(Role::Other, nullptr);
      return true;
    }
    if (looks_like_key(line, content)) {  // `- name: x` starts a mapping at the key's column
      blocks_.push_back({content, false, Role::Other});
      return key_line(line, content);
    }
    return value(line, content, nullptr);
  }

  static bool looks_like_key(std::string_view line, std::size_t at) {
    if (!is_key_start(line[at])) return false;
    while (at < line.size() && is_key_char(line[at])) ++at;
    return at < line.size() && line[at] == ':' && (at + 1 == line.size() || line[at + 1] == ' ');
  }

  bool key_line(std::string_view line, std::size_t at) {
    if (!looks_like_key(line, at)) return false;
    const std::size_t colon = line.find(':', at);
    if (colon - at > kMaxKeyLength) return false;
    const std::string_view key = line.substr(at, colon - at);
    std::string* field = nullptr;
    Role child = Role::Other;
    const Role role = blocks_.back().role;
    if (role == Role::Root && key == "kind") field = &header_.kind;
    if (role == Role::Root && key == "metadata") child = Role::Metadata;
    if (role == Role::Metadata && key == "name") field = &header_.name;
    if (role == Role::Metadata && key == "namespace") field = &header_.namespace_name;
    const std::size_t start = line.find_first_not_of(' ', colon + 1);
    if (start == kNone || line[start] == '#') {
      expect_nested(child, field);
      return true;
    }
    return value(line, start, field);
  }

  // A scalar (or `[]`, `{}`) from `at` to the end of the line; `field` receives a scalar's value.
  bool value(std::string_view line, std::size_t at, std::string* field) {
    std::string text;
    std::size_t end;
    const char c = line[at];
    if (c == '"' || c == '\'') {
      std::string* decoded = field ? &text : nullptr;  // only the header's fields are decoded
      end = c == '"' ? double_quoted(line, at, decoded) : single_quoted(line, at, decoded);
      if (end == kNone) return false;
    } else if ((c == '[' || c == '{') && at + 1 < line.size() && line[at + 1] == (c == '[' ? ']' : '}')) {
      end = at + 2;
      field = nullptr;  // a collection: take_scalar skips it
    } else {
      if (!is_plain_start(line, at)) return false;
      end = plain(line, at);
      if (end == kNone) return false;
      if (field) text = line.substr(at, end - at);
    }
    if (!only_comment_after(line, end)) return false;
    if (field) *field = std::move(text);
    return true;
  }

  // One-line plain scalar: ends before trailing spaces or " #"; ": " inside is libyaml's to judge.
  static std::size_t plain(std::string_view line, std::size_t at) {
    while (at < line.size()) {
      at = static_cast<std::size_t>(find_ascii_stop<false, ' ', ':'>(line.data() + at, line.data() + line.size()) -
                                    line.data());
      if (at == line.size()) break;
      if (line[at] == ' ') {
        const std::size_t next = line.find_first_not_of(' ', at);
        if (next == kNone || line[next] == '#') return at;
        at = next;
        continue;
      }
      if (line[at] == ':' && (at + 1 == line.size() || line[at + 1] == ' ')) return kNone;
      ++at;
    }
    return at;
  }

  // `text` (when not null) receives the decoded value.
  static std::size_t double_quoted(std::string_view line, std::size_t at, std::string* text) {
    static constexpr std::string_view kEscapes = "\"\\/ntr", kDecoded = "\"\\/\n\t\r";
    for (std::size_t i = at + 1; i < line.size(); ++i) {
      if (!text)  // not a header field: only where the string ends matters
        i = static_cast<std::size_t>(find_ascii_stop<false, '"', '\\'>(line.data() + i, line.data() + line.size()) -
                                     line.data());
      if (i == line.size()) break;
      if (line[i] == '"') return i + 1;
      char c = line[i];
      if (c == '\\') {
        // \u, \x, \U and the rarer escapes are left to libyaml.
        const std::size_t escape = ++i < line.size() ? kEscapes.find(line[i]) : kNone;
        if (escape == kNone) return kNone;
        c = kDecoded[escape];
      }
      if (text) *text += c;
    }
    return kNone;  // continues on the next line
  }

  static std::size_t single_quoted(std::string_view line, std::size_t at, std::string* text) {
    for (std::size_t i = at + 1; i < line.size(); ++i) {
      if (line[i] == '\'') {
        if (i + 1 == line.size() || line[i + 1] != '\'') return i + 1;
        ++i;  // '' is one quote
      }
      if (text) *text += line[i];
    }
    return kNone;
  }

  std::vector<Block> blocks_;
  bool pending_ = false;  // the line before ended in `key:` or `-` with no value
  Role pending_role_ = Role::Other;
  std::string* pending_field_ = nullptr;
  ManifestHeader header_;
};

}  // namespace

std::optional<ManifestHeader> read_block_yaml_header(std::string_view text) {
  // Tabs, carriage returns, control characters and UTF-8 (which libyaml validates) are its to judge.
  const char* const end = text.data() + text.size();
  for (const char* at = find_ascii_stop<true>(text.data(), end); at != end; at = find_ascii_stop<true>(at + 1, end))
    if (*at != '\n') return std::nullopt;
  Reader reader;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == kNone) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    const std::size_t indent = line.find_first_not_of(' ');
    if (indent == kNone || line[indent] == '#') continue;  // blank or comment
    if (!reader.line(line, indent)) return std::nullopt;
  }
  return reader.finish();
}

}  // namespace gkebuild::render
