// What each image of a project is built from, decided before anything is built: which images,
// where a prebuilt workload binary is looked for, which CMake project builds it, and the build
// context, Dockerfile and named contexts the builder reads. build_project_images acts on these.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "images/dockerfile_build/builder.h"
#include "tool/core/project/project.h"

namespace gkebuild::project_images {

// `asked` in its order, or every image of the project in file order when it is empty. An
// unknown name is a SourceError naming the project file, with a "did you mean".
std::vector<const project::Image*> chosen_images(const project::Project& project, const std::vector<std::string>& asked);

// Where a prebuilt workload binary is looked for, in order: `workloads_build` alone when given;
// else the project folder's build/, then `current`'s build/ when `current` is another folder.
std::vector<std::filesystem::path> workload_places(const project::Project& project,
                                                   const std::filesystem::path& workloads_build,
                                                   const std::filesystem::path& current);

// The CMake project that builds the image's workload: `source:`, else the project folder when
// it has a CMakeLists.txt; none for a shipped workload built beforehand.
std::optional<std::filesystem::path> workload_source(const project::Project& project, const project::Image& image);

// The builder's inputs for `image`, whose staged folder (workload, rendered Dockerfile) is
// `staged`. The shipped Dockerfile.j2 reads only the staged folder, which is its context. The
// user's Dockerfile (or rendered template) reads the project: the project folder or `context:`
// is the context, always without .gkebuild/ (runs, layouts, caches) when that lies inside it, and
// a workload's staged folder is the named context `workload` (`COPY --from=workload bin/ …`).
// A `context:` that is not a folder is a SourceError at the image.
void set_build_context(const project::Project& project, const project::Image& image,
                       const std::filesystem::path& staged, build::BuildOptions& build);

}  // namespace gkebuild::project_images
