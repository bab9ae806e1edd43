// An OCI image layout on disk: "oci-layout", "index.json" and blobs/<alg>/<hex>.
// Blobs are content-addressed and written to a temporary name, then renamed, so a
// killed writer never leaves a partial blob; index.json is rewritten atomically
// under a lock, so concurrent builds into one layout both land their tags.
// gkebuild's own state (temporary files, the layer cache) lives in <root>/gkebuild/.
//
// A layout may also share a machine-wide blob store (BlobHome), as the OCI image-layout spec
// allows ("the blobs directory MAY be missing referenced blobs, in which case the missing blobs
// SHOULD be fulfilled by an external blob store") and as containers/image's shared blob directory
// does: a project's layout then holds its index and nothing else, every blob is kept once on the
// machine by digest, and a second project on the same base pulls nothing.
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

// Where a layout finds and keeps blobs beside its own blobs/ folder.
struct BlobHome {
  // A machine-wide store: <store>/blobs/<alg>/<hex> (skopeo's --shared-blob-dir reads
  // <store>/blobs), <store>/tmp for blobs being written, <store>/cache for the build cache.
  // Empty: none; the layout is complete on its own.
  std::filesystem::path store;
  // Write new blobs, temporaries and the build cache to the store (a project's own layout) rather
  // than to the layout (a layout the user names, which other OCI tools must read whole).
  bool write_to_store = false;
};

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
  static Layout open(const std::filesystem::path& root, BlobHome home = {});
  static Layout open_or_create(const std::filesystem::path& root, BlobHome home = {});

  const std::filesystem::path& root() const { return root_; }
  const BlobHome& home() const { return home_; }
  Index index() const;
  // The manifest tagged `tag` (org.opencontainers.image.ref.name in index.json).
  std::optional<Descriptor> resolve(std::string_view tag) const;

  // In the layout's blobs/ or in the store. A blob found in the store has its mtime set to now:
  // its last use, which `gkebuild prune --older-than` reads.
  bool has_blob(const Digest& digest) const;
  // Where the blob is (the layout's own copy first), or where it would be written when missing.
  std::filesystem::path blob_path(const Digest& digest) const;
  // Where a new blob goes: the store when blobs are written there, else the layout's blobs/.
  std::filesystem::path blob_target(const Digest& digest) const;
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

  // Where gkebuild keeps temporary files and its layer cache: inside the layout, or in the store
  // when blobs are written there (a temporary is renamed into place, so both share a file system).
  std::filesystem::path scratch_dir() const { return state_dir() / "tmp"; }
  std::filesystem::path cache_dir() const { return state_dir() / "cache"; }

 private:
  Layout(std::filesystem::path root, BlobHome home) : root_(std::move(root)), home_(std::move(home)) {}
  std::filesystem::path state_dir() const { return home_.write_to_store ? home_.store : root_ / "gkebuild"; }
  std::filesystem::path own_blob(const Digest& digest) const;
  std::filesystem::path stored_blob(const Digest& digest) const;
  void remove_stale_temporaries() const;
  void register_in_store() const;
  std::filesystem::path root_;
  BlobHome home_;
};

}  // namespace gkebuild::oci
