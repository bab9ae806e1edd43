#include "images/image/layout_source.h"

#include <stdexcept>

#include "base/error.h"
#include "images/oci/media_types.h"

namespace gkebuild::image {
namespace {

oci::Descriptor pick_platform(const oci::Layout& layout, const oci::Descriptor& index_descriptor) {
  oci::Index index = oci::parse_index(layout.read_blob(index_descriptor.digest));
  for (const auto& d : index.manifests) {
    if (d.platform && d.platform->os == "linux" && d.platform->architecture == "amd64") return d;
  }
  throw Error(ErrorKind::kFailed, "image index " + index_descriptor.digest.str() +
              " has no linux/amd64 image");
}

oci::Descriptor find_manifest(const oci::Layout& layout, const std::string& tag) {
  if (!tag.empty()) {
    auto found = layout.resolve(tag);
    if (!found) {
      throw Error(ErrorKind::kBadInput, "no image tagged '" + tag + "' in " + layout.root().string());
    }
    return *found;
  }
  auto index = layout.index();
  if (index.manifests.size() != 1) {
    throw Error(ErrorKind::kBadInput, layout.root().string() + " holds " +
                std::to_string(index.manifests.size()) +
                " images; name one with oci:DIR:TAG");
  }
  return index.manifests.front();
}

}  // namespace

Image load_image(std::shared_ptr<const oci::Layout> layout, const std::string& tag) {
  oci::Descriptor descriptor = find_manifest(*layout, tag);
  return load_image(std::move(layout), std::move(descriptor));
}

Image load_image(std::shared_ptr<const oci::Layout> layout, oci::Descriptor descriptor) {
  if (oci::media::is_index(descriptor.media_type)) descriptor = pick_platform(*layout, descriptor);
  oci::Manifest manifest = oci::parse_manifest(layout->read_blob(descriptor.digest));
  oci::ImageConfig config = oci::parse_image_config(layout->read_blob(manifest.config.digest));
  if (config.diff_ids.size() != manifest.layers.size()) {
    throw Error(ErrorKind::kFailed, "image " + descriptor.digest.str() + " has " +
                std::to_string(manifest.layers.size()) + " layers but " +
                std::to_string(config.diff_ids.size()) + " diff_ids");
  }
  std::vector<Layer> layers;
  for (size_t i = 0; i < manifest.layers.size(); ++i) {
    if (!layout->has_blob(manifest.layers[i].digest)) {
      throw Error(ErrorKind::kFailed, "layer " + manifest.layers[i].digest.str() + " is missing from " +
                  layout->root().string());
    }
    layers.push_back(Layer{manifest.layers[i], config.diff_ids[i], layout});
  }
  return Image(std::move(config), std::move(layers));
}

}  // namespace gkebuild::image
