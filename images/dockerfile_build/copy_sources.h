// What one COPY puts into its layer: the sources matched in the build context
// (globs, directories, symlinks kept as links), the destination semantics Docker
// has, parent directories, and owner/mode normalisation. Nothing outside the
// context is ever read.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/error.h"
#include "images/dockerfile_build/dockerignore.h"
#include "images/layer/entry.h"

namespace gkebuild::build {

// A bad COPY (missing source, escaping path, unreadable file); the builder adds file:line.
class CopyError : public Error {
 public:
  explicit CopyError(const std::string& message) : Error(ErrorKind::kBadInput, message) {}
};

struct CopyRequest {
  std::filesystem::path context;     // the build context folder
  std::vector<std::string> sources;  // as written, after variable expansion
  std::string destination;           // absolute in the image (WORKDIR already applied)
  std::optional<uint32_t> uid;       // --chown
  std::optional<uint32_t> gid;
  std::optional<uint32_t> chmod;     // --chmod
  const Dockerignore* ignore = nullptr;  // context paths never read
  // What the image already has at a path ("opt"): a parent folder that exists keeps its
  // mode and owner; one that does not is created 0755, owned by the --chown owner.
  std::function<std::optional<layer::Entry>(const std::string& path)> existing;
  // COPY --from: the mode and owner each source path has in the stage it comes from
  // (a build context's files are normalised to 0644/0755 root instead).
  std::function<std::optional<layer::Entry>(const std::string& path)> source_metadata;
};

struct CopyLayer {
  std::vector<layer::Entry> entries;
  // Everything that decides the layer's bytes except file contents (paths, types,
  // modes, owners, sizes, link targets), and the same plus where each file is and
  // its stat times: equal stat fingerprints mean the layer need not be re-read.
  std::string list_fingerprint;
  std::string stat_fingerprint;
};

CopyLayer collect_copy(const CopyRequest& request);

// Parses --chmod=OCTAL; throws CopyError.
uint32_t parse_chmod(const std::string& value);

}  // namespace gkebuild::build
