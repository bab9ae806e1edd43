// What a RUN instruction executes, as BuildKit derives it: the exec form as written,
// the shell form through SHELL, and heredocs (a lone `RUN <<EOF` runs the body as the
// shell's script, or as a file when it starts with "#!"; `cmd <<EOF` hands the whole
// script, bodies included, to the shell, which feeds them to the command).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "images/dockerfile_build/builder.h"
#include "images/dockerfile/dockerfile.h"

namespace gkebuild::build {

struct RunScript {
  std::vector<std::string> argv;
  std::optional<std::string> stdin_data;
};

RunScript run_script(const dockerfile::Instruction& in, const std::vector<std::string>& shell);

// --mount=type=cache,target=DIR[,id=ID][,sharing=…]; throws InputError saying what
// is not supported (other mount types, options that change ownership).
RunRequest::CacheMount parse_cache_mount(const std::string& value);

// --network=default|host pass (the RUN step uses the host's network); none is refused.
void check_network(const std::string& value);

// Go's time.ParseDuration subset HEALTHCHECK flags use ("30s", "1m30s", "500ms"), in
// nanoseconds; throws InputError.
int64_t parse_duration(const std::string& value);

}  // namespace gkebuild::build
