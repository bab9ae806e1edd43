#include "images/dockerfile/words.h"

#include <cctype>
#include <stdexcept>

#include "base/error.h"

namespace gkebuild::dockerfile {
namespace {

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

class WordLexer {
 public:
  WordLexer(std::string_view text, const Lookup& lookup, char escape, bool split)
      : text_(text), lookup_(lookup), escape_(escape), split_(split) {}

  std::vector<std::string> run() {
    std::vector<std::string> words;
    std::string current;
    bool in_word = false;
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (split_ && std::isspace(static_cast<unsigned char>(c))) {
        if (in_word) words.push_back(std::move(current));
        current.clear();
        in_word = false;
        ++pos_;
        continue;
      }
      in_word = true;
      if (c == '\'') {
        single_quoted(current);
      } else if (c == '"') {
        double_quoted(current);
      } else if (c == escape_) {
        ++pos_;
        if (pos_ < text_.size()) current += text_[pos_++];
      } else if (c == '$') {
        current += variable();
      } else {
        current += c;
        ++pos_;
      }
    }
    if (in_word) words.push_back(std::move(current));
    return words;
  }

 private:
  void single_quoted(std::string& out) {
    size_t close = text_.find('\'', pos_ + 1);
    if (close == std::string_view::npos) throw InputError("unterminated single quote");
    out += text_.substr(pos_ + 1, close - pos_ - 1);
    pos_ = close + 1;
  }

  void double_quoted(std::string& out) {
    ++pos_;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      char c = text_[pos_];
      if (c == escape_ && pos_ + 1 < text_.size() &&
          (text_[pos_ + 1] == '"' || text_[pos_ + 1] == '$' || text_[pos_ + 1] == escape_)) {
        out += text_[pos_ + 1];
        pos_ += 2;
      } else if (c == '$') {
        out += variable();
      } else {
        out += c;
        ++pos_;
      }
    }
    if (pos_ >= text_.size()) throw InputError("unterminated double quote");
    ++pos_;
  }

  std::string value_of(std::string_view name) const {
    auto v = lookup_(name);
    return v ? *v : std::string();
  }

  // At '$': $NAME, ${NAME}, ${NAME:-word}, ${NAME:+word}, ${NAME-word}, ${NAME+word}.
  std::string variable() {
    ++pos_;
    if (pos_ >= text_.size()) return "$";
    if (text_[pos_] != '{') {
      size_t start = pos_;
      while (pos_ < text_.size() && is_name_char(text_[pos_])) ++pos_;
      if (pos_ == start) return "$";
      return value_of(text_.substr(start, pos_ - start));
    }
    size_t close = text_.find('}', pos_);
    if (close == std::string_view::npos) throw InputError("unterminated ${");
    std::string_view body = text_.substr(pos_ + 1, close - pos_ - 1);
    pos_ = close + 1;
    size_t n = 0;
    while (n < body.size() && is_name_char(body[n])) ++n;
    std::string_view name = body.substr(0, n);
    if (name.empty()) throw InputError("bad substitution ${" + std::string(body) + "}");
    std::string_view op = body.substr(n);
    auto value = lookup_(name);
    if (op.empty()) return value ? *value : "";
    bool colon = op.starts_with(':');
    if (colon) op.remove_prefix(1);
    if (op.empty() || (op[0] != '-' && op[0] != '+')) {
      throw InputError("unsupported substitution ${" + std::string(body) + "}");
    }
    std::string word = expand_word(op.substr(1), lookup_, escape_);
    bool set = value && (!colon || !value->empty());
    if (op[0] == '-') return set ? *value : word;
    return set ? word : "";
  }

  std::string_view text_;
  const Lookup& lookup_;
  char escape_;
  bool split_;
  size_t pos_ = 0;
};

}  // namespace

std::vector<std::string> split_words(std::string_view text, const Lookup& lookup, char escape) {
  return WordLexer(text, lookup, escape, true).run();
}

std::string expand_word(std::string_view text, const Lookup& lookup, char escape) {
  auto words = WordLexer(text, lookup, escape, false).run();
  return words.empty() ? std::string() : words.front();
}

}  // namespace gkebuild::dockerfile
