// A template engine that renders Jinja2 templates byte-for-byte like Python Jinja2 3.1.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "tool/core/jinja/syntax/context_reads.h"
#include "tool/core/jinja/values/value.h"

namespace gkebuild::jinja {

enum class UndefinedMode { Strict, Lenient };  // jinja2.StrictUndefined / jinja2.Undefined

struct Options {
  bool trim_blocks = false;
  bool lstrip_blocks = false;
  bool keep_trailing_newline = false;
  UndefinedMode undefined = UndefinedMode::Strict;
  // A `for` loop over at least `split_loop_items` items renders its iterations on up to
  // `loop_threads` threads (split_loop.cpp); output, errors and `loop` are what one thread
  // gives. 1: never. A caller that already renders several templates at once leaves it at 1.
  // Fewer items render in about a millisecond, where a second thread gained nothing measurable
  // (1,000 Job records: 4.46 ms split, 4.51 ms on one thread, for 0.3 ms more CPU).
  int loop_threads = 1;
  size_t split_loop_items = 2048;
};

class TemplateLibrary;
struct Template;

// Takes rendered text in pieces of about 64 KiB, in order, as the render produces it (the
// last piece may be shorter or empty). A render that fails may already have given pieces.
using OutputSink = std::function<void(std::string&& piece)>;

class Environment {
 public:
  explicit Environment(Options options = {});
  ~Environment();
  Environment(const Environment&) = delete;
  Environment& operator=(const Environment&) = delete;

  // Folders searched in order for include/import/extends and render_file names (like FileSystemLoader).
  void add_search_path(std::filesystem::path dir);
  // Registers an in-memory template (tests and generated templates); found before search paths.
  void add_template(std::string name, std::string source);

  // Both may be called from several threads at once (after the add_* calls).
  std::string render_file(const std::string& name, const nlohmann::ordered_json& context);
  // The same with a context already in engine values (a mapping), e.g. a values file's.
  std::string render_file(const std::string& name, const Value& context);
  // The same, giving the output to `sink` in pieces instead of as one string at the end.
  void render_file(const std::string& name, const Value& context, const OutputSink& sink);
  std::string render_string(std::string_view source, const nlohmann::ordered_json& context,
                            const std::string& name = "<string>");

  // What a template (and what it includes, extends or imports with context) reads from its
  // context, from its syntax alone; see context_reads.h. Throws like render_file when the
  // template is missing or has a syntax error.
  ContextReads context_reads(const std::string& name);
  ContextReads context_reads_of_string(std::string_view source, const std::string& name = "<string>");

  const Options& options() const { return options_; }

 private:
  std::shared_ptr<const Template> find_template(const std::string& name);  // throws NotFound

  Options options_;
  std::unique_ptr<TemplateLibrary> store_;
};

}  // namespace gkebuild::jinja
