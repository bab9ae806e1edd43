#include "registry/transport/www_authenticate.h"

#include <cctype>

namespace gkebuild::registry {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool is_token_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) ||
         std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}
  bool done() const { return pos_ >= text_.size(); }
  char peek() const { return done() ? '\0' : text_[pos_]; }
  void skip_spaces() {
    while (!done() && (peek() == ' ' || peek() == '\t')) ++pos_;
  }
  void skip_spaces_and_commas() {
    while (!done() && (peek() == ' ' || peek() == '\t' || peek() == ',')) ++pos_;
  }
  std::string token() {
    size_t start = pos_;
    while (!done() && is_token_char(peek())) ++pos_;
    return std::string(text_.substr(start, pos_ - start));
  }
  std::string quoted() {  // after the opening quote
    std::string out;
    ++pos_;
    while (!done() && peek() != '"') {
      if (peek() == '\\' && pos_ + 1 < text_.size()) ++pos_;
      out += text_[pos_++];
    }
    if (!done()) ++pos_;
    return out;
  }
  size_t mark() const { return pos_; }
  void reset(size_t mark) { pos_ = mark; }
  bool eat(char c) {
    if (peek() != c) return false;
    ++pos_;
    return true;
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

// Reads `key=value` pairs until the next challenge's scheme starts.
void read_params(Scanner& in, Challenge& challenge) {
  while (true) {
    in.skip_spaces_and_commas();
    size_t mark = in.mark();
    std::string key = in.token();
    in.skip_spaces();
    if (key.empty() || !in.eat('=')) {
      in.reset(mark);  // a new scheme (or the end)
      return;
    }
    in.skip_spaces();
    std::string value = in.peek() == '"' ? in.quoted() : in.token();
    challenge.params[lower(key)] = value;
  }
}

}  // namespace

std::string Challenge::param(const std::string& key) const {
  auto it = params.find(key);
  return it == params.end() ? std::string() : it->second;
}

std::vector<Challenge> parse_www_authenticate(std::string_view header) {
  std::vector<Challenge> out;
  Scanner in(header);
  while (true) {
    in.skip_spaces_and_commas();
    if (in.done()) break;
    std::string scheme = in.token();
    if (scheme.empty()) break;  // garbage: stop rather than loop
    Challenge challenge{lower(scheme), {}};
    read_params(in, challenge);
    out.push_back(std::move(challenge));
  }
  return out;
}

std::optional<Challenge> find_challenge(const std::vector<std::string>& headers,
                                        std::string_view scheme) {
  for (const auto& value : headers)
    for (auto& challenge : parse_www_authenticate(value))
      if (challenge.scheme == scheme) return challenge;
  return std::nullopt;
}

}  // namespace gkebuild::registry
