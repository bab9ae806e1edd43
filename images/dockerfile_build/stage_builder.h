// Builds one stage of a Dockerfile: the instructions from its FROM to the next, each
// applied to the image so far (a layer for COPY, ADD, WORKDIR folders and RUN; a config
// edit for the rest). Internal to build_image (builder.cpp); the definitions are split by
// concern: stage_builder.cpp (FROM, ARG, ENV, WORKDIR, RUN, layers), stage_copy.cpp (COPY,
// ADD), stage_config.cpp (EXPOSE, SHELL, HEALTHCHECK, ONBUILD, commands).
#pragma once

#include <condition_variable>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "images/dockerfile_build/builder.h"
#include "images/dockerfile_build/copy_sources.h"
#include "images/dockerfile_build/dockerignore.h"
#include "images/dockerfile_build/image_files.h"
#include "images/dockerfile_build/layer_cache.h"
#include "images/dockerfile_build/stage_plan.h"
#include "images/dockerfile/dockerfile.h"
#include "images/dockerfile/words.h"
#include "images/layer/layer_writer.h"

namespace gkebuild::build {

// Removes the build's scratch folder (extracted archives and stage files) however it ends.
struct ScratchDir {
  explicit ScratchDir(std::filesystem::path p) : path(std::move(p)) {}
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  // A new folder name inside the scratch folder ("from-3").
  std::filesystem::path next(const std::string& kind) { return path / (kind + "-" + std::to_string(count++)); }
  std::filesystem::path path;
  int count = 0;
};

// What every stage of one build shares. Independent stages build on threads of their own;
// `mutex` guards everything here and is held while a stage builds, except while a RUN
// executes and while a layer is packed (StageBuilder::unlocked), which is where time goes.
struct BuildShared {
  const BuildOptions& options;
  std::shared_ptr<oci::Layout> store;
  const dockerfile::Dockerfile& dockerfile;
  const StagePlan& plan;
  LayerCache cache;
  ScratchDir scratch;
  Dockerignore ignore;
  LayerListings listings;               // every layer's entries seen so far, by diff_id
  std::map<size_t, image::Image> results;  // finished stages
  int built = 0;
  int cached = 0;
  std::mutex mutex;
  std::condition_variable stage_finished;  // a stage finished (or failed): waiting ones look again
  bool failed = false;
  std::mutex print;  // one progress line at a time (RUN output arrives without `mutex`)
};

class StageBuilder {
 public:
  explicit StageBuilder(BuildShared& shared) : shared_(shared), options_(shared.options), store_(shared.store) {}
  // Builds stage `index` of the plan; returns the finished image (config and created time set).
  // `lock` holds shared.mutex; it is let go while a RUN executes or a layer is packed.
  image::Image build(size_t index, std::unique_lock<std::mutex>& lock);

 private:
  using Instruction = dockerfile::Instruction;

  [[noreturn]] void fail(const Instruction& in, const std::string& message) const { fail_at(in, in.column, message); }
  [[noreturn]] void fail_at(const Instruction& in, int column, const std::string& message) const;
  void progress(const std::string& message) const;
  void add_secret_mount(const Instruction& in, const dockerfile::Flag& flag, const std::string& value,
                        RunRequest& request) const;
  void warn(const std::string& message) const;
  std::optional<std::string> lookup(std::string_view name) const;
  dockerfile::Lookup lookup_fn() const;
  std::vector<std::string> words(const Instruction& in) const;
  std::string word(const Instruction& in, const std::string& text) const;
  size_t index_of(const Instruction& in) const { return static_cast<size_t>(&in - shared_.dockerfile.instructions.data()); }

  // Runs `work` without the build's lock (it must touch nothing of BuildShared).
  template <typename Work>
  auto unlocked(Work&& work) {
    lock_->unlock();
    struct Relock {
      std::unique_lock<std::mutex>* lock;
      ~Relock() { lock->lock(); }
    } relock{lock_};
    return work();
  }

  void apply(const Instruction& in);
  void record(const Instruction& in);
  oci::History history(const Instruction& in) const;
  image::Image finished_image() const;

  // stage_builder.cpp
  image::Image load_image(const Instruction& in, const std::string& ref, const char* what);
  void from(const Instruction& in);
  void arg(const Instruction& in);
  void key_values(const Instruction& in, bool env);
  void workdir(const Instruction& in);
  void run_step(const Instruction& in);
  std::pair<uint32_t, uint32_t> owner(const Instruction& in, const std::string& spec);
  void append(const Instruction& in, CopyLayer layer);
  layer::BuiltLayer build_layer(const Instruction& in, const CopyLayer& copy);
  ImageFiles files(const image::Image& image);
  void remember_listing(const oci::Digest& diff_id, const std::vector<layer::Entry>& entries);

  // stage_copy.cpp
  void copy(const Instruction& in, bool add);
  CopyRequest copy_request(const Instruction& in, bool add, std::vector<std::string> parts);
  void copy_from_image(const Instruction& in, const std::string& from, CopyRequest& request);
  static void materialise(const std::map<std::string, layer::Entry>& tree, const std::filesystem::path& root);
  void add_heredocs(const Instruction& in, const CopyRequest& request, CopyLayer& layer);
  void add_remote(const Instruction& in, CopyRequest& request, CopyLayer& layer);
  void add_folders(const CopyRequest& request, const std::filesystem::path& folder, CopyLayer& layer);
  void add_archives(const Instruction& in, std::vector<std::string>& sources, const std::string& dest,
                    const CopyRequest& request, CopyLayer& layer);

  // stage_config.cpp
  void expose(const Instruction& in);
  void shell(const Instruction& in);
  void healthcheck(const Instruction& in);
  void onbuild(const Instruction& in);
  void docker_only(const Instruction& in, const std::string& key, nlohmann::json value);
  std::vector<std::string> command(const Instruction& in) const;

  BuildShared& shared_;
  std::unique_lock<std::mutex>* lock_ = nullptr;
  const BuildOptions& options_;
  std::shared_ptr<oci::Layout> store_;
  image::Image image_;
  oci::ContainerConfig config_;
  std::map<std::string, std::string> args_;
  std::vector<std::string> shell_{"/bin/sh", "-c"};
  std::string author_;
  bool set_cmd_ = false;
  std::string step_;
};

}  // namespace gkebuild::build
