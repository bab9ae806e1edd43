// The stages of a multi-stage Dockerfile and what building one needs: each FROM starts a
// stage (`FROM image AS name`); the ARGs before the first FROM are the only variables FROM
// and COPY --from see, as in BuildKit; the target (--target, else the last stage) needs the
// stage it is FROM and every stage its COPY --from names, and nothing else is built.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "images/dockerfile/dockerfile.h"
#include "images/dockerfile/words.h"

namespace gkebuild::build {

struct Stage {
  size_t begin = 0, end = 0;  // instruction indices: the FROM, and one past the last
  std::string name;           // lower-cased AS name; empty when none
};

class StagePlan {
 public:
  // Throws DockerfileError (file:line:col) for a malformed FROM, a duplicate stage name, an
  // unknown --target or a COPY --from that names a later stage.
  StagePlan(const dockerfile::Dockerfile& dockerfile, const std::map<std::string, std::string>& build_args,
            const std::string& target);

  const std::vector<Stage>& stages() const { return stages_; }
  // The ARGs before the first FROM, with --build-arg values applied.
  const std::map<std::string, std::string>& global_args() const { return global_args_; }
  size_t target() const { return target_; }
  // The target and the stages it needs, in Dockerfile order.
  const std::set<size_t>& needed() const { return needed_; }
  // The stages `stage` reads directly (the stage it is FROM, those its COPY --from name):
  // a stage starts once these are built, so independent stages build at the same time.
  const std::set<size_t>& dependencies(size_t stage) const { return dependencies_.at(stage); }

  // The stage called `name` among the first `before` stages.
  std::optional<size_t> stage_named(const std::string& name, size_t before) const;
  // The stage instruction `index` belongs to.
  size_t stage_of(size_t index) const;
  // FROM's image reference, and COPY --from's value, expanded with the global ARGs.
  std::string from_reference(const dockerfile::Instruction& in) const;
  std::optional<std::string> copy_from(const dockerfile::Instruction& in) const;

 private:
  [[noreturn]] void fail(const dockerfile::Instruction& in, int column, const std::string& message) const;
  void split_stages();
  void read_global_args(const std::map<std::string, std::string>& build_args);
  size_t find_target(const std::string& target) const;
  void need(size_t stage);
  dockerfile::Lookup global_lookup() const;

  const dockerfile::Dockerfile& dockerfile_;
  std::vector<Stage> stages_;
  std::map<std::string, std::string> global_args_;
  size_t target_ = 0;
  std::set<size_t> needed_;
  std::map<size_t, std::set<size_t>> dependencies_;
};

// A stage name as written in FROM … AS or COPY --from is matched without case.
std::string lower(std::string s);
bool is_stage_index(const std::string& s);

}  // namespace gkebuild::build
