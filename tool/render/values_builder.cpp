#include "render/values_builder.h"

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

MappingBuilder::MappingBuilder(std::vector<std::pair<jinja::Value, jinja::Value>> pairs) : pairs_(std::move(pairs)) {
  if (pairs_.size() > kLinearScanLimit)
    for (std::size_t i = 0; i < pairs_.size(); ++i) index_.emplace(pairs_[i].first.str(), i);
}

jinja::Value* MappingBuilder::find(std::string_view key) {
  if (!index_.empty()) {
    auto found = index_.find(key);
    return found == index_.end() ? nullptr : &pairs_[found->second].second;
  }
  for (auto& [k, v] : pairs_)
    if (k.str() == key) return &v;
  return nullptr;
}

bool MappingBuilder::add(jinja::Value key, jinja::Value value) {
  if (find(key.str())) return false;
  pairs_.emplace_back(std::move(key), std::move(value));
  if (!index_.empty()) {
    index_.emplace(pairs_.back().first.str(), pairs_.size() - 1);
  } else if (pairs_.size() > kLinearScanLimit) {
    for (std::size_t i = 0; i < pairs_.size(); ++i) index_.emplace(pairs_[i].first.str(), i);
  }
  return true;
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
