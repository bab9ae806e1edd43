// The files of an image (or of an archive ADD extracts) without unpacking it into a
// root file system: each layer's tar is listed with libarchive, and file contents are
// written to a scratch folder only for the paths that are needed. Used for what the
// builder must know about the image so far: whether a WORKDIR exists, the users and
// groups of /etc/passwd and /etc/group, and the files COPY --from copies.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "images/image/image.h"
#include "images/layer/entry.h"

namespace gkebuild::build {

// A layer of the image that cannot be read: damaged, not a tar, or with an entry that climbs out.
struct LayerReadError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A tar whose files hold more bytes than read_tar was allowed.
struct TarTooLarge : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Reads a tar file (plain, gzip, xz, zstd, bzip2) into entries ("a/b", no leading "/"), in
// archive order. Files whose path `extract` accepts get their content written under
// `scratch` (entry.source); hard links become copies of their target. Returns false when
// `file` is not a tar archive. Throws std::runtime_error for a damaged one and for an entry
// or hard link whose name climbs above the root with `..` (an absolute name is relative to the
// root); TarTooLarge once the files (hard links counted again) hold more than `max_bytes`,
// before their bytes are written. Devices and fifos are left out.
bool read_tar(const std::filesystem::path& file, const std::filesystem::path& scratch,
              const std::function<bool(const std::string& path)>& extract, std::vector<layer::Entry>& out,
              std::optional<int64_t> max_bytes = std::nullopt);

// Each layer's entries by path, by diff_id: filled as layers are listed, and beforehand with
// the layers gkebuild wrote in this build, so those are never read back.
using LayerListings = std::map<std::string, std::map<std::string, layer::Entry>>;

class ImageFiles {
 public:
  // `listing_cache`, when given, keeps each base layer's listing on disk (<diff_id hex>.json), so
  // a multi-gigabyte base is read once, not at every build.
  ImageFiles(image::Image image, std::filesystem::path scratch, LayerListings& listings,
             std::filesystem::path listing_cache = {})
      : image_(std::move(image)), scratch_(std::move(scratch)), listings_(listings),
        listing_cache_(std::move(listing_cache)) {}

  // The entry at `path` ("etc/passwd") after every layer's whiteouts; no symlink is followed.
  std::optional<layer::Entry> find(const std::string& path);
  // `path` ("/lib/x") with every symlink among its folders followed inside the image, as a
  // copy into it lands ("/usr/lib/x" where lib -> usr/lib); the last component is followed
  // too when `last_too`. Links that loop are left as they are.
  std::string resolve(const std::string& path, bool last_too);
  // The content of the regular file at `path`; nullopt when there is none.
  std::optional<std::string> read(const std::string& path);
  // The whole merged file system, every file's content extracted under the scratch folder.
  std::map<std::string, layer::Entry> all();

 private:
  const std::map<std::string, layer::Entry>& listing(size_t layer);
  std::vector<layer::Entry> read_layer(size_t layer, const std::function<bool(const std::string&)>& extract);

  image::Image image_;
  std::filesystem::path scratch_;
  LayerListings& listings_;
  std::filesystem::path listing_cache_;
  int extractions_ = 0;
};

}  // namespace gkebuild::build
