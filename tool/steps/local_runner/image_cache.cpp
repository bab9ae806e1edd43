#include "tool/steps/local_runner/image_cache.h"


#include <memory>
#include <stdexcept>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/error.h"
#include "base/suggest.h"
#include "images/image/layout_source.h"
#include "images/oci/digest.h"
#include "images/oci/layout.h"
#include "images/oci/machine_store.h"
#include "tool/steps/local_runner/layer_folders.h"

namespace gkebuild::local_runner {
namespace fs = std::filesystem;
namespace {

std::vector<std::string> tags_of(const oci::Layout& layout) {
  std::vector<std::string> tags;
  for (const auto& d : layout.index().manifests) {
    auto name = d.annotations.find(oci::kRefNameAnnotation);
    if (name != d.annotations.end()) tags.push_back(name->second);
  }
  return tags;
}

std::string list_of(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "no tagged image" : out;
}

// A digest names an index entry, or any manifest or index blob in the layout.
oci::Descriptor by_digest(const oci::Layout& layout, const std::string& image) {
  const oci::Digest digest = oci::Digest::parse(image);
  for (const auto& d : layout.index().manifests) {
    if (d.digest == digest) return d;
  }
  if (!layout.has_blob(digest)) {
    throw Error(ErrorKind::kBadInput, "no image " + image + " in the OCI layout " + layout.root().string());
  }
  const std::string raw = layout.read_blob(digest);
  oci::Descriptor d;
  d.digest = digest;
  d.size = static_cast<int64_t>(raw.size());
  d.media_type = nlohmann::json::parse(raw, nullptr, false).value("mediaType", "");
  return d;
}

image::Image load(const std::shared_ptr<const oci::Layout>& layout, const std::string& image) {
  if (image.starts_with("sha256:")) return image::load_image(layout, by_digest(*layout, image));
  auto found = layout->resolve(image);
  if (!found) {
    const auto tags = tags_of(*layout);
    throw Error(ErrorKind::kBadInput, "no image '" + image + "' in the OCI layout " + layout->root().string() +
                did_you_mean(image, tags) + "; it holds: " + list_of(tags));
  }
  return image::load_image(layout, *found);
}

}  // namespace

UnpackedImage unpack_image(const fs::path& layout_dir, const std::string& image, const fs::path& cache_dir) {
  auto layout = std::make_shared<const oci::Layout>(oci::Layout::open(layout_dir, oci::machine_blob_home(false)));
  const image::Image loaded = load(layout, image);
  return {loaded.digest(), loaded.config(), lower_folders(loaded, cache_dir)};
}

}  // namespace gkebuild::local_runner
