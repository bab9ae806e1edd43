#include "tool/core/jinja/environment.h"

#include <fstream>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <sstream>
#include <utility>
#include <vector>

#include "base/source_error.h"
#include "tool/core/jinja/runtime/interpreter.h"
#include "tool/core/jinja/values/json_document.h"
#include "tool/core/jinja/syntax/parser.h"

namespace gkebuild::jinja {
namespace {
// The template parsed under `key`, or null.
template <class Map, class Key>
std::shared_ptr<const Template> cached(const Map& parsed, const Key& key) {
  auto found = parsed.find(key);
  return found == parsed.end() ? nullptr : found->second;
}
}  // namespace

// Finds templates in memory and in the search path, parsing each once.
class TemplateLibrary final : public TemplateStore {
 public:
  explicit TemplateLibrary(const Options& options) : options_(options) {}

  void add_search_path(std::filesystem::path dir) { search_path_.push_back(std::move(dir)); }
  void add_template(std::string name, std::string source) {
    parsed_.erase(name);
    sources_[std::move(name)] = std::move(source);
  }

  // Renders may run on several threads at once: lookups share the lock, parsing has it alone.
  std::shared_ptr<const Template> find(const std::string& name) override {
    if (std::shared_lock lock(mutex_); auto tmpl = cached(parsed_, name)) return tmpl;
    std::unique_lock lock(mutex_);
    if (auto tmpl = cached(parsed_, name)) return tmpl;
    std::string source;
    std::string display = name;
    if (auto found = sources_.find(name); found != sources_.end()) {
      source = found->second;
    } else if (!read_from_search_path(name, source, display)) {
      return nullptr;
    }
    auto tmpl = parse_template(name, source, lexer_options());
    parsed_[name] = tmpl;
    return tmpl;
  }

  std::shared_ptr<const Template> parse_string(std::string_view source, const std::string& name) {
    // A sweep renders each templated argument once per point: the lookup copies nothing.
    const std::pair<std::string_view, std::string_view> key{name, source};
    if (std::shared_lock lock(mutex_); auto tmpl = cached(strings_, key)) return tmpl;
    std::unique_lock lock(mutex_);
    if (auto tmpl = cached(strings_, key)) return tmpl;
    auto tmpl = parse_template(name, source, lexer_options());
    strings_.emplace(std::pair<std::string, std::string>(name, source), tmpl);
    return tmpl;
  }

  std::string describe_search() const override {
    std::string out;
    if (!sources_.empty()) out = "registered templates";
    for (const auto& dir : search_path_) {
      if (!out.empty()) out += ", ";
      out += dir.string();
    }
    return out.empty() ? "no template folders configured" : out;
  }

 private:
  LexerOptions lexer_options() const {
    return {options_.trim_blocks, options_.lstrip_blocks, options_.keep_trailing_newline};
  }

  // Like Jinja's FileSystemLoader: '/'-separated names, no '..' segments.
  bool read_from_search_path(const std::string& name, std::string& source, std::string& display) const {
    std::filesystem::path relative;
    std::stringstream parts(name);
    std::string part;
    while (std::getline(parts, part, '/')) {
      if (part == "..") return false;
      if (part.empty() || part == ".") continue;
      relative /= part;
    }
    if (relative.empty()) return false;
    for (const auto& dir : search_path_) {
      std::filesystem::path candidate = dir / relative;
      std::error_code ec;
      if (!std::filesystem::is_regular_file(candidate, ec)) continue;
      std::ifstream in(candidate, std::ios::binary);
      if (!in) continue;
      std::ostringstream text;
      text << in.rdbuf();
      source = text.str();
      display = candidate.string();
      return true;
    }
    return false;
  }

  const Options& options_;
  std::vector<std::filesystem::path> search_path_;
  std::map<std::string, std::string> sources_;
  std::map<std::string, std::shared_ptr<const Template>> parsed_;
  // Parsed strings by (name, source), found by views of both.
  struct NameAndSourceLess {
    using is_transparent = void;
    using Views = std::pair<std::string_view, std::string_view>;
    static Views views(const std::pair<std::string, std::string>& key) { return {key.first, key.second}; }
    static Views views(const Views& key) { return key; }
    template <class A, class B>
    bool operator()(const A& a, const B& b) const { return views(a) < views(b); }
  };
  std::map<std::pair<std::string, std::string>, std::shared_ptr<const Template>, NameAndSourceLess> strings_;
  std::shared_mutex mutex_;  // guards parsed_ and strings_
};

Environment::Environment(Options options) : options_(options), store_(std::make_unique<TemplateLibrary>(options_)) {}
Environment::~Environment() = default;

void Environment::add_search_path(std::filesystem::path dir) { store_->add_search_path(std::move(dir)); }
void Environment::add_template(std::string name, std::string source) {
  store_->add_template(std::move(name), std::move(source));
}

namespace {
std::string run(TemplateLibrary& store, const Options& options, const std::shared_ptr<const Template>& tmpl,
                const Value& context, const OutputSink* sink = nullptr) {
  Interpreter interpreter(store, options);
  try {
    return interpreter.render(tmpl, context, sink);
  } catch (const EvalError& error) {
    throw TemplateError(error.template_kind(), {tmpl->name, 0, 0}, error.what());
  }
}

// A JSON context is indexed as a values document, its strings read in place.
// (Interpreter::render refuses anything but a mapping or null.)
Value context_value(const nlohmann::ordered_json& context) { return json_document(context); }
}  // namespace

std::shared_ptr<const Template> Environment::find_template(const std::string& name) {
  auto tmpl = store_->find(name);
  if (!tmpl)
    throw TemplateError(TemplateErrorKind::NotFound, {name, 0, 0},
                        "template '" + name + "' not found (searched " + store_->describe_search() + ")");
  return tmpl;
}

std::string Environment::render_file(const std::string& name, const Value& context) {
  return run(*store_, options_, find_template(name), context);
}

void Environment::render_file(const std::string& name, const Value& context, const OutputSink& sink) {
  sink(run(*store_, options_, find_template(name), context, &sink));
}

std::string Environment::render_file(const std::string& name, const nlohmann::ordered_json& context) {
  return render_file(name, context_value(context));
}

std::string Environment::render_string(std::string_view source, const nlohmann::ordered_json& context,
                                       const std::string& name) {
  return run(*store_, options_, store_->parse_string(source, name), context_value(context));
}

ContextReads Environment::context_reads(const std::string& name) {
  return jinja::context_reads(*find_template(name), [this](const std::string& other) { return store_->find(other); });
}

ContextReads Environment::context_reads_of_string(std::string_view source, const std::string& name) {
  return jinja::context_reads(*store_->parse_string(source, name),
                              [this](const std::string& other) { return store_->find(other); });
}

}  // namespace gkebuild::jinja
