#include "tool/core/jinja/values/value.h"

#include <cmath>
#include <cstring>
#include <deque>
#include <mutex>

#include "tool/core/jinja/errors.h"
#include "tool/core/jinja/runtime/limits.h"
#include "tool/core/jinja/values/unicode.h"

namespace gkebuild::jinja {

Value Object::get_attr(std::string_view name) const {
  return Value::undefined_with("'" + std::string(type_name()) + " object' has no attribute '" + std::string(name) + "'");
}

void Object::repr(std::string& out) const {
  out += "<";
  out += type_name();
  out += " object>";
}

namespace {
// What a box costs beside its payload: the object and make_shared's counts.
constexpr uint64_t kBoxOverhead = 16;

// Counts `now` bytes for a box that had counted `charged`; the budget's error leaves
// `charged` as it was.
void charge_to(uint64_t& charged, uint64_t now) {
  if (now > charged) RenderMemory::charge(now - charged);
  else RenderMemory::release(charged - now);
  charged = now;
}
}  // namespace

StrBox::~StrBox() { RenderMemory::release(charged); }

void ListBox::recharge() {
  if (items.size() > kMaxResultBytes / sizeof(Value)) fail_result_size(items.size(), sizeof(Value));
  charge_to(charged, sizeof(ListBox) + kBoxOverhead + items.capacity() * sizeof(Value));
}

void DictBox::recharge() {
  if (pairs.size() > kMaxResultBytes / sizeof(pairs[0])) fail_result_size(pairs.size(), sizeof(pairs[0]));
  charge_to(charged, sizeof(DictBox) + kBoxOverhead + pairs.capacity() * sizeof(pairs[0]));
}

Value Value::string(std::string s) {
  // Every string a template makes passes here: the last check of the one operation's limit
  // (most operations check before they build), and the count of what the render holds.
  if (s.size() > kMaxResultBytes) fail_result_size(s.size(), 1);
  auto box = std::make_shared<StrBox>();
  box->text = std::move(s);
  const uint64_t heap = box->text.capacity() > 15 ? box->text.capacity() + 1 : 0;  // beyond the inline buffer
  charge_to(box->charged, sizeof(StrBox) + kBoxOverhead + heap);
  Value v(Kind::Str);
  v.s_ = box->text.data();
  v.n_ = box->text.size();
  v.obj_ = std::move(box);
  return v;
}

namespace {
// A chain of containers nested 200,000 deep would be freed by as many nested destructor
// calls: containers owned only by the one being freed are moved to a work list instead,
// emptied there and freed one by one.
void free_iteratively(std::vector<Value>* items, std::vector<std::pair<Value, Value>>* pairs) {
  std::vector<std::shared_ptr<Object>> pending;
  auto take = [&](Value& v) {
    if ((v.kind() == Kind::List || v.kind() == Kind::Tuple || v.kind() == Kind::Dict) &&
        v.object_shared().use_count() == 1)
      pending.push_back(v.take_object());
  };
  auto drain = [&](std::vector<Value>* list, std::vector<std::pair<Value, Value>>* map) {
    if (list)
      for (Value& v : *list) take(v);
    if (map) {
      for (auto& [k, v] : *map) {
        take(k);
        take(v);
      }
    }
  };
  drain(items, pairs);
  while (!pending.empty()) {
    std::shared_ptr<Object> box = std::move(pending.back());
    pending.pop_back();
    if (auto* list = dynamic_cast<ListBox*>(box.get())) {
      drain(&list->items, nullptr);
      list->items.clear();
    } else if (auto* map = dynamic_cast<DictBox*>(box.get())) {
      drain(nullptr, &map->pairs);
      map->pairs.clear();
    }
  }
}
}  // namespace

ListBox::~ListBox() {
  free_iteratively(&items, nullptr);
  RenderMemory::release(charged);
}
DictBox::~DictBox() {
  free_iteratively(nullptr, &pairs);
  RenderMemory::release(charged);
}

void fail_big_integer(std::string_view text) {
  throw EvalError("integer " + std::string(text) + " in the context does not fit in a signed 64-bit integer");
}

Value Value::doc_root(const DocSlot& root, std::shared_ptr<Object> document) {
  Value v = doc(root);
  if (v.is_str() || v.is_doc()) v.obj_ = std::move(document);
  return v;
}

const Value& edit_in_place(const Value& doc_container) {
  if (const Value* edited = doc_container.doc_edited()) return *edited;
  Value copy;
  if (doc_container.kind() == Kind::DocList) {
    copy = Value::list(to_vector(doc_container));
  } else {
    std::vector<std::pair<Value, Value>> pairs;
    mapping_for_each(doc_container, [&](const Value& k, const Value& v) { pairs.emplace_back(k, v); });
    copy = Value::dict(std::move(pairs));
  }
  // Kept until the process exits, as the documents of a command's values files are. Renders
  // on several threads (a project's items) change their own documents at once.
  static std::mutex copies_mutex;
  static std::deque<Value> copies;
  std::lock_guard lock(copies_mutex);
  const Value& kept = copies.emplace_back(std::move(copy));
  auto& slot = const_cast<DocSlot&>(doc_container.doc_slot());  // a document is ours to change
  slot.type = DocSlot::Edited;
  slot.edited = &kept;
  return kept;
}

Value Value::list(std::vector<Value> items) {
  auto box = std::make_shared<ListBox>();
  box->items = std::move(items);
  box->recharge();
  Value v(Kind::List);
  v.obj_ = std::move(box);
  return v;
}

Value Value::tuple(std::vector<Value> items) {
  Value v = list(std::move(items));
  v.kind_ = Kind::Tuple;
  return v;
}

Value Value::group_tuple(Value grouper, Value list) {
  Value v = tuple({std::move(grouper), std::move(list)});
  static_cast<ListBox*>(v.obj_.get())->group = true;
  return v;
}

bool Value::is_group_tuple() const {
  return kind_ == Kind::Tuple && static_cast<const ListBox*>(obj_.get())->group;
}

Value Value::dict(std::vector<std::pair<Value, Value>> items) {
  auto box = std::make_shared<DictBox>();
  box->pairs = std::move(items);
  box->recharge();
  Value v(Kind::Dict);
  v.obj_ = std::move(box);
  return v;
}

Value Value::object(std::shared_ptr<Object> object) {
  Value v(Kind::Object);
  v.obj_ = std::move(object);
  return v;
}

Value Value::undefined_with(std::string message) {
  auto box = std::make_shared<StrBox>();
  box->text = std::move(message);
  Value v;
  v.obj_ = std::move(box);
  return v;
}

std::string Value::undefined_message() const {
  if (obj_) return static_cast<StrBox*>(obj_.get())->text;
  if (dict_attribute_) return "'dict object' has no attribute '" + std::string(s_, n_) + "'";
  if (n_ == 0) return "undefined value";
  return "'" + std::string(s_, n_) + "' is undefined";
}

const std::vector<Value>& Value::items() const { return static_cast<ListBox*>(obj_.get())->items; }
const std::vector<std::pair<Value, Value>>& Value::pairs() const { return static_cast<DictBox*>(obj_.get())->pairs; }
std::vector<Value>& Value::mutable_items() const { return static_cast<ListBox*>(obj_.get())->items; }
std::vector<std::pair<Value, Value>>& Value::mutable_pairs() const { return static_cast<DictBox*>(obj_.get())->pairs; }

std::string_view type_name(const Value& value) {
  switch (value.kind()) {
    case Kind::Undefined: return "Undefined";
    case Kind::None: return "NoneType";
    case Kind::Bool: return "bool";
    case Kind::Int: return "int";
    case Kind::Float: return "float";
    case Kind::Str: return "str";
    case Kind::List:
    case Kind::DocList: return "list";
    case Kind::Tuple: return "tuple";
    case Kind::Dict:
    case Kind::DocDict: return "dict";
    case Kind::Object: return value.object_ptr()->type_name();
  }
  return "object";
}

std::string object_type_repr(const Value& value) {
  if (value.is_none()) return "None";
  return std::string(type_name(value)) + " object";
}

bool truthy(const Value& value) {
  switch (value.kind()) {
    case Kind::Undefined:
    case Kind::None: return false;
    case Kind::Bool: return value.as_bool();
    case Kind::Int: return value.as_int() != 0;
    case Kind::Float: return value.as_float() != 0.0;
    case Kind::Str: return !value.str().empty();
    case Kind::List:
    case Kind::Tuple: return !value.items().empty();
    case Kind::Dict: return !value.pairs().empty();
    case Kind::DocList:
    case Kind::DocDict: {
      const Value& current = resolved(value);
      return &current == &value ? value.doc_slot().size != 0 : truthy(current);
    }
    case Kind::Object: return true;
  }
  return false;
}

size_t length(const Value& value) {
  switch (value.kind()) {
    case Kind::Undefined: return 0;
    case Kind::Str: return code_point_count(value.str());
    case Kind::List:
    case Kind::Tuple: return value.items().size();
    case Kind::Dict: return value.pairs().size();
    case Kind::DocList:
    case Kind::DocDict: {
      const Value& current = resolved(value);
      return &current == &value ? value.doc_slot().size : length(current);
    }
    default: break;
  }
  if (value.is_object()) {
    Sequence seq(value);
    return seq.size();
  }
  throw EvalError("object of type '" + std::string(type_name(value)) + "' has no len()");
}

bool is_iterable(const Value& value) {
  switch (value.kind()) {
    case Kind::Undefined:
    case Kind::Str:
    case Kind::List:
    case Kind::Tuple:
    case Kind::Dict:
    case Kind::DocList:
    case Kind::DocDict: return true;
    default: return false;
  }
}

Sequence::Sequence(const Value& value_or_doc) : holder_(resolved(value_or_doc)) {
  const Value& value = holder_;
  switch (value.kind()) {
    case Kind::Undefined: return;
    case Kind::Str:
      require_result_size(code_point_count(value.str()), sizeof(Value));  // a value per character
      for (std::string_view c : split_code_points(value.str())) owned_.push_back(Value::piece_of(value, c));
      items_ = &owned_;
      size_ = owned_.size();
      return;
    case Kind::List:
    case Kind::Tuple:
      items_ = &value.items();
      size_ = items_->size();
      return;
    case Kind::Dict:
      pairs_ = &value.pairs();
      size_ = pairs_->size();
      return;
    case Kind::DocList:
    case Kind::DocDict:
      doc_ = &value.doc_slot();
      size_ = doc_->size;
      return;
    default:
      throw EvalError("'" + std::string(type_name(value)) + "' object is not iterable");
  }
}

Sequence::Sequence(const Value& mapping_or_doc, ItemsTag) : holder_(resolved(mapping_or_doc)), items_mode_(true) {
  const Value& mapping = holder_;
  if (mapping.kind() == Kind::DocDict) {
    doc_ = &mapping.doc_slot();  // read in place; pair_at notices when a template changes it
    size_ = doc_->size;
    return;
  }
  pairs_ = &mapping.pairs();  // DictBox's vector: holder_ keeps it, pair_at re-reads it
  size_ = pairs_->size();
}

void Sequence::follow_edit() const {
  const Value& edited = *doc_->edited;
  doc_ = nullptr;
  if (edited.kind() == Kind::Dict) pairs_ = &edited.pairs();
  else items_ = &edited.items();
}

const std::pair<Value, Value>* Sequence::pair_at(size_t index) const {
  if (!items_mode_) return nullptr;
  if (doc_) {
    if (doc_->type != DocSlot::Edited) {
      doc_pair_.first = Value::doc(doc_->key(static_cast<uint32_t>(index)));
      doc_pair_.second = Value::doc(doc_->value(static_cast<uint32_t>(index)));
      return &doc_pair_;
    }
    follow_edit();
  }
  if (pairs_->size() != size_) throw EvalError("dictionary changed size during iteration");
  return &(*pairs_)[index];
}

const DocSlot* Sequence::doc_item(size_t index, const DocSlot** value) const {
  if (!doc_ || doc_->type == DocSlot::Edited) return nullptr;
  const auto i = static_cast<uint32_t>(index);
  if (doc_->type == DocSlot::List) return items_mode_ ? nullptr : &doc_->items[i];
  if (items_mode_) *value = &doc_->value(i);
  return &doc_->key(i);
}

Value Sequence::at(size_t index) const {
  if (items_mode_) {
    const auto* pair = pair_at(index);
    return Value::tuple({pair->first, pair->second});
  }
  if (doc_) {
    if (doc_->type != DocSlot::Edited)
      return Value::doc(holder_.kind() == Kind::DocDict ? doc_->key(static_cast<uint32_t>(index)) : doc_->items[index]);
    follow_edit();
  }
  if (items_) return (*items_)[index];
  return (*pairs_)[index].first;
}

std::vector<Value> to_vector(const Value& value) {
  if (value.kind() == Kind::List || value.kind() == Kind::Tuple) return value.items();
  Sequence seq(value);
  // A 200 MB string is 200 million items of 40 bytes: refused before they are made.
  require_result_size(seq.size(), sizeof(Value));
  std::vector<Value> out;
  out.reserve(seq.size());
  for (size_t i = 0; i < seq.size(); ++i) out.push_back(seq.at(i));
  return out;
}

const DocSlot* doc_find(const DocSlot& mapping, std::string_view key) {
  const DocSlot* keys = mapping.keys();
  for (uint32_t i = 0; i < mapping.size; ++i) {
    // Length and first letter rule out most keys before a comparison.
    if (keys[i].size == key.size() && (key.empty() || keys[i].s[0] == key[0]) && same_text(keys[i].s, key))
      return &mapping.value(i);
  }
  return nullptr;
}

bool mapping_find(const Value& mapping, std::string_view key, Value& out) {
  if (mapping.kind() == Kind::DocDict) {
    if (const Value* edited = mapping.doc_edited()) return mapping_find(*edited, key, out);
    const DocSlot& slot = mapping.doc_slot();
    if (const DocSlot* found = doc_find(slot, key)) {
      out = Value::doc(*found);
      return true;
    }
    return false;
  }
  for (const auto& [k, v] : mapping.pairs()) {
    // The first letter rules out most keys before a comparison (attribute lookups land here).
    if (k.is_str() && k.str().size() == key.size() && (key.empty() || k.str()[0] == key[0]) && k.str() == key) {
      out = v;
      return true;
    }
  }
  return false;
}

bool mapping_find(const Value& mapping, const Value& key, Value& out) {
  if (key.is_str()) return mapping_find(mapping, key.str(), out);
  if (mapping.kind() == Kind::DocDict) {  // a document's keys are strings
    const Value* edited = mapping.doc_edited();
    return edited && mapping_find(*edited, key, out);
  }
  for (const auto& [k, v] : mapping.pairs()) {
    if (equals(k, key)) {
      out = v;
      return true;
    }
  }
  return false;
}

namespace {
bool sequence_equals(const Value& a, const Value& b) {
  ValueNesting nesting;
  Sequence sa(a), sb(b);
  if (sa.size() != sb.size()) return false;
  for (size_t i = 0; i < sa.size(); ++i)
    if (!equals(sa.at(i), sb.at(i))) return false;
  return true;
}

bool mapping_equals(const Value& a, const Value& b) {
  ValueNesting nesting;
  if (length(a) != length(b)) return false;
  bool same = true;
  mapping_for_each(a, [&](const Value& k, const Value& v) {
    Value other;
    if (same && (!mapping_find(b, k, other) || !equals(v, other))) same = false;
  });
  return same;
}
}  // namespace

bool equals(const Value& a, const Value& b) {
  if (a.is_number() && b.is_number()) {
    if (a.is_float() || b.is_float()) return a.as_float() == b.as_float();
    return a.as_int() == b.as_int();
  }
  if (a.is_str() && b.is_str()) return a.str() == b.str();
  if (a.is_none() || b.is_none()) return a.is_none() && b.is_none();
  if (a.is_undefined() || b.is_undefined()) return a.is_undefined() && b.is_undefined();
  bool a_list = a.kind() == Kind::List || a.kind() == Kind::DocList;
  bool b_list = b.kind() == Kind::List || b.kind() == Kind::DocList;
  if (a_list && b_list) return sequence_equals(a, b);
  if (a.kind() == Kind::Tuple && b.kind() == Kind::Tuple) return sequence_equals(a, b);
  if (a.is_mapping() && b.is_mapping()) return mapping_equals(a, b);
  if (a.is_object() && b.is_object()) return a.object_ptr() == b.object_ptr();
  return false;
}

namespace {
[[noreturn]] void unorderable(const Value& a, const Value& b) {
  throw EvalError("'<' not supported between instances of '" + std::string(type_name(a)) + "' and '" +
                  std::string(type_name(b)) + "'");
}

int three_way(double x, double y) { return x < y ? -1 : (x > y ? 1 : 0); }
}  // namespace

int compare(const Value& a, const Value& b, bool case_insensitive) {
  if (a.is_number() && b.is_number()) {
    if (a.is_float() || b.is_float()) return three_way(a.as_float(), b.as_float());
    int64_t x = a.as_int(), y = b.as_int();
    return x < y ? -1 : (x > y ? 1 : 0);
  }
  if (a.is_str() && b.is_str()) {
    if (case_insensitive) {
      std::string x = to_lower(a.str()), y = to_lower(b.str());
      return x.compare(y) < 0 ? -1 : (x.compare(y) > 0 ? 1 : 0);
    }
    int c = a.str().compare(b.str());
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  bool a_list = a.kind() == Kind::List || a.kind() == Kind::DocList;
  bool b_list = b.kind() == Kind::List || b.kind() == Kind::DocList;
  if ((a_list && b_list) || (a.kind() == Kind::Tuple && b.kind() == Kind::Tuple)) {
    ValueNesting nesting;
    Sequence sa(a), sb(b);
    for (size_t i = 0; i < sa.size() && i < sb.size(); ++i) {
      if (equals(sa.at(i), sb.at(i))) continue;
      return compare(sa.at(i), sb.at(i), case_insensitive);
    }
    return sa.size() < sb.size() ? -1 : (sa.size() > sb.size() ? 1 : 0);
  }
  unorderable(a, b);
}

Json to_json(const Value& value) {
  switch (value.kind()) {
    case Kind::None: return nullptr;
    case Kind::Bool: return value.as_bool();
    case Kind::Int: return value.as_int();
    case Kind::Float: return value.as_float();
    case Kind::Str: return std::string(value.str());
    case Kind::List:
    case Kind::Tuple:
    case Kind::DocList: {
      ValueNesting nesting;
      Json out = Json::array();
      Sequence items(value);  // a document's list as a template changed it, if it did
      for (size_t i = 0; i < items.size(); ++i) out.push_back(to_json(items.at(i)));
      return out;
    }
    case Kind::Dict:
    case Kind::DocDict: {
      ValueNesting nesting;
      Json out = Json::object();
      mapping_for_each(value, [&](const Value& k, const Value& v) {
        if (!k.is_str()) throw EvalError("keys must be str for JSON, not " + std::string(type_name(k)));
        out[std::string(k.str())] = to_json(v);
      });
      return out;
    }
    default: break;
  }
  throw EvalError("Object of type " + std::string(type_name(value)) + " is not JSON serializable");
}

}  // namespace gkebuild::jinja
