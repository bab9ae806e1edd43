// A container's command line and environment from the image config and a Kubernetes
// container spec, with Kubernetes' rules: `command` replaces the Entrypoint (and drops the
// image's Cmd), `args` replaces the Cmd, and $(VAR) in command, args and env values expands
// to the container's variables defined before it ($$ is a literal $).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "images/oci/manifest.h"

namespace gkebuild::local_runner {

using EnvVars = std::vector<std::pair<std::string, std::string>>;

// `text` with each $(NAME) defined in `vars` replaced; $$ becomes $; anything else stays.
std::string expand_references(std::string_view text, const EnvVars& vars);

// The process's environment as "NAME=value": the image's Env, then `env` (expanded, each
// replacing a variable of its name in place or added at the end), then HOSTNAME and a
// default PATH where neither is set.
std::vector<std::string> process_env(const oci::ContainerConfig& image, const EnvVars& env,
                                     const std::string& hostname);

// The process's argv. Throws std::runtime_error when it would be empty.
std::vector<std::string> process_args(const oci::ContainerConfig& image, const std::vector<std::string>& command,
                                      const std::vector<std::string>& args, const EnvVars& env);

}  // namespace gkebuild::local_runner
