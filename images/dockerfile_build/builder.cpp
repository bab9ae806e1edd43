#include "images/dockerfile_build/builder.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

#include "base/input_file.h"
#include "images/dockerfile_build/stage_builder.h"
#include "images/dockerfile/dockerfile_error.h"

namespace gkebuild::build {
namespace fs = std::filesystem;
using dockerfile::DockerfileError;

namespace {

fs::path scratch_path(const oci::Layout& store) {
  static std::atomic<int> counter{0};
  return store.scratch_dir() / ("build-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
}

// Only a regular file: a FIFO or a device as the Dockerfile would stop the build for ever.
dockerfile::Dockerfile read_dockerfile(const fs::path& file) {
  std::string refusal;
  const int fd = open_input_file(file, refusal);
  const auto text = fd < 0 ? std::nullopt : read_all(fd, std::string().max_size());
  if (!text)
    throw DockerfileError(file.string(), 0, 0, "cannot read the Dockerfile" + (refusal.empty() ? "" : ": " + refusal));
  return dockerfile::parse(*text, file.string());
}

// Before any work: a RUN that this gkebuild cannot execute is refused at its line.
void refuse_run_without_runtime(const BuildOptions& options, const dockerfile::Dockerfile& dockerfile,
                                const StagePlan& plan) {
  if (options.run) return;
  for (size_t s : plan.needed()) {
    for (size_t i = plan.stages()[s].begin; i < plan.stages()[s].end; ++i) {
      const auto& in = dockerfile.instructions[i];
      if (in.keyword != dockerfile::Keyword::kRun) continue;
      throw DockerfileError(dockerfile.file, in.line, 1,
                            "RUN needs a container runtime: this gkebuild has no step that runs containers "
                            "(runc as root); build this Dockerfile with `buildah bud`, or produce the files "
                            "beforehand and COPY them",
                            dockerfile.source);
    }
  }
}

// Every needed stage on a thread of its own, each starting once the stages it reads are built:
// independent stages (two toolchains, a test stage) build at the same time. The first failure
// is the build's; stages still waiting then give up, those under way finish their step.
void build_stages(BuildShared& shared) {
  std::exception_ptr failure;
  std::vector<std::thread> threads;
  for (size_t stage : shared.plan.needed()) {
    threads.emplace_back([&shared, &failure, stage] {
      std::unique_lock lock(shared.mutex);
      try {
        const auto& depends = shared.plan.dependencies(stage);
        shared.stage_finished.wait(lock, [&] {
          return shared.failed || std::all_of(depends.begin(), depends.end(),
                                              [&](size_t d) { return shared.results.count(d) > 0; });
        });
        if (shared.failed) return;
        image::Image image = StageBuilder(shared).build(stage, lock);
        shared.results[stage] = std::move(image);
      } catch (...) {
        if (!failure) failure = std::current_exception();
        shared.failed = true;
      }
      shared.stage_finished.notify_all();
    });
  }
  for (auto& thread : threads) thread.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace

BuildResult build_image(const BuildOptions& options, std::shared_ptr<oci::Layout> store) {
  const dockerfile::Dockerfile dockerfile = read_dockerfile(options.dockerfile);
  const StagePlan plan(dockerfile, options.build_args, options.target);
  refuse_run_without_runtime(options, dockerfile, plan);
  BuildShared shared{options, store, dockerfile, plan, LayerCache(*store), ScratchDir(scratch_path(*store)),
                     Dockerignore::load(options.context, options.ignore_always)};
  build_stages(shared);
  return BuildResult{shared.results.at(plan.target()), shared.built, shared.cached};
}

}  // namespace gkebuild::build
