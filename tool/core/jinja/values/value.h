// The values templates compute with. Scalars live inline. Containers are of two families:
// those a template makes (owned, reference-counted boxes) and those of the data it is given,
// borrowed from a values document (DocSlot) that outlives the render, so that looking up and
// iterating context data never copies it. A values file is read into a document; a JSON
// context is indexed as one (json_document.h).
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "tool/core/jinja/errors.h"

namespace gkebuild::jinja {

using Json = nlohmann::ordered_json;

enum class Kind : uint8_t {
  Undefined, None, Bool, Int, Float, Str,
  List, Tuple, Dict,        // owned containers (ListBox / DictBox)
  DocList, DocDict,         // borrowed containers of a values document (DocSlot)
  Object,                   // macros, methods, namespaces, loops, modules …
};

class Value;
class Object;
class Interpreter;
struct CallArgs;
struct Callable;

// One entry of a values document: the compact, read-only tree a values file is read into
// (render/values_json.h, render/values_yaml.h) and a JSON context is indexed as
// (json_document.h). A list's items lie side by side. A mapping's `items` start with a Keys
// slot, whose `items` are its keys, then hold its values: the mappings of a values file that
// have the same keys in the same order (a list of records) share one array of keys.
// Nothing in a document is reference-counted: its values are borrowed, and the document
// outlives every value taken from it. A container that a template changes in place
// (`list.append`) is copied out once and its slot becomes Edited.
struct DocSlot {
  // BigInt: an integer literal beyond 64 bits (its text in `s`), an error when a template reads it.
  // Keys: the first entry of a Dict's items, never a value itself.
  // Four bytes, as wide as `size`: a slot's first eight bytes are then two whole halves, which
  // the reader builds in a register instead of merging a byte into it.
  enum Type : uint32_t { Null, False, True, Int, Float, Str, BigInt, List, Dict, Edited, Keys };
  Type type;
  uint32_t size;  // bytes of a Str or BigInt, entries of a List, pairs of a Dict
  union {
    int64_t i;
    double f;
    const char* s;
    const DocSlot* items;
    const Value* edited;
  };

  // A Dict's keys (null when it is empty), and its i-th key and value.
  const DocSlot* keys() const { return size ? items[0].items : nullptr; }
  const DocSlot& key(uint32_t index) const { return items[0].items[index]; }
  const DocSlot& value(uint32_t index) const { return items[1 + index]; }
};

// Heap-held payloads share this base so a Value needs a single owner pointer.
class Object : public std::enable_shared_from_this<Object> {
 public:
  virtual ~Object() = default;
  virtual std::string_view type_name() const { return "object"; }
  // Attribute lookup for `x.name`; returns an Undefined value when missing.
  virtual Value get_attr(std::string_view name) const;
  // Non-null for what a template can call (`x()`): every call declares its effect (objects.h).
  virtual Callable* as_callable() { return nullptr; }
  virtual void repr(std::string& out) const;
};

class Value {
 public:
  Value() : kind_(Kind::Undefined), i_(0) {}

  static Value none() { return Value(Kind::None); }
  static Value boolean(bool b) { Value v(Kind::Bool); v.b_ = b; return v; }
  static Value integer(int64_t i) { Value v(Kind::Int); v.i_ = i; return v; }
  static Value floating(double f) { Value v(Kind::Float); v.f_ = f; return v; }
  // A string that the caller keeps alive for the whole render (template source, context).
  static Value borrowed(std::string_view s) { Value v(Kind::Str); v.s_ = s.data(); v.n_ = s.size(); return v; }
  static Value string(std::string s);
  // A piece of `owner`'s text that keeps the owner's storage alive (characters, slices).
  static Value piece_of(const Value& owner, std::string_view piece) {
    Value v = borrowed(piece);
    v.obj_ = owner.obj_;
    return v;
  }
  static Value markup(std::string s) { Value v = string(std::move(s)); v.markup_ = true; return v; }
  // The value of a document's slot (strings, lists and dicts borrowed from the document).
  static Value doc(const DocSlot& slot);
  // The root of a document: like doc(), and it keeps `document` alive.
  static Value doc_root(const DocSlot& root, std::shared_ptr<Object> document);
  static Value list(std::vector<Value> items);
  static Value tuple(std::vector<Value> items);
  // groupby()'s (grouper, list) pair: a tuple that also has the attributes grouper and list.
  static Value group_tuple(Value grouper, Value list);
  bool is_group_tuple() const;
  static Value dict(std::vector<std::pair<Value, Value>> items);
  static Value object(std::shared_ptr<Object> object);
  // Undefined name (`name` must outlive the render, e.g. it lives in the AST).
  static Value undefined(std::string_view name) { Value v; v.s_ = name.data(); v.n_ = name.size(); return v; }
  // Undefined with a full message such as "'dict object' has no attribute 'x'".
  static Value undefined_with(std::string message);
  // The same message for a dict's missing attribute, made only if asked for (`name` must
  // outlive the render: `x.retries | default(0)` over 10,000 records builds no message).
  static Value missing_dict_attribute(std::string_view name) {
    Value v = undefined(name);
    v.dict_attribute_ = true;
    return v;
  }
  // An Undefined that stays lenient even in strict mode (Jinja's `x if c` without else).
  static Value lenient_undefined(std::string message) { Value v = undefined_with(std::move(message)); v.lenient_ = true; return v; }

  Kind kind() const { return kind_; }
  bool is_undefined() const { return kind_ == Kind::Undefined; }
  bool is_none() const { return kind_ == Kind::None; }
  bool is_str() const { return kind_ == Kind::Str; }
  bool is_int() const { return kind_ == Kind::Int; }
  bool is_float() const { return kind_ == Kind::Float; }
  bool is_bool() const { return kind_ == Kind::Bool; }
  bool is_number() const { return kind_ == Kind::Int || kind_ == Kind::Float || kind_ == Kind::Bool; }
  bool is_list_like() const {
    return kind_ == Kind::List || kind_ == Kind::Tuple || kind_ == Kind::DocList;
  }
  bool is_mapping() const { return kind_ == Kind::Dict || kind_ == Kind::DocDict; }
  bool is_doc() const { return kind_ == Kind::DocList || kind_ == Kind::DocDict; }
  bool is_object() const { return kind_ == Kind::Object; }
  bool is_markup() const { return markup_; }
  bool is_lenient_undefined() const { return kind_ == Kind::Undefined && lenient_; }

  bool as_bool() const { return b_; }
  int64_t as_int() const { return kind_ == Kind::Bool ? (b_ ? 1 : 0) : i_; }
  double as_float() const { return kind_ == Kind::Float ? f_ : static_cast<double>(as_int()); }
  std::string_view str() const { return {s_, n_}; }
  // DocList / DocDict: the container's slot, and the copy a template changed (else null).
  const DocSlot& doc_slot() const { return *d_; }
  const Value* doc_edited() const { return d_->type == DocSlot::Edited ? d_->edited : nullptr; }
  const std::vector<Value>& items() const;                       // List / Tuple
  const std::vector<std::pair<Value, Value>>& pairs() const;     // Dict
  // In-place changes for list.append() / dict.update(); the container is shared like a Python object.
  std::vector<Value>& mutable_items() const;
  std::vector<std::pair<Value, Value>>& mutable_pairs() const;
  Object* object_ptr() const { return obj_.get(); }
  // Hands over the payload (the value keeps its kind but no longer owns it); for freeing
  // deep containers iteratively.
  std::shared_ptr<Object> take_object() { return std::move(obj_); }
  const std::shared_ptr<Object>& object_shared() const { return obj_; }
  template <class T>
  T* as() const { return dynamic_cast<T*>(obj_.get()); }

  Value as_markup() const { Value v = *this; v.markup_ = true; return v; }

  // "'x' is undefined" or the stored message.
  std::string undefined_message() const;

 private:
  explicit Value(Kind kind) : kind_(kind), i_(0) {}

  Kind kind_;
  bool markup_ = false;
  bool lenient_ = false;
  bool dict_attribute_ = false;  // an Undefined made by missing_dict_attribute
  union {
    bool b_;
    int64_t i_;
    double f_;
    const char* s_;
    const DocSlot* d_;
  };
  size_t n_ = 0;
  std::shared_ptr<Object> obj_;
};

// Integers are signed 64-bit (an intended difference from Python): refuse, never round.
[[noreturn]] void fail_big_integer(std::string_view text);

// Inlined everywhere: a call returns the 40-byte value through memory (every field read of a
// values document goes through here).
[[gnu::always_inline]] inline Value Value::doc(const DocSlot& slot) {
  switch (slot.type) {
    case DocSlot::Null: return none();
    case DocSlot::False: return boolean(false);
    case DocSlot::True: return boolean(true);
    case DocSlot::Int: return integer(slot.i);
    case DocSlot::Float: return floating(slot.f);
    case DocSlot::Str: return borrowed({slot.s, slot.size});
    case DocSlot::BigInt: fail_big_integer({slot.s, slot.size});
    case DocSlot::List: { Value v(Kind::DocList); v.d_ = &slot; return v; }
    case DocSlot::Dict: { Value v(Kind::DocDict); v.d_ = &slot; return v; }
    case DocSlot::Edited: return *slot.edited;
    case DocSlot::Keys: break;  // never a value
  }
  return none();
}

// `value`, or for a document container that a template changed, the changed copy.
inline const Value& resolved(const Value& value) {
  if (value.is_doc()) {
    if (const Value* edited = value.doc_edited()) return *edited;
  }
  return value;
}

// The copy of a document container that a template may change in place (made on the first
// change; every value of the container sees it from then on). A document is read by one
// thread at a time (split loops change nothing in parallel).
const Value& edit_in_place(const Value& doc_container);

// The boxes of template-made strings, lists and dicts count what they hold against the
// render memory budget (limits.h) while they live: `charged` is what they counted.
struct ListBox : Object {
  ~ListBox() override;  // frees nested containers without recursing once per level
  std::vector<Value> items;
  bool group = false;  // made by Value::group_tuple
  uint64_t charged = 0;
  // Counts the items' storage again after a change in place (append, extend, insert).
  void recharge();
  std::string_view type_name() const override { return "list"; }
};
struct DictBox : Object {
  ~DictBox() override;
  std::vector<std::pair<Value, Value>> pairs;
  // Values documents that entries borrow from (a mapping merged from values files keeps them).
  std::vector<std::shared_ptr<Object>> documents;
  uint64_t charged = 0;
  void recharge();  // as ListBox's
  std::string_view type_name() const override { return "dict"; }
};
struct StrBox : Object {
  ~StrBox() override;
  std::string text;
  uint64_t charged = 0;
};

// Python's type name of a value: int, str, list, dict, NoneType …
std::string_view type_name(const Value& value);
// Jinja's object_type_repr: "dict object", "None", "str object".
std::string object_type_repr(const Value& value);

bool truthy(const Value& value);  // Python bool(); Undefined is false (Strict is checked by callers)
size_t length(const Value& value);  // len(); throws EvalError for unsized values

// str() and repr() as Python prints them.
void append_str(std::string& out, const Value& value);
std::string to_str(const Value& value);
void append_repr(std::string& out, const Value& value);
std::string repr(const Value& value);
void append_str_repr(std::string& out, std::string_view text);

// Python ==, and the ordering used by sort/min/max and < (throws EvalError when unorderable).
bool equals(const Value& a, const Value& b);
int compare(const Value& a, const Value& b, bool case_insensitive = false);

// A random-access view of what iteration over a value yields (list items, dict keys,
// string characters), without copying borrowed containers.
class Sequence {
 public:
  explicit Sequence(const Value& value);
  // What `mapping.items()` yields, as (key, value) tuples, without building them: a template's
  // own dict is read in place at each step (the body may update it: a change of size is
  // Python's RuntimeError), a document's mapping slot by slot; each tuple is made only when
  // asked.
  static Sequence items_of(const Value& mapping) { return Sequence(mapping, ItemsTag{}); }
  size_t size() const { return size_; }
  Value at(size_t index) const;
  // The (key, value) pair at `index` of an items_of sequence, valid until the mapping
  // changes; null for other sequences.
  const std::pair<Value, Value>* pair_at(size_t index) const;
  // Over a values document's container that no template has changed: the slot of item
  // `index`, to be read in place (for items_of, the key, and the value in `*value`); null
  // for every other sequence.
  const DocSlot* doc_item(size_t index, const DocSlot** value) const;

 private:
  struct ItemsTag {};
  Sequence(const Value& mapping, ItemsTag);

  // A document container changed in place while it is iterated: read the changed copy now.
  void follow_edit() const;

  Value holder_;
  mutable const DocSlot* doc_ = nullptr;
  mutable const std::vector<Value>* items_ = nullptr;
  mutable const std::vector<std::pair<Value, Value>>* pairs_ = nullptr;
  mutable std::pair<Value, Value> doc_pair_;  // what pair_at gives for a document mapping
  std::vector<Value> owned_;  // a string's characters
  bool items_mode_ = false;
  size_t size_ = 0;
};

bool is_iterable(const Value& value);
std::vector<Value> to_vector(const Value& value);

// Mapping access for Dict and DocDict; false when the key is not found.
bool mapping_find(const Value& mapping, const Value& key, Value& out);
bool mapping_find(const Value& mapping, std::string_view key, Value& out);
// Whether the key.size() bytes at `text` are `key`. Names and keys are short: a loop beats a
// call to memcmp.
inline bool same_text(const char* text, std::string_view key) {
  if (key.size() > 16) return std::memcmp(text, key.data(), key.size()) == 0;
  for (size_t i = 0; i < key.size(); ++i)
    if (text[i] != key[i]) return false;
  return true;
}

// The value of `key` in a document's Dict slot, or null.
const DocSlot* doc_find(const DocSlot& mapping, std::string_view key);
// Calls f(key, value) for each entry in insertion order.
template <class F>
void mapping_for_each(const Value& mapping_or_doc, F&& f) {
  const Value& mapping = resolved(mapping_or_doc);
  if (mapping.kind() == Kind::DocDict) {
    const DocSlot& slot = mapping.doc_slot();
    for (uint32_t i = 0; i < slot.size; ++i) f(Value::doc(slot.key(i)), Value::doc(slot.value(i)));
  } else {
    for (const auto& [k, v] : mapping.pairs()) f(k, v);
  }
}

// Converts a value into JSON (for tojson); throws EvalError for values JSON cannot hold.
Json to_json(const Value& value);

}  // namespace gkebuild::jinja
