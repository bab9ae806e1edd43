// Building the images a loaded project declares (the build half of ko's build and
// publish; tool/publish pushes): for each image, the Dockerfile rendered from
// templates/Dockerfile.j2 (or the project's own template), a build context under
// <project>/.gkebuild/context/<image> holding the workload binary (bin/) and the
// libraries it needs (lib/), then the daemonless build into a layout, tagged there.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "build/builder.h"
#include "oci/layout.h"
#include "project/project.h"

namespace gkebuild::imageproject {

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
  std::filesystem::path workloads_build;
  build::BuildOptions build;  // compression, epoch, progress, pull
};

// Builds each image in turn into `store` and tags it there. Throws SourceError
// (unknown image, before anything is built; missing workload binary) or DockerfileError.
std::vector<ProjectImage> build_project_images(const project::Project& project, const ProjectImageOptions& options,
                                               std::shared_ptr<oci::Layout> store);

}  // namespace gkebuild::imageproject
