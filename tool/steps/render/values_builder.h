// Shared by the JSON and YAML values readers: where parsed strings live, how mappings
// are assembled, and the limits that keep hostile files from exhausting the stack or memory.
#pragma once

#include <cstddef>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tool/core/jinja/values/value.h"
#include "tool/core/yamlfile/scalars.h"

namespace gkebuild::render {

// Deeper nesting than this is refused (the readers, and later the templates, recurse).
inline constexpr std::size_t kMaxValuesDepth = 1000;
// YAML aliases may stand for at most this many nodes in all (billion laughs).
inline constexpr std::size_t kMaxAliasedNodes = 1000000;

// The strings of one values file: views into its text where nothing was unescaped, copies
// otherwise. Every string Value made here shares one owner, so the file's text stays alive
// exactly as long as some value points into it, and no string costs an allocation of its own.
class ValuesText {
 public:
  explicit ValuesText(std::string text);
  const std::string& text() const { return store_->text; }
  // `piece` must lie inside text().
  jinja::Value view(std::string_view piece) const { return jinja::Value::piece_of(owner_, piece); }
  jinja::Value copy(std::string_view decoded);

 private:
  struct Store : jinja::Object {
    std::string text;
    std::deque<std::string> copies;  // a deque never moves its elements
  };
  std::shared_ptr<Store> store_;
  jinja::Value owner_;
};

using ValuePair = std::pair<jinja::Value, jinja::Value>;

// A mapping being assembled: insertion order kept, string keys, duplicates detected. Its
// pairs collect at the end of a scratch vector that the mappings of one file share (a
// nested mapping is finished before its parent goes on), so that each mapping costs one
// allocation of exactly its size instead of a vector grown pair by pair.
class MappingBuilder {
 public:
  explicit MappingBuilder(std::vector<ValuePair>& scratch) : scratch_(&scratch), start_(scratch.size()) {}
  // False (and nothing added) when the key is already present.
  bool add(jinja::Value key, jinja::Value value);
  // Valid until the next add to the scratch vector.
  jinja::Value* find(std::string_view key);
  // The mapping; its pairs leave the scratch vector.
  jinja::Value finish();

 private:
  std::vector<ValuePair>* scratch_;
  std::size_t start_;
  // Built once the mapping outgrows a linear scan, so wide mappings stay linear overall.
  std::unordered_map<std::string_view, std::size_t> index_;
};

// The same for lists: the items at the end of `scratch` from `start` on become one list.
jinja::Value finish_list(std::vector<jinja::Value>& scratch, std::size_t start);

// A typed scalar as an engine value; `text` is the value used when it is a string.
jinja::Value scalar_to_value(const yamlfile::ScalarValue& typed, jinja::Value text);

// "a mapping", "a list", "null", "a string (\"x\")"… for "expected X, got Y" messages.
std::string describe_value(const jinja::Value& value);

}  // namespace gkebuild::render
