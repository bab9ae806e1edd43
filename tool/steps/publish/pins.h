// The pin file, <project>/.gkebuild/images.json: for each image of the project,
// the digest reference its last push landed at, so `gkebuild render` can write
// manifests that name exactly that image (like `ko resolve`).
#pragma once

#include <filesystem>
#include <map>
#include <string>

namespace gkebuild::publish {

struct ImagePin {
  std::string reference;  // "host/repo@sha256:…", what manifests use
  std::string tag;        // "host/repo:tag", what the push tagged
  std::string built;      // digest of the manifest in the local layout that was pushed
  std::string layout;     // that layout's folder
  std::string pushed_at;  // RFC 3339, UTC
};

using ImagePins = std::map<std::string, ImagePin>;  // image name -> pin

// <project_dir>/.gkebuild/images.json
std::filesystem::path pins_file(const std::filesystem::path& project_dir);

// No file: no pins. A file that does not parse, or holds an entry without a
// digest reference, throws SourceError naming file:line:col.
ImagePins read_pins(const std::filesystem::path& file);

// Replaces the file atomically.
void write_pins(const std::filesystem::path& file, const ImagePins& pins);

// Sets (or replaces) one image's pin, keeping the others; the read and the
// write happen under a lock, so concurrent pushes of a project lose no pin.
void record_pin(const std::filesystem::path& file, const std::string& image, const ImagePin& pin);

}  // namespace gkebuild::publish
