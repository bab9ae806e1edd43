// Builds an image from a Dockerfile and a build context, without a daemon: every COPY,
// ADD and WORKDIR that creates folders becomes one reproducible layer (cached in the
// store layout), RUN is executed by BuildOptions::run and its changes become a layer
// (cached by the parent chain and the command), every other instruction edits the
// config. Multi-stage builds build the stages the target needs, in order.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "images/image/image.h"
#include "images/layer/compression.h"
#include "images/layer/entry.h"
#include "images/oci/layout.h"

namespace gkebuild::build {

// What one RUN instruction asks for, after the builder has applied SHELL, the heredocs,
// the ENV and the build ARGs in scope. The builder keys its layer cache on this; the
// step (BuildOptions::run) only executes it.
struct RunRequest {
  image::Image image;              // the image so far: its layers readable from their stores
  std::vector<std::string> argv;   // the process: SHELL + command for the shell form
  std::vector<std::string> env;    // "NAME=value": the config's Env, then the ARGs in scope
  std::string user;                // the config's User as written ("" = root; names resolved in the rootfs)
  std::string working_dir;         // absolute; "/" when the image sets none
  std::optional<std::string> stdin_data;  // a heredoc fed to the command (`RUN python3 <<EOF`)
  // --mount=type=cache,target=DIR: absolute folders kept between builds (keyed by id, or by
  // target when no id is given), never part of the layer.
  struct CacheMount {
    std::string target;
    std::string id;
  };
  std::vector<CacheMount> cache_mounts;
  // --mount=type=secret (images/dockerfile_build/build_secrets.h): `value` is set when the build has the secret;
  // a mount whose secret the build lacks (and is not required) is left out of the request.
  struct SecretMount {
    std::string id;
    std::string target;  // a read-only file there, or "" (only env)
    std::string env;     // a variable of this RUN only, or ""
    bool required = false;
    uint32_t mode = 0400;
    uint32_t uid = 0;
    uint32_t gid = 0;
    std::string value;
  };
  std::vector<SecretMount> secret_mounts;
  // Each line the command writes (stdout and stderr), for the person watching.
  std::function<void(std::string_view line)> output;
};

// What the RUN changed, as layer entries: added and changed files, directories, symlinks,
// hard links, and deletions as whiteouts (".wh.NAME", ".wh..wh..opq"). The entries' sources
// stay readable until `holder` is released.
struct RunChanges {
  std::vector<layer::Entry> entries;
  std::shared_ptr<const void> holder;
};

inline constexpr int64_t kDefaultMaxAddBytes = int64_t{64} << 30;  // 64 GiB

struct BuildOptions {
  std::filesystem::path dockerfile;  // as the user named it (for messages)
  std::filesystem::path context;
  // Context paths left out whatever CONTEXT/.dockerignore says (.dockerignore syntax, one a
  // line): a project leaves out gkebuild's own folder, .gkebuild.
  std::string ignore_always;
  // Named build contexts (BuildKit's --build-context NAME=DIR): `COPY --from=NAME` copies from
  // DIR as from a build context (no .dockerignore of the main context applies there).
  std::map<std::string, std::filesystem::path> named_contexts;
  std::map<std::string, std::string> build_args;  // --build-arg NAME=VALUE
  // --secret id=…: id -> value, in memory only; RUN --mount=type=secret hands them to one RUN.
  std::map<std::string, std::string> secrets;
  std::string target;  // --target: the stage to build (name or index); empty: the last
  // Docker's image format keeps Healthcheck, Shell and OnBuild in the config; OCI's has no
  // such keys, and buildah drops them with a warning, as this does.
  bool docker_format = false;
  std::function<void(const std::string&)> warning;  // always shown
  layer::CompressionOptions compression;
  int64_t source_date_epoch = 0;  // layer mtimes, config and history "created"
  // What one ADD of a local tar may unpack (its files' bytes, hard links counted again), so that
  // a small compressed archive cannot fill the disk; more is an error at the ADD's line.
  int64_t max_add_bytes = kDefaultMaxAddBytes;
  // One line per step for a person watching; may be empty.
  std::function<void(const std::string&)> progress;
  // Fetches a registry base image into a layout; empty when no registry client is linked.
  std::function<image::Image(const std::string& reference)> pull;
  // Executes a RUN in a container whose root file system is the image so far; empty when
  // this gkebuild has no runtime (then RUN is refused at its line). Throws gkebuild::Error
  // (the message says what failed, for example the exit status); the builder adds file:line
  // and keeps the kind (kFailed: exit 1).
  std::function<RunChanges(const RunRequest&)> run;
};

struct BuildResult {
  image::Image image;
  int layers_built = 0;
  int layers_cached = 0;
};

// Layer blobs are written into `store` (its cache is used and updated). Throws
// dockerfile::DockerfileError (file:line) for bad input.
BuildResult build_image(const BuildOptions& options, std::shared_ptr<oci::Layout> store);

}  // namespace gkebuild::build
