#include "images/dockerfile_build/stage_plan.h"

#include <cctype>

#include "base/error.h"
#include "base/printable.h"
#include "images/dockerfile/dockerfile_error.h"
#include "images/dockerfile/words.h"

namespace gkebuild::build {
using dockerfile::DockerfileError;
using dockerfile::Instruction;
using dockerfile::Keyword;

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool is_stage_index(const std::string& s) {
  return !s.empty() && s.size() < 6 && s.find_first_not_of("0123456789") == std::string::npos;
}

StagePlan::StagePlan(const dockerfile::Dockerfile& dockerfile, const std::map<std::string, std::string>& build_args,
                     const std::string& target)
    : dockerfile_(dockerfile) {
  split_stages();
  read_global_args(build_args);
  target_ = find_target(target);
  need(target_);
}

void StagePlan::fail(const Instruction& in, int column, const std::string& message) const {
  throw DockerfileError(dockerfile_.file, in.line, column, printable(message), dockerfile_.source);
}

void StagePlan::split_stages() {
  const auto& ins = dockerfile_.instructions;
  for (size_t i = 0; i < ins.size(); ++i) {
    if (ins[i].keyword != Keyword::kFrom) continue;
    if (!stages_.empty()) stages_.back().end = i;
    Stage stage{i, ins.size(), ""};
    std::vector<std::string> parts;
    try {
      parts = dockerfile::split_words(ins[i].arguments, [](std::string_view) { return std::nullopt; }, dockerfile_.escape);
    } catch (const InputError& e) {
      fail(ins[i], ins[i].column, e.what());
    }
    bool alias = parts.size() == 3 && lower(parts[1]) == "as";
    if (parts.size() != 1 && !alias) fail(ins[i], ins[i].column, "FROM takes one image: FROM IMAGE [AS NAME]");
    if (alias) {
      stage.name = lower(parts[2]);
      if (stage_named(stage.name, stages_.size())) fail(ins[i], ins[i].column, "a second stage named '" + parts[2] + "'");
    }
    stages_.push_back(stage);
  }
}

void StagePlan::read_global_args(const std::map<std::string, std::string>& build_args) {
  auto lookup = global_lookup();
  for (const auto& in : dockerfile_.instructions) {
    if (in.keyword == Keyword::kFrom) break;
    std::vector<std::string> words;
    try {
      words = dockerfile::split_words(in.arguments, lookup, dockerfile_.escape);
    } catch (const InputError& e) {
      fail(in, in.column, e.what());
    }
    for (const auto& w : words) {
      size_t eq = w.find('=');
      std::string name = w.substr(0, eq);
      if (name.empty()) fail(in, in.column, "ARG needs a name: ARG NAME[=default]");
      if (auto given = build_args.find(name); given != build_args.end()) {
        global_args_[name] = given->second;
      } else if (eq != std::string::npos) {
        global_args_[name] = w.substr(eq + 1);
      }
    }
  }
}

dockerfile::Lookup StagePlan::global_lookup() const {
  return [this](std::string_view name) -> std::optional<std::string> {
    auto it = global_args_.find(std::string(name));
    return it == global_args_.end() ? std::nullopt : std::optional(it->second);
  };
}

std::optional<size_t> StagePlan::stage_named(const std::string& name, size_t before) const {
  for (size_t s = 0; s < before && s < stages_.size(); ++s)
    if (!stages_[s].name.empty() && stages_[s].name == lower(name)) return s;
  return std::nullopt;
}

size_t StagePlan::stage_of(size_t index) const {
  size_t stage = 0;
  while (stage + 1 < stages_.size() && stages_[stage + 1].begin <= index) ++stage;
  return stage;
}

size_t StagePlan::find_target(const std::string& target) const {
  if (target.empty()) return stages_.size() - 1;
  if (auto s = stage_named(target, stages_.size())) return *s;
  std::string names;
  for (const auto& s : stages_)
    if (!s.name.empty()) names += (names.empty() ? "" : ", ") + s.name;
  throw DockerfileError(dockerfile_.file, 0, 0,
                        "--target " + printable(target) + ": no stage of that name (the stages are: " +
                            (names.empty() ? "none named" : names) + ")");
}

std::string StagePlan::from_reference(const Instruction& in) const {
  auto lookup = global_lookup();
  try {
    return dockerfile::split_words(in.arguments, lookup, dockerfile_.escape).at(0);
  } catch (const InputError& e) {
    fail(in, in.column, e.what());
  }
}

std::optional<std::string> StagePlan::copy_from(const Instruction& in) const {
  const auto* flag = in.flag("from");
  if (flag == nullptr) return std::nullopt;
  auto lookup = global_lookup();
  try {
    return dockerfile::expand_word(flag->value, lookup, dockerfile_.escape);
  } catch (const InputError& e) {
    fail(in, flag->column, e.what());
  }
}

void StagePlan::need(size_t stage) {
  if (!needed_.insert(stage).second) return;
  auto& depends = dependencies_[stage];
  const auto& ins = dockerfile_.instructions;
  if (auto s = stage_named(from_reference(ins[stages_[stage].begin]), stage)) {
    depends.insert(*s);
    need(*s);
  }
  for (size_t i = stages_[stage].begin + 1; i < stages_[stage].end; ++i) {
    auto from = copy_from(ins[i]);
    if (!from) continue;
    int column = ins[i].flag("from")->column;
    if (auto s = stage_named(*from, stage)) {
      depends.insert(*s);
      need(*s);
    } else if (is_stage_index(*from)) {
      size_t index = std::stoul(*from);
      if (index >= stage) fail(ins[i], column, "COPY --from=" + *from + ": no earlier stage has that index");
      depends.insert(index);
      need(index);
    } else if (stage_named(*from, stages_.size())) {
      fail(ins[i], column, "COPY --from=" + *from + ": that stage comes later in the Dockerfile");
    }
  }
}

}  // namespace gkebuild::build
