// libyaml's event API for the render library's YAML readers (manifest headers, values).
#pragma once

#include <yaml.h>

#include <string>

#include "tool/steps/render/manifest_header.h"

namespace gkebuild::render {

// libyaml's event stream over one string; owns the parser and the current event.
class EventReader {
 public:
  explicit EventReader(const std::string& text) {
    yaml_parser_initialize(&parser_);
    yaml_parser_set_input_string(&parser_, reinterpret_cast<const unsigned char*>(text.data()), text.size());
  }
  ~EventReader() {
    release();
    yaml_parser_delete(&parser_);
  }
  EventReader(const EventReader&) = delete;
  EventReader& operator=(const EventReader&) = delete;

  // Moves to the next event; false on a syntax error.
  bool next() {
    release();
    has_event_ = yaml_parser_parse(&parser_, &event_) != 0;
    return has_event_;
  }
  yaml_event_type_t type() const { return event_.type; }
  const yaml_event_t& event() const { return event_; }
  std::string scalar() const {
    return {reinterpret_cast<const char*>(event_.data.scalar.value), event_.data.scalar.length};
  }
  bool is_null_scalar() const {
    if (type() != YAML_SCALAR_EVENT || event_.data.scalar.style != YAML_PLAIN_SCALAR_STYLE) return false;
    const std::string value = scalar();
    return value.empty() || value == "~" || value == "null" || value == "Null" || value == "NULL";
  }
  YamlSyntaxError error() const {
    std::string message = parser_.problem ? parser_.problem : "invalid YAML";
    if (parser_.context) message = std::string(parser_.context) + ": " + message;
    return {static_cast<int>(parser_.problem_mark.line), static_cast<int>(parser_.problem_mark.column), message};
  }

 private:
  void release() {
    if (has_event_) yaml_event_delete(&event_);
    has_event_ = false;
  }
  yaml_parser_t parser_{};
  yaml_event_t event_{};
  bool has_event_ = false;
};

}  // namespace gkebuild::render
