// Global functions: range, dict, namespace, cycler, joiner, lipsum, and gkebuild's required().
#include <span>
#include <unordered_map>

#include "tool/core/jinja/runtime/interpreter.h"
#include "tool/core/jinja/runtime/limits.h"
#include "tool/core/jinja/runtime/objects.h"
#include "tool/core/jinja/builtins/randomness.h"
#include "tool/core/jinja/builtins/yaml_helpers.h"

namespace gkebuild::jinja {

namespace {

Value g_range(Interpreter&, CallArgs& args) {
  if (!args.keywords.empty()) throw EvalError("range() takes no keyword arguments");
  if (args.positional.empty() || args.positional.size() > 3)
    throw EvalError("range expected at most 3 arguments, got " + std::to_string(args.positional.size()));
  for (const Value& v : args.positional)
    if (!v.is_int() && !v.is_bool())
      throw EvalError("'" + std::string(type_name(v)) + "' object cannot be interpreted as an integer");
  int64_t start = 0, stop, step = 1;
  if (args.positional.size() == 1) {
    stop = args.positional[0].as_int();
  } else {
    start = args.positional[0].as_int();
    stop = args.positional[1].as_int();
    if (args.positional.size() == 3) step = args.positional[2].as_int();
  }
  if (step == 0) throw EvalError("range() arg 3 must not be zero");
  // Jinja's sandbox caps ranges at 100000 items; the plain environment does not, but a
  // huge range in a manifest template is always a mistake. Counted first, so that
  // range(10**9) is refused before anything is allocated: at most what one operation may
  // build (kMaxResultBytes of 40-byte values, 6,710,886 items).
  constexpr int64_t kMaxRange = static_cast<int64_t>(kMaxResultBytes / sizeof(Value));
  // In unsigned arithmetic, which wraps instead of overflowing (C++20 converts back modulo 2^64).
  const bool empty = step > 0 ? start >= stop : start <= stop;
  const auto ustart = static_cast<uint64_t>(start), ustop = static_cast<uint64_t>(stop), ustep = static_cast<uint64_t>(step);
  const uint64_t span = empty ? 0 : step > 0 ? ustop - ustart : ustart - ustop;
  const uint64_t magnitude = step > 0 ? ustep : 0 - ustep;
  const uint64_t count = span / magnitude + (span % magnitude != 0);
  if (count > static_cast<uint64_t>(kMaxRange))
    throw EvalError("range too big: more than " + std::to_string(kMaxRange) + " items (" +
                    std::to_string(kMaxResultBytes >> 20) + " MiB, what one operation may build)");
  std::vector<Value> items;
  items.reserve(static_cast<size_t>(count));
  for (uint64_t n = 0; n < count; ++n) items.push_back(Value::integer(static_cast<int64_t>(ustart + n * ustep)));
  return Value::list(std::move(items));
}

Value g_dict(Interpreter&, CallArgs& args) {
  std::vector<std::pair<Value, Value>> pairs;
  auto put = [&](const Value& k, const Value& v) {
    for (auto& p : pairs) {
      if (equals(p.first, k)) {
        p.second = v;
        return;
      }
    }
    pairs.emplace_back(k, v);
  };
  if (args.positional.size() > 1) throw EvalError("dict expected at most 1 argument, got " + std::to_string(args.positional.size()));
  if (!args.positional.empty()) {
    const Value& source = args.positional[0];
    if (source.is_mapping()) {
      mapping_for_each(source, put);
    } else {
      Sequence seq(source);
      for (size_t i = 0; i < seq.size(); ++i) {
        Sequence pair(seq.at(i));
        if (pair.size() != 2) throw EvalError("dictionary update sequence element #" + std::to_string(i) + " has wrong length");
        put(pair.at(0), pair.at(1));
      }
    }
  }
  for (const auto& [k, v] : args.keywords) put(Value::string(std::string(k)), v);
  return Value::dict(std::move(pairs));
}

Value g_namespace(Interpreter& in, CallArgs& args) {
  Value d = g_dict(in, args);
  auto ns = std::make_shared<Namespace>();
  for (const auto& [k, v] : d.pairs()) ns->set(to_str(k), v);
  return Value::object(std::move(ns));
}

struct Cycler : Object {
  std::vector<Value> items;
  size_t position = 0;
  std::string_view type_name() const override { return "Cycler"; }
  Value get_attr(std::string_view name) const override;
};

// next() and reset() move the cycler: what the next call gives changes.
struct CyclerMethod : Callable {
  CyclerMethod() : Callable(Effect::ChangesState) {}
  std::shared_ptr<Cycler> cycler;
  bool reset = false;
  std::string_view type_name() const override { return "method"; }
  Value call(Interpreter&, CallArgs&) override {
    if (reset) {
      cycler->position = 0;
      return Value::none();
    }
    Value item = cycler->items[cycler->position];
    cycler->position = (cycler->position + 1) % cycler->items.size();
    return item;
  }
};

Value Cycler::get_attr(std::string_view name) const {
  auto self = std::static_pointer_cast<Cycler>(std::const_pointer_cast<Object>(shared_from_this()));
  if (name == "current") return items[position];
  if (name == "next" || name == "reset") {
    auto method = std::make_shared<CyclerMethod>();
    method->cycler = self;
    method->reset = name == "reset";
    return Value::object(std::move(method));
  }
  return Object::get_attr(name);
}

Value g_cycler(Interpreter&, CallArgs& args) {
  if (args.positional.empty()) throw EvalError("at least one item has to be provided");
  auto cycler = std::make_shared<Cycler>();
  cycler->items = args.positional;
  return Value::object(std::move(cycler));
}

// Calling it changes what the next call gives (nothing the first time, the separator after).
struct Joiner : Callable {
  Joiner() : Callable(Effect::ChangesState) {}
  Value separator;
  bool used = false;
  std::string_view type_name() const override { return "Joiner"; }
  Value call(Interpreter&, CallArgs&) override {
    if (!used) {
      used = true;
      return Value::borrowed("");
    }
    return separator;
  }
};

Value g_joiner(Interpreter&, CallArgs& args) {
  Bound b = args.bind("joiner", {"sep"});
  auto joiner = std::make_shared<Joiner>();
  joiner->separator = b[0] ? *b[0] : Value::borrowed(", ");
  return Value::object(std::move(joiner));
}

Value g_required(Interpreter&, CallArgs& args) {
  Bound b = args.bind("required", {"value", "message"});
  if (!b[0]) throw EvalError("required() needs the value to check");
  return check_required(*b[0], b[1]);
}

// cycler() and joiner() make a new object each time: calling its methods is what changes it.
using enum Effect;
constexpr GlobalEntry kGlobals[] = {
    {"range", g_range, ReadsOnly}, {"dict", g_dict, ReadsOnly}, {"namespace", g_namespace, ReadsOnly},
    {"cycler", g_cycler, ReadsOnly}, {"joiner", g_joiner, ReadsOnly}, {"required", g_required, ReadsOnly},
    {"lipsum", lipsum_global, ChangesState},  // draws from the render's generator
};

}  // namespace

std::span<const GlobalEntry> global_entries() { return kGlobals; }

bool find_global(std::string_view name, Value& out) {
  static const std::unordered_map<std::string_view, Value> globals = [] {
    std::unordered_map<std::string_view, Value> map;
    for (const GlobalEntry& entry : kGlobals)
      map.emplace(entry.name, Value::object(std::make_shared<NativeFunction>(entry)));
    return map;
  }();
  auto found = globals.find(name);
  if (found == globals.end()) return false;
  out = found->second;
  return true;
}

}  // namespace gkebuild::jinja
