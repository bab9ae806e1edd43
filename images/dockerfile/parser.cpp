#include <algorithm>
#include <cstdlib>
#include <cctype>
#include <map>

#include <nlohmann/json.hpp>

#include "base/printable.h"
#include "images/dockerfile/dockerfile.h"
#include "images/dockerfile/dockerfile_error.h"

namespace gkebuild::dockerfile {
namespace {

const std::map<std::string, Keyword>& keywords() {
  static const std::map<std::string, Keyword> table{
      {"FROM", Keyword::kFrom},         {"ARG", Keyword::kArg},
      {"ENV", Keyword::kEnv},           {"LABEL", Keyword::kLabel},
      {"WORKDIR", Keyword::kWorkdir},   {"USER", Keyword::kUser},
      {"COPY", Keyword::kCopy},         {"ENTRYPOINT", Keyword::kEntrypoint},
      {"CMD", Keyword::kCmd},           {"EXPOSE", Keyword::kExpose},
      {"VOLUME", Keyword::kVolume},     {"STOPSIGNAL", Keyword::kStopSignal},
      {"RUN", Keyword::kRun},           {"ADD", Keyword::kAdd},
      {"SHELL", Keyword::kShell},       {"HEALTHCHECK", Keyword::kHealthcheck},
      {"ONBUILD", Keyword::kOnbuild},   {"MAINTAINER", Keyword::kMaintainer}};
  return table;
}

// The flags each instruction takes; a flag BuildKit knows but gkebuild does not build maps
// to why, and is refused at its column.
struct FlagRule {
  bool bare = false;    // may be given without a value (--link)
  std::string refused;  // non-empty: not supported, and what is missing
};

const std::map<Keyword, std::map<std::string, FlagRule>>& flag_rules() {
  static const std::map<Keyword, std::map<std::string, FlagRule>> table{
      {Keyword::kFrom, {{"platform", {}}}},
      {Keyword::kCopy,
       {{"chown", {}}, {"chmod", {}}, {"from", {}}, {"link", {true, ""}},
        {"parents", {true, "COPY --parents (a Dockerfile 1.7 labs feature) is not supported"}},
        {"exclude", {false, "COPY --exclude (a Dockerfile 1.7 labs feature) is not supported; use .dockerignore"}}}},
      {Keyword::kAdd,
       {{"chown", {}}, {"chmod", {}}, {"checksum", {}}, {"link", {true, ""}},
        {"keep-git-dir", {true, "ADD --keep-git-dir is not supported: gkebuild does not fetch git repositories"}}}},
      {Keyword::kRun,
       {{"mount", {}}, {"network", {}},
        {"security", {false, "RUN --security is not supported: RUN steps never run privileged"}}}},
      {Keyword::kHealthcheck,
       {{"interval", {}}, {"timeout", {}}, {"start-period", {}}, {"start-interval", {}}, {"retries", {}}}},
  };
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
  std::vector<Heredoc> heredocs;
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
      if (!continuing) out.push_back({"", static_cast<int>(i) + 1, static_cast<int>(p), {}});
      std::string_view content = continuing ? l : l.substr(p);
      std::string_view trimmed = rtrim(content);
      continuing = !trimmed.empty() && trimmed.back() == result_.escape;
      if (continuing) {
        escape_line = static_cast<int>(i) + 1;
        escape_column = static_cast<int>(l.size() - content.size() + trimmed.size());
        trimmed.remove_suffix(1);
      }
      out.back().text += trimmed;
      if (!continuing) i = read_heredocs(out.back(), lines, i);
    }
    if (continuing) {
      fail(escape_line, escape_column, "the last instruction ends with a line continuation");
    }
    return out;
  }

  // After a complete RUN, COPY or ADD: the bodies of its heredoc markers, each up to the line
  // that is its delimiter alone. Returns the last line consumed.
  size_t read_heredocs(LogicalLine& logical, const std::vector<std::string_view>& lines, size_t last) {
    std::string_view text = logical.text;
    std::string name = upper(text.substr(0, text.find_first_of(" \t")));
    if (name != "RUN" && name != "COPY" && name != "ADD") return last;
    if (text.substr(skip_space(text, name.size())).starts_with('[')) return last;  // JSON form
    size_t word_start = std::string_view::npos;
    for (size_t k = 0; k <= text.size(); ++k) {
      bool blank = k == text.size() || std::isspace(static_cast<unsigned char>(text[k]));
      if (!blank && word_start == std::string_view::npos) word_start = k;
      if (!blank || word_start == std::string_view::npos) continue;
      if (auto marker = heredoc_marker(text.substr(word_start, k - word_start))) {
        last = read_body(*marker, lines, last, logical.line);
        logical.heredocs.push_back(std::move(*marker));
      }
      word_start = std::string_view::npos;
    }
    return last;
  }

  size_t read_body(Heredoc& heredoc, const std::vector<std::string_view>& lines, size_t last, int line) {
    for (size_t i = last + 1; i < lines.size(); ++i) {
      std::string_view l = lines[i];
      std::string_view bare = l;
      if (heredoc.strip_tabs) bare.remove_prefix(std::min(bare.size(), bare.find_first_not_of('\t')));
      if (bare == heredoc.name) return i;
      heredoc.body += std::string(l) + "\n";
    }
    fail(line, 1, "the heredoc <<" + printable(heredoc.name) + " has no line '" + printable(heredoc.name) +
                      "' that ends it");
  }

  void add(const LogicalLine& logical) {
    std::string_view text = logical.text;
    size_t end_of_word = 0;
    while (end_of_word < text.size() && !std::isspace(static_cast<unsigned char>(text[end_of_word]))) {
      ++end_of_word;
    }
    std::string name = upper(text.substr(0, end_of_word));
    int keyword_column = logical.indent + 1;
    auto known = keywords().find(name);
    if (known == keywords().end()) {
      fail(logical.line, keyword_column,
           "unknown instruction '" + printable(text.substr(0, end_of_word)) + "'");
    }
    Instruction in;
    in.keyword = known->second;
    in.name = name;
    in.line = logical.line;
    in.text = logical.text;
    in.heredocs = logical.heredocs;
    size_t p = skip_space(text, end_of_word);
    while (text.substr(p).starts_with("--")) {
      size_t stop = p;
      while (stop < text.size() && !std::isspace(static_cast<unsigned char>(text[stop]))) ++stop;
      in.flags.push_back(parse_flag(in, text.substr(p, stop - p), logical.indent + static_cast<int>(p) + 1));
      p = skip_space(text, stop);
    }
    in.column = logical.indent + static_cast<int>(p) + 1;
    in.arguments = std::string(rtrim(text.substr(p)));
    if (in.arguments.empty()) fail(in.line, keyword_column, name + " needs arguments");
    in.json = json_form(in.arguments);
    if (in.keyword == Keyword::kOnbuild) check_trigger(in);
    result_.instructions.push_back(std::move(in));
  }

  Flag parse_flag(const Instruction& in, std::string_view word, int column) const {
    size_t eq = word.find('=');
    std::string name(word.substr(2, eq == std::string_view::npos ? std::string_view::npos : eq - 2));
    if (name.empty()) fail(in.line, column, "malformed flag '" + printable(word) + "': expected --name=value");
    auto rules = flag_rules().find(in.keyword);
    const FlagRule* rule = nullptr;
    if (rules != flag_rules().end()) {
      if (auto r = rules->second.find(name); r != rules->second.end()) rule = &r->second;
    }
    if (rule == nullptr) fail(in.line, column, in.name + " does not support the flag --" + printable(name));
    if (!rule->refused.empty()) fail(in.line, column, rule->refused);
    if (eq == std::string_view::npos && !rule->bare) {
      fail(in.line, column, "the flag --" + name + " needs a value: --" + name + "=VALUE");
    }
    Flag flag{name, "", eq != std::string_view::npos, column};
    if (flag.has_value) flag.value = std::string(word.substr(eq + 1));
    return flag;
  }

  // ONBUILD INSTRUCTION: recorded for images built FROM this one; its instruction must be one.
  void check_trigger(const Instruction& in) const {
    std::string inner = upper(in.arguments.substr(0, in.arguments.find_first_of(" \t")));
    if (!keywords().contains(inner)) {
      fail(in.line, in.column, "unknown instruction '" + printable(inner) + "' after ONBUILD");
    }
    if (inner == "ONBUILD" || inner == "FROM" || inner == "MAINTAINER") {
      fail(in.line, in.column, "ONBUILD " + inner + " is not allowed");
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
      if (in.keyword == Keyword::kFrom) seen_from = true;
      if (!seen_from && in.keyword != Keyword::kArg) {
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

// As BuildKit: an optional file descriptor number, "<<", an optional "-", and a delimiter
// that may be quoted (then the body is taken literally).
std::optional<Heredoc> heredoc_marker(std::string_view word) {
  size_t p = 0;
  while (p < word.size() && std::isdigit(static_cast<unsigned char>(word[p]))) ++p;
  if (!word.substr(p).starts_with("<<") || word.substr(p).starts_with("<<<")) return std::nullopt;
  p += 2;
  Heredoc heredoc;
  if (p < word.size() && word[p] == '-') {
    heredoc.strip_tabs = true;
    ++p;
  }
  std::string_view name = word.substr(p);
  if (name.size() >= 2 && (name[0] == '"' || name[0] == '\'') && name.back() == name[0]) {
    name = name.substr(1, name.size() - 2);
    heredoc.expand = false;
  }
  if (name.empty() || name.find_first_of("<>'\"$") != std::string_view::npos) return std::nullopt;
  heredoc.name = std::string(name);
  return heredoc;
}

std::string heredoc_text(const Heredoc& heredoc) {
  if (!heredoc.strip_tabs) return heredoc.body;
  std::string out;
  for (std::string_view rest = heredoc.body; !rest.empty();) {
    size_t end = rest.find('\n');
    std::string_view line = rest.substr(0, end == std::string_view::npos ? rest.size() : end + 1);
    rest.remove_prefix(line.size());
    line.remove_prefix(std::min(line.size(), line.find_first_not_of('\t')));
    out += line;
  }
  return out;
}

}  // namespace gkebuild::dockerfile
