#include "tool/core/jinja/runtime/objects.h"

namespace gkebuild::jinja {

Value Macro::get_attr(std::string_view attr) const {
  if (attr == "name") return Value::borrowed(name);
  if (attr == "arguments") {
    std::vector<Value> params;
    for (const auto& p : signature->params) params.push_back(Value::borrowed(p));
    return Value::tuple(std::move(params));
  }
  if (attr == "catch_kwargs") return Value::boolean(signature->uses_kwargs);
  if (attr == "catch_varargs") return Value::boolean(signature->uses_varargs);
  if (attr == "caller") return Value::boolean(signature->uses_caller);
  return Object::get_attr(attr);
}

Value Namespace::get_attr(std::string_view name) const {
  for (const auto& [key, value] : attrs)
    if (key == name) return value;
  return Value::undefined_with("'Namespace object' has no attribute '" + std::string(name) + "'");
}

void Namespace::set(std::string_view name, Value value) {
  for (auto& [key, existing] : attrs) {
    if (key == name) {
      existing = std::move(value);
      return;
    }
  }
  attrs.emplace_back(std::string(name), std::move(value));
}

void Namespace::repr(std::string& out) const {
  out += "<Namespace {";
  for (size_t i = 0; i < attrs.size(); ++i) {
    if (i) out += ", ";
    append_str_repr(out, attrs[i].first);
    out += ": ";
    append_repr(out, attrs[i].second);
  }
  out += "}>";
}

Value Module::get_attr(std::string_view attr) const {
  auto module_frame = frame.lock();
  if (const Value* v = module_frame ? module_frame->find_local(attr) : nullptr) {
    if (!attr.empty() && attr[0] != '_') return *v;
  }
  return Value::undefined_with("'" + name + "' has no attribute '" + std::string(attr) + "'");
}

Value BoundMethod::call(Interpreter& interp, CallArgs& args) { return call_method(interp, self, method, args); }

void BoundMethod::repr(std::string& out) const {
  out += "<built-in method " + std::string(method.name) + " of " + std::string(jinja::type_name(self)) + " object>";
}

}  // namespace gkebuild::jinja
