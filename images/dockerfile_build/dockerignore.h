// .dockerignore with BuildKit's semantics (moby/patternmatcher): one pattern a line,
// '#' comments, `*` and `?` within a path component, `**` across components, a
// leading '!' re-includes; the last pattern that matches a path (or one of its
// parent folders) decides. The builder applies it before it reads anything from
// the context, so an excluded file is never opened.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <regex>
#include <string>
#include <vector>

namespace gkebuild::build {

class Dockerignore {
 public:
  Dockerignore() = default;  // excludes nothing
  // The patterns of CONTEXT/.dockerignore (none when there is no such file), then
  // `always` (.dockerignore syntax), which the file cannot re-include: they come last.
  static Dockerignore load(const std::filesystem::path& context, const std::string& always = "");
  static Dockerignore parse(const std::string& text);
  // Lines of `text` are numbered from `first_line`; 0 numbers none (gkebuild's own patterns).
  static Dockerignore parse(const std::string& text, std::size_t first_line);

  // The pattern that excludes a path, for messages: as written, and its line in .dockerignore
  // (0 for one gkebuild adds itself, `always`).
  struct Exclusion {
    std::string pattern;
    std::size_t line = 0;
  };

  // `path` is relative to the context ("a/b.txt").
  bool excluded(const std::string& path) const { return exclusion(path).has_value(); }
  // The last pattern that matches `path` when it excludes it; nullopt when the path is kept.
  std::optional<Exclusion> exclusion(const std::string& path) const;
  // A folder that is excluded may still hold re-included files when there is a '!' pattern.
  bool has_negations() const { return negations_; }
  bool empty() const { return patterns_.empty(); }

 private:
  struct Pattern {
    std::regex regex;
    size_t components;  // how many path components the pattern has
    bool negated;
    Exclusion written;
  };
  std::vector<Pattern> patterns_;
  bool negations_ = false;
};

}  // namespace gkebuild::build
