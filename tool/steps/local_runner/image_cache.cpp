#include "tool/steps/local_runner/image_cache.h"


#include <memory>
#include <stdexcept>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/suggest.h"
#include "images/image/layout_source.h"
#include "images/oci/digest.h"
#include "images/oci/layout.h"
#include "tool/steps/local_runner/folder_once.h"
#include "tool/steps/local_runner/layer_apply.h"

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
    throw std::runtime_error("no image " + image + " in the OCI layout " + layout.root().string());
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
    throw std::runtime_error("no image '" + image + "' in the OCI layout " + layout->root().string() +
                             did_you_mean(image, tags) + "; it holds: " + list_of(tags));
  }
  return image::load_image(layout, *found);
}

// Unpacks into a temporary sibling, then renames it into place.
void unpack_layers(const image::Image& image, const fs::path& final_dir) {
  make_folder_once(final_dir, [&](const fs::path& temporary) {
    fs::create_directory(temporary / "rootfs");
    fs::permissions(temporary / "rootfs", fs::perms(0755));
    for (const auto& layer : image.layers()) {
      apply_layer(layer.store->blob_path(layer.blob.digest), layer.blob.digest, temporary / "rootfs");
    }
  });
}

// The folder's name: the SHA-256 of the layers' blob digests, in order. Each blob is checked
// against its digest as it is unpacked (layer_apply.h), so a layout planted in a checkout cannot
// put other files under a name another project's image will use (the folder is machine-wide).
std::string layers_key(const image::Image& image) {
  oci::Sha256 hasher;
  hasher.update("gkebuild.rootfs.v1");
  for (const auto& layer : image.layers()) hasher.update("\n" + layer.blob.digest.str());
  return hasher.finish().hex;
}

}  // namespace

UnpackedImage unpack_image(const fs::path& layout_dir, const std::string& image, const fs::path& cache_dir) {
  auto layout = std::make_shared<const oci::Layout>(oci::Layout::open(layout_dir));
  const image::Image loaded = load(layout, image);
  UnpackedImage out{loaded.digest(), loaded.config(), {}};
  const fs::path dir = cache_dir / layers_key(loaded);
  out.rootfs = dir / "rootfs";
  if (!fs::is_directory(out.rootfs)) {
    fs::create_directories(cache_dir);
    unpack_layers(loaded, dir);
  }
  return out;
}

}  // namespace gkebuild::local_runner
