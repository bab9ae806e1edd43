// Building the images a loaded project declares (the build half of ko's build and
// publish; tool/steps/publish pushes). An image of a workload without `dockerfile:` is the shipped
// templates/Dockerfile.j2 around the folder <project>/.gkebuild/context/<image> holding the
// workload binary (bin/) and the libraries it needs (lib/), which is its build context. An
// image with `dockerfile:` is the user's Dockerfile used as written (a .j2 one rendered
// first) with the project folder (or `context:`) as build context, its .dockerignore applied
// and .gkebuild/ always left out; a workload's staged folder is then the named context
// `workload` (COPY --from=workload bin/ …). Then the daemonless build into a layout, tagged.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "images/dockerfile_build/builder.h"
#include "images/oci/layout.h"
#include "tool/core/project/project.h"
#include "tool/steps/workload_images/cuda_architectures.h"

namespace gkebuild::project_images {

struct ProjectImage {
  std::string name;       // the key under images:
  std::string reference;  // <registry>/<project>-<image>:latest, the tag in the layout
  build::BuildResult result;
  oci::Descriptor manifest;  // in the layout, tagged `reference`
};

struct ProjectImageOptions {
  std::vector<std::string> images;  // empty: every image of the project
  // Where compiled workload binaries are looked for (recursively); empty: the
  // project folder's and the current folder's build/.
  // Empty (and a CMakeLists.txt in the project folder or the image's `source:`): the
  // workload is the CMake target of that name, built in .gkebuild/build/<image>.
  std::filesystem::path workloads_build;
  // A submit: the image's device code is checked for this run's accelerators alone, and
  // the workload built for them as well as for every experiment's. Else: checked and built
  // for the accelerators of every experiment that uses the image.
  std::optional<workload_images::SubmittedRun> run;
  build::BuildOptions build;  // compression, epoch, progress, pull
};

// Reads the build secrets (`secrets:`) of the images `names` that `given` (--secret) does not
// give, and forgets them: a missing one, or a variable (`env:`) that --secret does not consent
// to, is a SourceError at its entry, found before anything is built or made
// (build_project_images reads them again when it builds).
void check_image_secrets(const project::Project& project, const std::vector<std::string>& names,
                         const build::BuildOptions& given = {});

// Builds each image in turn into `store` and tags it there. Throws SourceError
// (unknown image, before anything is built; missing workload binary; a workload that
// does not build; staged device code that cannot run on an accelerator of an experiment
// that uses the image) or DockerfileError.
std::vector<ProjectImage> build_project_images(const project::Project& project, const ProjectImageOptions& options,
                                               std::shared_ptr<oci::Layout> store);

}  // namespace gkebuild::project_images
