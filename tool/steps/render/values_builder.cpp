#include "tool/steps/render/values_builder.h"

namespace gkebuild::render {

ValuesText::ValuesText(std::string text) : store_(std::make_shared<Store>()) {
  store_->text = std::move(text);
  owner_ = jinja::Value::object(store_);
}

jinja::Value ValuesText::copy(std::string_view decoded) {
  return jinja::Value::piece_of(owner_, store_->copies.emplace_back(decoded));
}

namespace {
constexpr std::size_t kLinearScanLimit = 16;
}

jinja::Value* MappingBuilder::find(std::string_view key) {
  if (!index_.empty()) {
    auto found = index_.find(key);
    return found == index_.end() ? nullptr : &(*scratch_)[start_ + found->second].second;
  }
  // Length and first letter rule out most keys without a call to memcmp.
  for (std::size_t i = start_; i < scratch_->size(); ++i) {
    const std::string_view known = (*scratch_)[i].first.str();
    if (known.size() == key.size() && (key.empty() || known[0] == key[0]) && known == key) return &(*scratch_)[i].second;
  }
  return nullptr;
}

bool MappingBuilder::add(jinja::Value key, jinja::Value value) {
  if (find(key.str())) return false;
  scratch_->emplace_back(std::move(key), std::move(value));
  const std::size_t size = scratch_->size() - start_;
  if (!index_.empty()) {
    index_.emplace(scratch_->back().first.str(), size - 1);
  } else if (size > kLinearScanLimit) {
    for (std::size_t i = 0; i < size; ++i) index_.emplace((*scratch_)[start_ + i].first.str(), i);
  }
  return true;
}

jinja::Value MappingBuilder::finish() {
  std::vector<ValuePair> pairs(std::make_move_iterator(scratch_->begin() + static_cast<std::ptrdiff_t>(start_)),
                               std::make_move_iterator(scratch_->end()));
  scratch_->resize(start_);
  return jinja::Value::dict(std::move(pairs));
}

jinja::Value finish_list(std::vector<jinja::Value>& scratch, std::size_t start) {
  std::vector<jinja::Value> items(std::make_move_iterator(scratch.begin() + static_cast<std::ptrdiff_t>(start)),
                                  std::make_move_iterator(scratch.end()));
  scratch.resize(start);
  return jinja::Value::list(std::move(items));
}

jinja::Value scalar_to_value(const yamlfile::ScalarValue& typed, jinja::Value text) {
  switch (typed.kind) {
    case yamlfile::ScalarKind::Null: return jinja::Value::none();
    case yamlfile::ScalarKind::Bool: return jinja::Value::boolean(typed.boolean);
    case yamlfile::ScalarKind::Integer: return jinja::Value::integer(typed.integer);
    case yamlfile::ScalarKind::Float: return jinja::Value::floating(typed.number);
    case yamlfile::ScalarKind::String: break;
  }
  return text;
}

std::string describe_value(const jinja::Value& value) {
  if (value.is_mapping()) return "a mapping";
  if (value.is_list_like()) return "a list";
  if (value.is_none()) return "null";
  if (value.is_bool()) return value.as_bool() ? "a boolean (true)" : "a boolean (false)";
  if (value.is_int()) return "an integer (" + std::to_string(value.as_int()) + ")";
  if (value.is_float()) return "a number";
  return "a string (\"" + std::string(value.str()) + "\")";
}

}  // namespace gkebuild::render
