#include <algorithm>
#include <cctype>
#include <map>

#include <nlohmann/json.hpp>

#include "base/printable.h"
#include "dockerfile/dockerfile.h"
#include "dockerfile/dockerfile_error.h"

namespace gkebuild::dockerfile {
namespace {

const std::map<std::string, Keyword>& supported() {
  static const std::map<std::string, Keyword> table{
      {"FROM", Keyword::kFrom},       {"ARG", Keyword::kArg},
      {"ENV", Keyword::kEnv},         {"LABEL", Keyword::kLabel},
      {"WORKDIR", Keyword::kWorkdir}, {"USER", Keyword::kUser},
      {"COPY", Keyword::kCopy},       {"ENTRYPOINT", Keyword::kEntrypoint},
      {"CMD", Keyword::kCmd},         {"EXPOSE", Keyword::kExpose},
      {"VOLUME", Keyword::kVolume},   {"STOPSIGNAL", Keyword::kStopSignal}};
  return table;
}

// Why an instruction Docker knows is not built here, and what builds it.
const std::map<std::string, std::string>& refused() {
  static const std::string use_peer =
      "; build this Dockerfile with `buildah bud` or `docker build` instead";
  static const std::map<std::string, std::string> table{
      {"RUN", "RUN needs a running container, which gkebuild image does not use" + use_peer +
                  ", or produce the files beforehand and COPY them"},
      {"ADD", "ADD (URLs, archive unpacking) is not supported; use COPY" + use_peer.substr(1)},
      {"SHELL", "SHELL is not supported" + use_peer},
      {"HEALTHCHECK", "HEALTHCHECK is not supported (Kubernetes uses probes, not image health checks)"},
      {"ONBUILD", "ONBUILD is not supported" + use_peer},
      {"MAINTAINER", "MAINTAINER is deprecated and not supported; use LABEL maintainer=…"}};
  return table;
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string_view rtrim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

size_t skip_space(std::string_view s, size_t i) {
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return i;
}

std::vector<std::string_view> split_lines(std::string_view source) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start <= source.size()) {
    size_t end = source.find('\n', start);
    if (end == std::string_view::npos) end = source.size();
    std::string_view line = source.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

// A logical instruction: physical lines joined where they end in the escape character.
struct LogicalLine {
  std::string text;
  int line;
  int indent;  // leading blanks on the first line
};

class Parser {
 public:
  Parser(std::string_view source, std::string file) {
    result_.file = std::move(file);
    result_.source = std::string(source);
  }

  Dockerfile run() {
    auto lines = split_lines(result_.source);
    size_t first = read_directives(lines);
    for (auto& logical : join_lines(lines, first)) add(logical);
    check_structure();
    return std::move(result_);
  }

 private:
  [[noreturn]] void fail(int line, int column, const std::string& message) const {
    throw DockerfileError(result_.file, line, column, message, result_.source);
  }

  // "# escape=`" and "# syntax=…" before anything else.
  size_t read_directives(const std::vector<std::string_view>& lines) {
    size_t i = 0;
    for (; i < lines.size(); ++i) {
      std::string_view l = lines[i];
      size_t p = skip_space(l, 0);
      if (p >= l.size() || l[p] != '#') break;
      std::string_view body = l.substr(p + 1);
      size_t eq = body.find('=');
      if (eq == std::string_view::npos) break;
      std::string key = upper(rtrim(body.substr(skip_space(body, 0), eq - skip_space(body, 0))));
      std::string_view value = rtrim(body.substr(skip_space(body, eq + 1)));
      if (key == "ESCAPE") {
        if (value != "\\" && value != "`") {
          fail(static_cast<int>(i) + 1, static_cast<int>(p) + 1, "escape must be \\ or `");
        }
        result_.escape = value[0];
      } else if (key != "SYNTAX" && key != "CHECK") {
        break;
      }
    }
    return i;
  }

  std::vector<LogicalLine> join_lines(const std::vector<std::string_view>& lines, size_t first) {
    std::vector<LogicalLine> out;
    bool continuing = false;
    int escape_line = 0, escape_column = 0;  // where the last continuation's escape character is
    for (size_t i = first; i < lines.size(); ++i) {
      std::string_view l = lines[i];
      size_t p = skip_space(l, 0);
      bool blank_or_comment = p >= l.size() || l[p] == '#';
      if (blank_or_comment) continue;  // also inside continuations, as Docker does
      if (!continuing) out.push_back({"", static_cast<int>(i) + 1, static_cast<int>(p)});
      std::string_view content = continuing ? l : l.substr(p);
      std::string_view trimmed = rtrim(content);
      continuing = !trimmed.empty() && trimmed.back() == result_.escape;
      if (continuing) {
        escape_line = static_cast<int>(i) + 1;
        escape_column = static_cast<int>(l.size() - content.size() + trimmed.size());
        trimmed.remove_suffix(1);
      }
      out.back().text += trimmed;
    }
    if (continuing) {
      fail(escape_line, escape_column, "the last instruction ends with a line continuation");
    }
    return out;
  }

  void add(const LogicalLine& logical) {
    std::string_view text = logical.text;
    size_t end_of_word = 0;
    while (end_of_word < text.size() && !std::isspace(static_cast<unsigned char>(text[end_of_word]))) {
      ++end_of_word;
    }
    std::string name = upper(text.substr(0, end_of_word));
    int keyword_column = logical.indent + 1;
    if (auto why = refused().find(name); why != refused().end()) {
      fail(logical.line, keyword_column, why->second);
    }
    auto known = supported().find(name);
    if (known == supported().end()) {
      fail(logical.line, keyword_column,
           "unknown instruction '" + printable(text.substr(0, end_of_word)) + "'");
    }
    Instruction in;
    in.keyword = known->second;
    in.name = name;
    in.line = logical.line;
    in.text = logical.text;
    size_t p = skip_space(text, end_of_word);
    while (text.substr(p).starts_with("--")) {
      size_t stop = p;
      while (stop < text.size() && !std::isspace(static_cast<unsigned char>(text[stop]))) ++stop;
      in.flags.push_back(parse_flag(text.substr(p, stop - p), logical.line,
                                    logical.indent + static_cast<int>(p) + 1));
      p = skip_space(text, stop);
    }
    in.column = logical.indent + static_cast<int>(p) + 1;
    in.arguments = std::string(rtrim(text.substr(p)));
    if (in.arguments.empty()) fail(in.line, keyword_column, name + " needs arguments");
    in.json = json_form(in.arguments);
    check_flags(in);
    result_.instructions.push_back(std::move(in));
  }

  Flag parse_flag(std::string_view word, int line, int column) const {
    size_t eq = word.find('=');
    if (eq == std::string_view::npos || eq == 2) {
      fail(line, column, "malformed flag '" + printable(word) + "': expected --name=value");
    }
    return Flag{std::string(word.substr(2, eq - 2)), std::string(word.substr(eq + 1)), column};
  }

  void check_flags(const Instruction& in) const {
    for (const Flag& f : in.flags) {
      if (in.keyword == Keyword::kCopy && (f.name == "chown" || f.name == "chmod")) continue;
      if (in.keyword == Keyword::kFrom && f.name == "platform") continue;
      if (in.keyword == Keyword::kCopy && f.name == "from") {
        fail(in.line, f.column, "COPY --from needs a multi-stage build, which gkebuild image does not "
                         "support; build this Dockerfile with `buildah bud` or `docker build`");
      }
      fail(in.line, f.column, in.name + " does not support the flag --" + printable(f.name));
    }
  }

  static std::optional<std::vector<std::string>> json_form(std::string_view arguments) {
    if (!arguments.starts_with('[')) return std::nullopt;
    auto j = nlohmann::json::parse(arguments, nullptr, false);
    if (j.is_discarded() || !j.is_array()) return std::nullopt;
    std::vector<std::string> out;
    for (const auto& item : j) {
      if (!item.is_string()) return std::nullopt;
      out.push_back(item.get<std::string>());
    }
    return out;
  }

  void check_structure() const {
    bool seen_from = false;
    for (const Instruction& in : result_.instructions) {
      if (in.keyword == Keyword::kFrom) {
        if (seen_from) {
          fail(in.line, 1, "a second FROM starts a multi-stage build, which gkebuild image does "
                           "not support; build this Dockerfile with `buildah bud` or `docker build`");
        }
        seen_from = true;
      } else if (!seen_from && in.keyword != Keyword::kArg) {
        fail(in.line, 1, in.name + " before FROM: a Dockerfile must start with FROM (ARG may precede it)");
      }
    }
    if (!seen_from) fail(0, 0, "no FROM instruction");
  }

  Dockerfile result_;
};

}  // namespace

Dockerfile parse(std::string_view source, std::string file) {
  return Parser(source, std::move(file)).run();
}

}  // namespace gkebuild::dockerfile
