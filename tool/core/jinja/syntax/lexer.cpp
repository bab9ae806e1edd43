#include "tool/core/jinja/syntax/lexer.h"

#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdlib>

#include "tool/core/jinja/values/unicode.h"

namespace gkebuild::jinja {

std::string normalize_source(std::string_view source, bool keep_trailing_newline) {
  std::string out;
  out.reserve(source.size());
  for (size_t i = 0; i < source.size(); ++i) {
    char c = source[i];
    if (c == '\r') {
      if (i + 1 < source.size() && source[i + 1] == '\n') ++i;
      out += '\n';
    } else {
      out += c;
    }
  }
  if (!keep_trailing_newline && !out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_name_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || static_cast<unsigned char>(c) >= 0x80;
}

// The end of the identifier starting at `pos` (Python's str.isidentifier() rules, which
// Jinja2 applies), or `pos` when the code point there cannot start one.
size_t identifier_end(std::string_view src, size_t pos) {
  size_t next = pos;
  if (!is_identifier_start(decode_utf8(src, next))) return pos;
  size_t end = next;
  while (end < src.size()) {
    next = end;
    if (!is_identifier_continue(decode_utf8(src, next))) break;
    end = next;
  }
  return end;
}

// Decodes a string literal body like Python's "unicode-escape" codec.
std::string decode_string_literal(std::string_view body, size_t offset) {
  std::string out;
  out.reserve(body.size());
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c != '\\' || i + 1 >= body.size()) {
      out += c;
      continue;
    }
    char e = body[++i];
    auto hex_escape = [&](size_t digits) {
      if (i + digits > body.size() - 1) {
        throw LexError(offset, "truncated \\" + std::string(1, e) + " escape");
      }
      std::string hex(body.substr(i + 1, digits));
      for (char h : hex)
        if (!std::isxdigit(static_cast<unsigned char>(h)))
          throw LexError(offset, "truncated \\" + std::string(1, e) + " escape");
      append_utf8(out, static_cast<char32_t>(std::strtoul(hex.c_str(), nullptr, 16)));
      i += digits;
    };
    switch (e) {
      case '\n': break;
      case '\\': out += '\\'; break;
      case '\'': out += '\''; break;
      case '"': out += '"'; break;
      case 'a': out += '\a'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'v': out += '\v'; break;
      case 'x': hex_escape(2); break;
      case 'u': hex_escape(4); break;
      case 'U': hex_escape(8); break;
      case 'N':
        // Python looks the name up in its Unicode database, which gkebuild does not carry.
        throw LexError(offset, "named escapes (\\N{...}) are not supported; write the code point as \\uXXXX");
      default:
        if (e >= '0' && e <= '7') {
          unsigned value = static_cast<unsigned>(e - '0');
          for (int k = 0; k < 2 && i + 1 < body.size() && body[i + 1] >= '0' && body[i + 1] <= '7'; ++k)
            value = value * 8 + static_cast<unsigned>(body[++i] - '0');
          append_utf8(out, value);
        } else {
          out += '\\';
          out += e;
        }
    }
  }
  return out;
}

class Lexer {
 public:
  Lexer(std::string_view source, const LexerOptions& options) : src_(source), options_(options) {}

  std::vector<Token> run() {
    while (pos_ < src_.size()) lex_root();
    push(TokenType::Eof, src_.size(), {});
    return std::move(tokens_);
  }

 private:
  Token& push(TokenType type, size_t offset, std::string_view text) {
    Token& token = tokens_.emplace_back();
    token.type = type;
    token.offset = offset;
    token.text = text;
    return token;
  }

  // Length of the run of Unicode whitespace starting at p (Python's \s*).
  size_t whitespace_end(size_t p) const {
    while (p < src_.size()) {
      size_t next = p;
      if (!is_space(decode_utf8(src_, next))) break;
      p = next;
    }
    return p;
  }

  bool starts_with(size_t p, std::string_view s) const { return src_.substr(p, s.size()) == s; }

  void set_line_starting(size_t end) { line_starting_ = end > 0 && src_[end - 1] == '\n'; }

  // Jinja's OptionalLStrip: what the text before a tag becomes, given the tag's sign.
  std::string_view strip_text(std::string_view text, char sign, bool is_variable) const {
    if (sign == '-') return rstrip_space(text);
    if (sign == '+' || !options_.lstrip_blocks || is_variable) return text;
    size_t newline = text.rfind('\n');
    size_t l_pos = newline == std::string_view::npos ? 0 : newline + 1;
    if (l_pos == 0 && !line_starting_) return text;
    std::string_view tail = text.substr(l_pos);
    if (tail.empty() || !strip_space(tail).empty()) return text;
    return text.substr(0, l_pos);
  }

  void emit_data(size_t offset, std::string_view text) {
    if (!text.empty()) push(TokenType::Data, offset, text);
  }

  void lex_root() {
    size_t t = pos_;
    char kind = 0;
    while ((t = src_.find('{', t)) != std::string_view::npos) {
      if (t + 1 < src_.size() && (src_[t + 1] == '{' || src_[t + 1] == '%' || src_[t + 1] == '#')) {
        kind = src_[t + 1];
        break;
      }
      ++t;
    }
    if (kind == 0) {
      emit_data(pos_, src_.substr(pos_));
      pos_ = src_.size();
      return;
    }
    if (kind == '%' && lex_raw(t)) return;
    char sign = t + 2 < src_.size() && (src_[t + 2] == '-' || src_[t + 2] == '+') ? src_[t + 2] : 0;
    emit_data(pos_, strip_text(src_.substr(pos_, t - pos_), sign, kind == '{'));
    size_t body = t + 2 + (sign ? 1 : 0);
    line_starting_ = false;
    pos_ = body;
    if (kind == '#') {
      lex_comment(t);
    } else {
      push(kind == '{' ? TokenType::VariableBegin : TokenType::BlockBegin, t, src_.substr(t, body - t));
      lex_tag(kind == '{');
    }
  }

  // `{% raw %}…{% endraw %}`; returns false when the tag at t is not a raw tag.
  bool lex_raw(size_t t) {
    size_t p = t + 2;
    char sign = 0;
    if (p < src_.size() && (src_[p] == '-' || src_[p] == '+')) sign = src_[p++];
    p = whitespace_end(p);
    if (!starts_with(p, "raw")) return false;
    p = whitespace_end(p + 3);
    size_t begin_end;
    if (starts_with(p, "-%}")) begin_end = whitespace_end(p + 3);
    else if (starts_with(p, "%}")) begin_end = p + 2;
    else return false;
    emit_data(pos_, strip_text(src_.substr(pos_, t - pos_), sign, false));
    set_line_starting(begin_end);
    // Find `{%(-|+|)\s*endraw\s*(+%}|-%}\s*|%}\n?)`.
    size_t search = begin_end;
    while (true) {
      size_t q = src_.find("{%", search);
      if (q == std::string_view::npos) throw LexError(t, "Missing end of raw directive");
      size_t r = q + 2;
      char end_sign = 0;
      if (r < src_.size() && (src_[r] == '-' || src_[r] == '+')) end_sign = src_[r++];
      r = whitespace_end(r);
      if (starts_with(r, "endraw")) {
        r = whitespace_end(r + 6);
        size_t end = std::string_view::npos;
        if (starts_with(r, "+%}")) end = r + 3;
        else if (starts_with(r, "-%}")) end = whitespace_end(r + 3);
        else if (starts_with(r, "%}")) end = r + 2 + (options_.trim_blocks && starts_with(r + 2, "\n") ? 1 : 0);
        if (end != std::string_view::npos) {
          emit_data(begin_end, strip_text(src_.substr(begin_end, q - begin_end), end_sign, false));
          pos_ = end;
          set_line_starting(end);
          return true;
        }
      }
      search = q + 1;
    }
  }

  void lex_comment(size_t begin) {
    size_t j = src_.find("#}", pos_);
    if (j == std::string_view::npos) throw LexError(begin, "Missing end of comment tag");
    size_t end = j + 2;
    if (j > pos_ && src_[j - 1] == '-') end = whitespace_end(end);
    else if (j > pos_ && src_[j - 1] == '+') { /* keeps the following whitespace */ }
    else if (options_.trim_blocks && starts_with(end, "\n")) ++end;
    pos_ = end;
    set_line_starting(end);
  }

  // Tokens inside {{ }} or {% %} up to and including the end tag.
  void lex_tag(bool variable) {
    std::vector<char> balance;
    while (pos_ < src_.size()) {
      if (balance.empty() && lex_tag_end(variable)) return;
      char c = src_[pos_];
      size_t ws = whitespace_end(pos_);
      if (ws != pos_) {
        pos_ = ws;
        continue;
      }
      if (lex_number()) continue;
      if (is_name_start(c)) {
        size_t end = identifier_end(src_, pos_);
        if (end == pos_) throw LexError(pos_, "Invalid character in identifier");
        if (end < src_.size() && static_cast<unsigned char>(src_[end]) >= 0x80) {
          size_t after = end;  // a non-ASCII character glued to a name: Jinja2 refuses "a🐍"
          if (!is_space(decode_utf8(src_, after))) throw LexError(end, "Invalid character in identifier");
        }
        push(TokenType::Name, pos_, src_.substr(pos_, end - pos_));
        pos_ = end;
        continue;
      }
      if (c == '\'' || c == '"') {
        if (lex_string(c)) continue;
      }
      lex_operator(balance);
    }
  }

  bool lex_tag_end(bool variable) {
    size_t end = std::string_view::npos;
    if (variable) {
      if (starts_with(pos_, "-}}")) end = whitespace_end(pos_ + 3);
      else if (starts_with(pos_, "}}")) end = pos_ + 2;
    } else {
      if (starts_with(pos_, "+%}")) end = pos_ + 3;
      else if (starts_with(pos_, "-%}")) end = whitespace_end(pos_ + 3);
      else if (starts_with(pos_, "%}")) end = pos_ + 2 + (options_.trim_blocks && starts_with(pos_ + 2, "\n") ? 1 : 0);
    }
    if (end == std::string_view::npos) return false;
    push(variable ? TokenType::VariableEnd : TokenType::BlockEnd, pos_, src_.substr(pos_, end - pos_));
    pos_ = end;
    set_line_starting(end);
    return true;
  }

  // End of `(\d+_)*\d+` at p, or npos.
  size_t digits_end(size_t p) const {
    if (p >= src_.size() || !is_digit(src_[p])) return std::string_view::npos;
    while (true) {
      while (p < src_.size() && is_digit(src_[p])) ++p;
      if (p + 1 < src_.size() && src_[p] == '_' && is_digit(src_[p + 1])) {
        ++p;
        continue;
      }
      return p;
    }
  }

  size_t exponent_end(size_t p) const {
    if (p >= src_.size() || (src_[p] != 'e' && src_[p] != 'E')) return std::string_view::npos;
    ++p;
    if (p < src_.size() && (src_[p] == '+' || src_[p] == '-')) ++p;
    return digits_end(p);
  }

  size_t float_end(size_t p) const {
    if (p > 0 && src_[p - 1] == '.') return std::string_view::npos;
    size_t int_end = digits_end(p);
    if (int_end == std::string_view::npos) return int_end;
    bool has_fraction = int_end < src_.size() && src_[int_end] == '.';
    size_t fraction_end = has_fraction ? digits_end(int_end + 1) : std::string_view::npos;
    if (fraction_end != std::string_view::npos) {
      size_t e = exponent_end(fraction_end);
      if (e != std::string_view::npos) return e;
    }
    size_t e = exponent_end(int_end);
    if (e != std::string_view::npos) return e;
    return fraction_end;
  }

  size_t integer_end(size_t p, int& base) const {
    auto run = [&](size_t q, auto valid) {
      size_t end = std::string_view::npos;
      while (true) {
        size_t r = q;
        if (r < src_.size() && src_[r] == '_') ++r;
        if (r < src_.size() && valid(src_[r])) {
          q = end = r + 1;
        } else {
          return end;
        }
      }
    };
    if (src_[p] == '0' && p + 1 < src_.size()) {
      char x = static_cast<char>(std::tolower(static_cast<unsigned char>(src_[p + 1])));
      size_t end = std::string_view::npos;
      if (x == 'b') end = run(p + 2, [](char c) { return c == '0' || c == '1'; }), base = 2;
      else if (x == 'o') end = run(p + 2, [](char c) { return c >= '0' && c <= '7'; }), base = 8;
      else if (x == 'x') end = run(p + 2, [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }), base = 16;
      if (end != std::string_view::npos) return end;
    }
    base = 10;
    if (src_[p] >= '1' && src_[p] <= '9') {
      size_t end = run(p + 1, is_digit);
      return end == std::string_view::npos ? p + 1 : end;
    }
    if (src_[p] == '0') {
      size_t end = run(p + 1, [](char c) { return c == '0'; });
      return end == std::string_view::npos ? p + 1 : end;
    }
    return std::string_view::npos;
  }

  bool lex_number() {
    if (!is_digit(src_[pos_])) return false;
    size_t end = float_end(pos_);
    if (end != std::string_view::npos) {
      std::string text;
      for (char c : src_.substr(pos_, end - pos_))
        if (c != '_') text += c;
      Token& token = push(TokenType::Float, pos_, src_.substr(pos_, end - pos_));
      token.float_value = std::strtod(text.c_str(), nullptr);
      pos_ = end;
      return true;
    }
    int base = 10;
    end = integer_end(pos_, base);
    std::string digits;
    for (char c : src_.substr(pos_ + (base == 10 ? 0 : 2), end - pos_ - (base == 10 ? 0 : 2)))
      if (c != '_') digits += c;
    errno = 0;
    unsigned long long value = std::strtoull(digits.c_str(), nullptr, base);
    if (errno == ERANGE || value > static_cast<unsigned long long>(INT64_MAX))
      throw LexError(pos_, "integer literal out of range: gkebuild integers are 64-bit");
    Token& token = push(TokenType::Integer, pos_, src_.substr(pos_, end - pos_));
    token.int_value = static_cast<int64_t>(value);
    pos_ = end;
    return true;
  }

  bool lex_string(char quote) {
    size_t p = pos_ + 1;
    while (p < src_.size() && src_[p] != quote) p += src_[p] == '\\' ? 2 : 1;
    if (p >= src_.size()) return false;
    Token& token = push(TokenType::String, pos_, src_.substr(pos_, p + 1 - pos_));
    token.value = decode_string_literal(src_.substr(pos_ + 1, p - pos_ - 1), pos_);
    pos_ = p + 1;
    return true;
  }

  void lex_operator(std::vector<char>& balance) {
    static constexpr std::pair<std::string_view, TokenType> kOperators[] = {
        {"**", TokenType::Pow}, {"//", TokenType::FloorDiv}, {"==", TokenType::Eq}, {"!=", TokenType::Ne},
        {">=", TokenType::GtEq}, {"<=", TokenType::LtEq}, {"+", TokenType::Add}, {"-", TokenType::Sub},
        {"/", TokenType::Div}, {"*", TokenType::Mul}, {"%", TokenType::Mod}, {"~", TokenType::Tilde},
        {"[", TokenType::LBracket}, {"]", TokenType::RBracket}, {"(", TokenType::LParen},
        {")", TokenType::RParen}, {"{", TokenType::LBrace}, {"}", TokenType::RBrace}, {">", TokenType::Gt},
        {"<", TokenType::Lt}, {"=", TokenType::Assign}, {".", TokenType::Dot}, {":", TokenType::Colon},
        {"|", TokenType::Pipe}, {",", TokenType::Comma}, {";", TokenType::Semicolon},
    };
    for (const auto& [text, type] : kOperators) {
      if (!starts_with(pos_, text)) continue;
      char c = text[0];
      if (text.size() == 1 && (c == '(' || c == '[' || c == '{')) {
        balance.push_back(c == '(' ? ')' : c == '[' ? ']' : '}');
      } else if (text.size() == 1 && (c == ')' || c == ']' || c == '}')) {
        if (balance.empty()) throw LexError(pos_, "unexpected '" + std::string(text) + "'");
        char expected = balance.back();
        balance.pop_back();
        if (expected != c)
          throw LexError(pos_, "unexpected '" + std::string(text) + "', expected '" + std::string(1, expected) + "'");
      }
      push(type, pos_, src_.substr(pos_, text.size()));
      pos_ += text.size();
      return;
    }
    size_t next = pos_;
    decode_utf8(src_, next);
    std::string shown;
    append_str_char(shown, src_.substr(pos_, next - pos_));
    throw LexError(pos_, "unexpected char " + shown + " at " + std::to_string(pos_));
  }

  static void append_str_char(std::string& out, std::string_view c) {
    char quote = c == "'" ? '"' : '\'';
    out += quote;
    if (c == "\\") out += "\\\\";
    else out += c;
    out += quote;
  }

  std::string_view src_;
  const LexerOptions& options_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
  bool line_starting_ = true;
};

}  // namespace

std::vector<Token> tokenize(std::string_view source, const LexerOptions& options) {
  return Lexer(source, options).run();
}

std::string describe(TokenType type) {
  switch (type) {
    case TokenType::Data: return "template data";
    case TokenType::VariableBegin: return "begin of print statement";
    case TokenType::VariableEnd: return "end of print statement";
    case TokenType::BlockBegin: return "begin of statement block";
    case TokenType::BlockEnd: return "end of statement block";
    case TokenType::Name: return "name";
    case TokenType::String: return "string";
    case TokenType::Integer: return "integer";
    case TokenType::Float: return "float";
    case TokenType::Eof: return "end of template";
    case TokenType::Add: return "+";
    case TokenType::Sub: return "-";
    case TokenType::Div: return "/";
    case TokenType::FloorDiv: return "//";
    case TokenType::Mul: return "*";
    case TokenType::Mod: return "%";
    case TokenType::Pow: return "**";
    case TokenType::Tilde: return "~";
    case TokenType::LBracket: return "[";
    case TokenType::RBracket: return "]";
    case TokenType::LParen: return "(";
    case TokenType::RParen: return ")";
    case TokenType::LBrace: return "{";
    case TokenType::RBrace: return "}";
    case TokenType::Eq: return "==";
    case TokenType::Ne: return "!=";
    case TokenType::Gt: return ">";
    case TokenType::GtEq: return ">=";
    case TokenType::Lt: return "<";
    case TokenType::LtEq: return "<=";
    case TokenType::Assign: return "=";
    case TokenType::Dot: return ".";
    case TokenType::Colon: return ":";
    case TokenType::Pipe: return "|";
    case TokenType::Comma: return ",";
    case TokenType::Semicolon: return ";";
  }
  return "token";
}

std::string describe(const Token& token) {
  if (token.type == TokenType::Name) return std::string(token.text);
  return describe(token.type);
}

}  // namespace gkebuild::jinja
