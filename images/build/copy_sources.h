// What one COPY puts into its layer: the sources matched in the build context
// (globs, directories, symlinks kept as links), the destination semantics Docker
// has, parent directories, and owner/mode normalisation. Nothing outside the
// context is ever read.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "base/error.h"
#include "layer/entry.h"

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

// Parses --chown=UID[:GID] (numeric) and --chmod=OCTAL; throws CopyError.
std::pair<uint32_t, uint32_t> parse_chown(const std::string& value);
uint32_t parse_chmod(const std::string& value);

}  // namespace gkebuild::build
