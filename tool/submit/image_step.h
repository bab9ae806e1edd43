// The image step of a submit: the reference each image of the experiment runs as.
// `--image NAME=REF` names one already pushed (pinned by digest); `--no-build` takes the
// pin of the last push (.gkebuild/images.json); otherwise the image is built and pushed
// now (tool/steps/publish) and its digest reference used; --dry-run names the last push, if any.
// Nothing is applied before this is done.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "registry/transport/session.h"
#include "tool/core/project/project.h"
#include "tool/steps/workload_images/cuda_architectures.h"

namespace gkebuild::submit {

// The part of the submit options this step takes: the CLI fills `given`, `workloads_build`,
// `no_build` and `session`; the submit adds the rest for its run.
struct ImageStepOptions {
  std::map<std::string, std::string> given;  // image name -> a pushed reference to run (--image)
  std::string workloads_build;               // where compiled workload binaries are
  std::map<std::string, std::string> build_secrets;  // --secret: id -> value, read before anything is built
  workload_images::SubmittedRun run;           // what the built image's device code is checked for
  bool no_build = false;                     // use the pins of earlier pushes
  bool dry_run = false;                      // build nothing; unpinned references are allowed
  registry::SessionOptions session;          // how to reach registries (--insecure-registry, --ca-file)
  std::function<void(const std::string&)> note;  // what happened, for the user (stderr)
};

// Image name -> its config's Env ("NAME=value"): what the Jobs keep of the image's PATH and
// LD_LIBRARY_PATH. Images whose config could not be read are not listed.
using ImageEnv = std::map<std::string, std::vector<std::string>>;

// Image name -> reference, for `images`, and into `env` each image's config Env: of the image
// built now, else read from the registry (manifest and config only, into the project's layout;
// a registry that cannot be reached leaves the image out, with a note). Throws Error(kBadInput)
// for bad input (an unpinned given reference, an image never pushed with no_build) and
// whatever the build or push throws.
std::map<std::string, std::string> image_references(const project::Project& project,
                                                    const std::vector<std::string>& images,
                                                    const ImageStepOptions& options, ImageEnv* env = nullptr);

// The config Env of the pushed image `reference`, read as above; none when unreadable.
std::optional<std::vector<std::string>> pushed_image_env(const project::Project& project, const std::string& reference,
                                                         const ImageStepOptions& options);

}  // namespace gkebuild::submit
