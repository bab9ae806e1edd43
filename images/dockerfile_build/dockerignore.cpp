#include "images/dockerfile_build/dockerignore.h"

#include <algorithm>

#include "base/atomic_file.h"

namespace gkebuild::build {
namespace fs = std::filesystem;
namespace {

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\r");
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(" \t\r") - a + 1);
}

// As patternmatcher's compile: "**" spans any number of folders (a trailing "**" anything),
// "*" and "?" stay inside one component, '\' escapes the next character.
std::string to_regex(const std::string& pattern) {
  std::string out = "^";
  for (size_t i = 0; i < pattern.size(); ++i) {
    char c = pattern[i];
    if (c == '*' && i + 1 < pattern.size() && pattern[i + 1] == '*') {
      ++i;
      if (i + 1 < pattern.size() && pattern[i + 1] == '/') ++i;
      out += i + 1 >= pattern.size() ? ".*" : "(.*/)?";
    } else if (c == '*') {
      out += "[^/]*";
    } else if (c == '?') {
      out += "[^/]";
    } else if (c == '\\' && i + 1 < pattern.size()) {
      out += '\\';
      out += pattern[++i];
    } else if (c == '[' || c == ']' || c == '-' || c == '^') {
      out += c;  // character classes pass through, as in Go's filepath.Match
    } else if (std::string_view(".+()|{}$").find(c) != std::string_view::npos) {
      out += '\\';
      out += c;
    } else {
      out += c;
    }
  }
  return out + "$";
}

}  // namespace

Dockerignore Dockerignore::load(const fs::path& context, const std::string& always) {
  std::error_code error;
  Dockerignore out;
  // One that is there but no regular file (a FIFO, a folder) is refused by read_file, not skipped.
  if (fs::exists(context / ".dockerignore", error)) out = parse(read_file(context / ".dockerignore"), 1);
  Dockerignore own = parse(always, 0);
  out.patterns_.insert(out.patterns_.end(), own.patterns_.begin(), own.patterns_.end());
  out.negations_ = out.negations_ || own.negations_;
  return out;
}

Dockerignore Dockerignore::parse(const std::string& text) { return parse(text, 1); }

Dockerignore Dockerignore::parse(const std::string& text, std::size_t first_line) {
  Dockerignore out;
  size_t start = 0;
  for (size_t number = first_line; start < text.size(); number += first_line == 0 ? 0 : 1) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    start = end + 1;
    if (line.starts_with('#')) continue;
    line = trim(line);
    if (line.empty()) continue;
    const std::string written = line;
    bool negated = line.starts_with('!');
    if (negated) line = trim(line.substr(1));
    std::string pattern = fs::path(line).lexically_normal().string();
    while (pattern.size() > 1 && pattern.ends_with('/')) pattern.pop_back();
    if (pattern.size() > 1 && pattern.starts_with('/')) pattern.erase(0, 1);
    size_t components = 1 + std::count(pattern.begin(), pattern.end(), '/');
    out.patterns_.push_back({std::regex(to_regex(pattern)), components, negated, {written, number}});
    out.negations_ = out.negations_ || negated;
  }
  return out;
}

std::optional<Dockerignore::Exclusion> Dockerignore::exclusion(const std::string& path) const {
  if (patterns_.empty() || path.empty() || path == ".") return std::nullopt;
  std::vector<std::string> parts;
  for (const auto& p : fs::path(path)) parts.push_back(p.string());
  const Pattern* last = nullptr;
  for (const auto& pattern : patterns_) {
    bool match = std::regex_match(path, pattern.regex);
    if (!match && parts.size() > 1 && pattern.components < parts.size()) {
      // A pattern naming a folder excludes everything inside it.
      std::string prefix;
      for (size_t i = 0; i < pattern.components; ++i) prefix += (i ? "/" : "") + parts[i];
      match = std::regex_match(prefix, pattern.regex);
    }
    if (match) last = &pattern;
  }
  if (!last || last->negated) return std::nullopt;
  return last->written;
}

}  // namespace gkebuild::build
