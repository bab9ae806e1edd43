// Build secrets as BuildKit and buildah define them. `--secret id=ID,src=FILE|env=VAR` (the
// `gkebuild image` flag, same syntax as `docker buildx build` and `buildah build`) names where
// a value comes from; `RUN --mount=type=secret,id=ID[,target=PATH][,env=VAR][,required]
// [,mode=0400][,uid=0][,gid=0]` hands it to one RUN: as a read-only file at target (default
// /run/secrets/ID when neither target nor env is given), as a variable, or both. A secret
// the build was not given is skipped, unless the mount says `required`, which makes it an error
// at the RUN's line. The value is in no layer, config, history or cache key: the layer cache
// keys on the mount (id, target, env), so a changed value does not rerun the step (BuildKit's
// behaviour too; change the RUN or pass --no-cache… to rerun it).
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>

#include "images/dockerfile_build/builder.h"

namespace gkebuild::build {

struct SecretSource {
  std::string id;
  std::string src;  // a file, relative to the working folder (or the project folder)
  std::string env;  // or an environment variable
};

// "id=ID,src=FILE", "id=ID,env=VAR", "id=ID" (the variable named ID), with `type=file|env` and
// `source`/`required` as buildx accepts them; throws InputError saying what is wrong.
SecretSource parse_secret_source(std::string_view spec);

// Reads the secret's value (at most 500 KiB, as BuildKit): a missing file or variable is
// gkebuild::Error (kBadInput) naming the id and where it looked, never the value.
std::string read_secret(const SecretSource& source, const std::filesystem::path& base_dir);

// The mount type of a RUN --mount value ("bind" when it names none, as BuildKit).
std::string mount_type(std::string_view value);

// RUN --mount=type=secret,…; throws InputError.
RunRequest::SecretMount parse_secret_mount(const std::string& value);

}  // namespace gkebuild::build
