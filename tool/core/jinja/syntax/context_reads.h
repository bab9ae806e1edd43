// What a template reads from its render context, found from its syntax alone (as
// jinja2.meta.find_undeclared_variables does): which variables, and which keys of them.
// Used to tell whether a value given to a template (a sweep axis, a --set key) is used at all.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>

#include "tool/core/jinja/syntax/ast.h"

namespace gkebuild::jinja {

// An over-approximation: a name counts as read unless it is certainly a local variable
// where it is read (a loop target in its loop, a macro's parameter, a variable set earlier
// in the same block), so an answer "not read" can be trusted.
struct ContextReads {
  std::set<std::string, std::less<>> names;  // every context variable the template may read
  // Of each variable read as NAME.KEY or NAME['KEY'] (string KEY): those keys.
  std::map<std::string, std::set<std::string, std::less<>>, std::less<>> keys;
  // Variables also read as a whole (printed, passed on, iterated, a computed key): any key may be read.
  std::set<std::string, std::less<>> whole;
  // An include, import or extends of a name computed at render time: anything may be read.
  bool unknown = false;

  bool reads(std::string_view name) const { return unknown || names.count(name) > 0; }
  // Whether `key` of the variable `name` may be read.
  bool reads_key(std::string_view name, std::string_view key) const;
  void merge(const ContextReads& other);
};

// Finds an included, imported or extended template by name; null when there is none (it
// is then left out: rendering would fail on it anyway).
using TemplateFinder = std::function<std::shared_ptr<const Template>(const std::string& name)>;

// Follows include, extends and `import ... with context` of constant names through `find`.
ContextReads context_reads(const Template& tmpl, const TemplateFinder& find);

}  // namespace gkebuild::jinja
