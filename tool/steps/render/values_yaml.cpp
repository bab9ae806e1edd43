#include "tool/steps/render/values_yaml.h"

#include <optional>
#include <unordered_map>

#include "base/source_error.h"
#include "tool/steps/render/values_builder.h"
#include "tool/steps/render/yaml_events.h"

namespace gkebuild::render {
namespace {

std::string_view text_of(const yaml_char_t* text, std::size_t length) {
  return {reinterpret_cast<const char*>(text), length};
}
std::string_view text_of(const yaml_char_t* text) {
  return text ? std::string_view(reinterpret_cast<const char*>(text)) : std::string_view();
}

class YamlValuesReader {
 public:
  YamlValuesReader(std::string text, const std::string& file) : strings_(std::move(text)), file_(file) {}

  jinja::Value document() {
    EventReader reader(strings_.text());
    while (!done_) {
      if (!reader.next()) {
        const YamlSyntaxError error = reader.error();
        throw SourceError({file_, error.line + 1, error.column + 1}, "invalid YAML: " + error.message,
                          strings_.text());
      }
      on_event(reader.event());
    }
    return root_ ? *root_ : jinja::Value::none();
  }

 private:
  // A sequence or mapping whose end has not been read yet.
  struct Open {
    explicit Open(std::vector<ValuePair>& scratch) : pairs(scratch) {}
    bool mapping = false;
    std::vector<jinja::Value> items;
    MappingBuilder pairs;
    std::optional<jinja::Value> key;  // a mapping's key waiting for its value
    yaml_mark_t key_mark{};
    std::string anchor;
    std::size_t nodes_before = 0;  // nodes_ when it opened, for the size of its anchor
  };
  // An anchored node and how many nodes it stands for, aliases inside it expanded.
  struct Anchored {
    jinja::Value value;
    std::size_t nodes = 0;
  };

  [[noreturn]] void fail(const yaml_mark_t& mark, const std::string& message) const {
    throw SourceError({file_, static_cast<int>(mark.line) + 1, static_cast<int>(mark.column) + 1}, message,
                      strings_.text());
  }

  void on_event(const yaml_event_t& event) {
    switch (event.type) {
      case YAML_SCALAR_EVENT: return on_scalar(event);
      case YAML_SEQUENCE_START_EVENT:
      case YAML_MAPPING_START_EVENT: return open(event);
      case YAML_SEQUENCE_END_EVENT:
      case YAML_MAPPING_END_EVENT: return close(event);
      case YAML_ALIAS_EVENT: return on_alias(event);
      case YAML_DOCUMENT_END_EVENT:
      case YAML_STREAM_END_EVENT: done_ = true; return;  // like yaml-cpp's Load: the first document
      default: return;
    }
  }

  bool expecting_key() const { return !stack_.empty() && stack_.back().mapping && !stack_.back().key; }

  void on_scalar(const yaml_event_t& event) {
    ++nodes_;
    const auto& scalar = event.data.scalar;
    const std::string_view text = text_of(scalar.value, scalar.length);
    jinja::Value value;
    if (expecting_key() || scalar.tag || scalar.style != YAML_PLAIN_SCALAR_STYLE) {
      value = strings_.copy(text);  // keys are their text; quoted and tagged scalars are strings
    } else {
      const auto kind = yamlfile::resolve_scalar(text, true);
      value = kind == yamlfile::ScalarKind::String ? strings_.copy(text)
                                                   : scalar_to_value(yamlfile::scalar_value(text, kind), {});
    }
    if (scalar.anchor) anchors_[std::string(text_of(scalar.anchor))] = {value, 1};
    deliver(std::move(value), event.start_mark);
  }

  void open(const yaml_event_t& event) {
    if (expecting_key()) fail(event.start_mark, "a values file's keys must be strings, not lists or mappings");
    if (stack_.size() >= kMaxValuesDepth)
      fail(event.start_mark, "nested more than " + std::to_string(kMaxValuesDepth) + " levels deep");
    Open node(pairs_);
    node.mapping = event.type == YAML_MAPPING_START_EVENT;
    node.nodes_before = nodes_++;
    const yaml_char_t* anchor =
        node.mapping ? event.data.mapping_start.anchor : event.data.sequence_start.anchor;
    if (anchor) {
      node.anchor = std::string(text_of(anchor));
      ++open_anchors_[node.anchor];
    }
    stack_.push_back(std::move(node));
  }

  void close(const yaml_event_t& event) {
    Open node = std::move(stack_.back());
    stack_.pop_back();
    jinja::Value value = node.mapping ? node.pairs.finish() : jinja::Value::list(std::move(node.items));
    if (!node.anchor.empty()) {
      if (--open_anchors_[node.anchor] == 0) open_anchors_.erase(node.anchor);
      anchors_[node.anchor] = {value, nodes_ - node.nodes_before};
    }
    deliver(std::move(value), event.start_mark);
  }

  // An alias shares the anchored value; what it stands for is counted as if it were
  // copied, so that a billion-laughs document stops here instead of in whatever walks it.
  void on_alias(const yaml_event_t& event) {
    const std::string name(text_of(event.data.alias.anchor));
    if (open_anchors_.count(name))
      fail(event.start_mark, "recursive alias *" + name + ": it refers to a node that contains it");
    auto found = anchors_.find(name);
    if (found == anchors_.end()) fail(event.start_mark, "undefined alias *" + name);
    aliased_nodes_ += found->second.nodes;
    if (aliased_nodes_ > kMaxAliasedNodes)
      fail(event.start_mark, "aliases expand to more than " + std::to_string(kMaxAliasedNodes) +
                                 " nodes (an alias bomb?)");
    nodes_ += found->second.nodes;
    deliver(found->second.value, event.start_mark);
  }

  void deliver(jinja::Value value, const yaml_mark_t& mark) {
    if (stack_.empty()) {
      root_ = std::move(value);
      return;
    }
    Open& top = stack_.back();
    if (!top.mapping) {
      top.items.push_back(std::move(value));
    } else if (!top.key) {
      if (!value.is_str()) fail(mark, "a values file's keys must be strings, not " + describe_value(value));
      top.key = std::move(value);
      top.key_mark = mark;
    } else {
      jinja::Value key = std::move(*top.key);
      top.key.reset();
      if (!top.pairs.add(key, std::move(value))) fail(top.key_mark, "duplicate key '" + std::string(key.str()) + "'");
    }
  }

  ValuesText strings_;
  const std::string& file_;
  std::vector<ValuePair> pairs_;  // scratch of the open mappings
  std::vector<Open> stack_;
  std::unordered_map<std::string, Anchored> anchors_;
  std::unordered_map<std::string, int> open_anchors_;
  std::size_t nodes_ = 0;          // nodes read so far, aliases expanded
  std::size_t aliased_nodes_ = 0;  // of which stand behind aliases
  std::optional<jinja::Value> root_;
  bool done_ = false;
};

}  // namespace

jinja::Value parse_yaml_values(std::string text, const std::string& file) {
  return YamlValuesReader(std::move(text), file).document();
}

}  // namespace gkebuild::render
