#include "tool/core/jinja/values/json_document.h"

#include <algorithm>
#include <cstdint>
#include <forward_list>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tool/core/jinja/errors.h"

namespace gkebuild::jinja {
namespace {

// What the values of one JSON context hold besides the JSON they point into: the slots, and
// the text of integers beyond 64 bits (an error when a template reads one, as in a values
// file). A project renders one context per Job and expands each argument with a small one:
// their slots fit in the document itself, and the document is then the only allocation.
struct JsonDocument : Object {
  JsonDocument() {}  // user-provided: make_shared then leaves the slots unwritten, not zeroed
  static constexpr size_t kInlineSlots = 32;
  DocSlot root{};
  DocSlot inline_slots[kInlineSlots];
  std::vector<std::unique_ptr<DocSlot[]>> blocks;  // beyond the inline slots, never moved
  std::forward_list<std::string> big_integers;     // nothing allocated while empty
};

[[noreturn, gnu::cold]] void fail_slot_size() {
  throw EvalError("a string or container of the context has more than 2^32 entries");
}

inline uint32_t slot_size(size_t size) {
  if (size > std::numeric_limits<uint32_t>::max()) fail_slot_size();
  return static_cast<uint32_t>(size);
}

// Writes the slots of a document in one walk of the JSON, containers from a work list rather
// than by recursion (a context may nest deeply; nothing reads that deep until a template does).
class DocumentWriter {
 public:
  explicit DocumentWriter(JsonDocument& document)
      : document_(document), next_(document.inline_slots), left_(JsonDocument::kInlineSlots) {
    pending_.clear();
  }

  void write(const Json& json, DocSlot& slot) {
    put(json, slot);
    drain();
  }

  void write_mapping(std::initializer_list<const Json*> parts, DocSlot& slot) {
    size_t size = 0;
    for (const Json* part : parts) size += part->get_ref<const Json::object_t&>().size();
    DocSlot* keys = begin_mapping(size, slot);
    DocSlot* values = keys ? const_cast<DocSlot*>(slot.items) + 1 : nullptr;
    for (const Json* part : parts)
      for (const auto& [key, value] : part->get_ref<const Json::object_t&>()) {
        put_string(key, *keys++);
        put(value, *values++);
      }
    drain();
  }

 private:
  // A scalar is written now; a container's entries once it is taken from the work list.
  void put(const Json& json, DocSlot& slot) {
    slot.size = 0;
    slot.i = 0;
    switch (json.type()) {
      case Json::value_t::boolean:
        slot.type = *json.get_ptr<const Json::boolean_t*>() ? DocSlot::True : DocSlot::False;
        return;
      case Json::value_t::number_integer:
        slot.type = DocSlot::Int;
        slot.i = *json.get_ptr<const Json::number_integer_t*>();
        return;
      case Json::value_t::number_unsigned: return put_unsigned(*json.get_ptr<const Json::number_unsigned_t*>(), slot);
      case Json::value_t::number_float:
        slot.type = DocSlot::Float;
        slot.f = *json.get_ptr<const Json::number_float_t*>();
        return;
      case Json::value_t::string: return put_string(*json.get_ptr<const Json::string_t*>(), slot);
      case Json::value_t::array:
      case Json::value_t::object:
        slot.type = DocSlot::Null;  // until drain() fills it
        pending_.emplace_back(&json, &slot);
        return;
      default: slot.type = DocSlot::Null; return;  // null (binary and discarded are never in a context)
    }
  }

  void put_unsigned(uint64_t value, DocSlot& slot) {
    if (value <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      slot.type = DocSlot::Int;
      slot.i = static_cast<int64_t>(value);
      return;
    }
    put_string(document_.big_integers.emplace_front(std::to_string(value)), slot);
    slot.type = DocSlot::BigInt;
  }

  static void put_string(const std::string& text, DocSlot& slot) {
    slot.type = DocSlot::Str;
    slot.size = slot_size(text.size());
    slot.s = text.data();
  }

  // Room for `count` slots: the rest of the inline slots or of the last block, else a new
  // block twice as large as the one before.
  DocSlot* take(size_t count) {
    if (count > left_) {
      const size_t size = std::max(count, 2 * (document_.blocks.empty() ? JsonDocument::kInlineSlots : block_size_));
      document_.blocks.emplace_back(new DocSlot[size]);
      next_ = document_.blocks.back().get();
      left_ = block_size_ = size;
    }
    DocSlot* slots = next_;
    next_ += count;
    left_ -= count;
    return slots;
  }

  void drain() {
    while (!pending_.empty()) {
      const auto [json, slot] = pending_.back();
      pending_.pop_back();
      if (json->is_array()) fill_list(json->get_ref<const Json::array_t&>(), *slot);
      else fill_mapping(json->get_ref<const Json::object_t&>(), *slot);
    }
  }

  void fill_list(const Json::array_t& list, DocSlot& slot) {
    DocSlot* items = take(list.size());
    slot.type = DocSlot::List;
    slot.size = slot_size(list.size());
    slot.items = items;
    for (const Json& item : list) put(item, *items++);
  }

  void fill_mapping(const Json::object_t& mapping, DocSlot& slot) {
    DocSlot* keys = begin_mapping(mapping.size(), slot);
    DocSlot* values = keys ? const_cast<DocSlot*>(slot.items) + 1 : nullptr;
    for (const auto& [key, value] : mapping) {
      put_string(key, *keys++);
      put(value, *values++);
    }
  }

  // A mapping's slots as a values file's: a Keys slot and the values, then the keys (null
  // for an empty mapping).
  DocSlot* begin_mapping(size_t size, DocSlot& slot) {
    slot.type = DocSlot::Dict;
    slot.size = slot_size(size);
    slot.items = nullptr;
    if (size == 0) return nullptr;
    DocSlot* entries = take(2 * size + 1);
    DocSlot* keys = entries + size + 1;
    entries[0].type = DocSlot::Keys;
    entries[0].size = slot.size;
    entries[0].items = keys;
    slot.items = entries;
    return keys;
  }

  JsonDocument& document_;
  DocSlot* next_;
  size_t left_;
  size_t block_size_ = 0;
  // The containers whose entries are still to be written; one list a thread, kept between
  // documents so that a small context allocates nothing for it.
  static thread_local std::vector<std::pair<const Json*, DocSlot*>> pending_;
};

thread_local std::vector<std::pair<const Json*, DocSlot*>> DocumentWriter::pending_;

}  // namespace

Value json_document(const Json& json) {
  auto document = std::make_shared<JsonDocument>();
  DocumentWriter(*document).write(json, document->root);
  const DocSlot& root = document->root;  // taken before the pointer is moved
  return Value::doc_root(root, std::move(document));
}

Value json_document(std::initializer_list<const Json*> mappings) {
  for (const Json* mapping : mappings)
    if (!mapping->is_object()) throw EvalError("a context to merge is not a mapping");
  auto document = std::make_shared<JsonDocument>();
  DocumentWriter(*document).write_mapping(mappings, document->root);
  const DocSlot& root = document->root;
  return Value::doc_root(root, std::move(document));
}

}  // namespace gkebuild::jinja
