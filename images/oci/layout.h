// An OCI image layout on disk: "oci-layout", "index.json" and blobs/<alg>/<hex>.
// Blobs are content-addressed and written to a temporary name, then renamed, so a
// killed writer never leaves a partial blob; index.json is rewritten atomically
// under a lock, so concurrent builds into one layout both land their tags.
// gkebuild's own state (temporary files, the layer cache) lives in <root>/gkebuild/.
#pragma once

#include <filesystem>
#include <istream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "base/atomic_file.h"
#include "images/oci/descriptor.h"
#include "images/oci/file_lock.h"
#include "images/oci/manifest.h"

namespace gkebuild::oci {

class Layout;

// Streams one blob into the layout: bytes go to a temporary file while being
// hashed; commit() verifies (when told the expected digest) and renames it into place.
class BlobWriter {
 public:
  explicit BlobWriter(const Layout& layout);
  void write(std::string_view bytes);
  int64_t size() const { return hasher_.bytes(); }
  // Throws std::runtime_error when `expected` is given and differs; nothing is added then.
  Descriptor commit(std::string_view media_type, const std::optional<Digest>& expected = {});

 private:
  const Layout& layout_;
  TemporaryFile file_;
  Sha256 hasher_;
};

class Layout {
 public:
  // Throws std::runtime_error when `root` holds no OCI image layout.
  static Layout open(const std::filesystem::path& root);
  static Layout open_or_create(const std::filesystem::path& root);

  const std::filesystem::path& root() const { return root_; }
  Index index() const;
  // The manifest tagged `tag` (org.opencontainers.image.ref.name in index.json).
  std::optional<Descriptor> resolve(std::string_view tag) const;

  bool has_blob(const Digest& digest) const;
  std::filesystem::path blob_path(const Digest& digest) const;
  // The blob's bytes; throws when it is missing or its content does not match its digest.
  std::string read_blob(const Digest& digest) const;
  Descriptor write_blob(std::string_view media_type, std::string_view bytes);
  // Copies a stream into the layout, verifying it against `expected` when given.
  Descriptor write_blob(std::string_view media_type, std::istream& in,
                        const std::optional<Digest>& expected = {});
  BlobWriter begin_blob() const { return BlobWriter(*this); }

  // Points `name` at `manifest` in index.json, replacing an older entry of that name.
  void tag(std::string_view name, const Descriptor& manifest);
  // Holds the layout's index lock (tag() takes it itself).
  FileLock lock() const;

  // Where gkebuild keeps temporary files and its layer cache inside the layout.
  std::filesystem::path scratch_dir() const { return root_ / "gkebuild" / "tmp"; }
  std::filesystem::path cache_dir() const { return root_ / "gkebuild" / "cache"; }

 private:
  explicit Layout(std::filesystem::path root) : root_(std::move(root)) {}
  void remove_stale_temporaries() const;
  std::filesystem::path root_;
};

}  // namespace gkebuild::oci
