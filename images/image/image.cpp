#include "images/image/image.h"

#include "images/oci/media_types.h"

namespace gkebuild::image {
namespace {

// Layers of a base image that came in Docker media types are described with
// their OCI equivalents, so one image never mixes the two families.
std::string oci_layer_type(const std::string& type) {
  if (type == oci::media::kDockerLayerGzip) return std::string(oci::media::kOciLayerGzip);
  if (type == "application/vnd.docker.image.rootfs.diff.tar") return std::string(oci::media::kOciLayer);
  return type;
}

}  // namespace

std::string Image::raw_config() const { return oci::to_json_text(config_); }

oci::Descriptor Image::config_descriptor() const {
  std::string raw = raw_config();
  return oci::Descriptor{std::string(oci::media::kOciConfig), oci::sha256_of(raw),
                         static_cast<int64_t>(raw.size()), {}, {}};
}

oci::Manifest Image::manifest() const {
  oci::Manifest m;
  m.media_type = std::string(oci::media::kOciManifest);
  m.config = config_descriptor();
  for (const Layer& l : layers_) {
    oci::Descriptor d = l.blob;
    d.media_type = oci_layer_type(d.media_type);
    m.layers.push_back(std::move(d));
  }
  return m;
}

std::string Image::raw_manifest() const { return oci::to_json_text(manifest()); }

oci::Digest Image::digest() const { return oci::sha256_of(raw_manifest()); }

Image append_layer(const Image& base, Layer layer, oci::History history) {
  oci::ImageConfig config = base.config();
  config.diff_ids.push_back(layer.diff_id);
  config.history.push_back(std::move(history));
  std::vector<Layer> layers = base.layers();
  layers.push_back(std::move(layer));
  return Image(std::move(config), std::move(layers));
}

Image append_history(const Image& base, oci::History history) {
  oci::ImageConfig config = base.config();
  history.empty_layer = true;
  config.history.push_back(std::move(history));
  return Image(std::move(config), base.layers());
}

Image with_container_config(const Image& base, oci::ContainerConfig container) {
  oci::ImageConfig config = base.config();
  config.config = std::move(container);
  return Image(std::move(config), base.layers());
}

Image with_created(const Image& base, std::string created) {
  oci::ImageConfig config = base.config();
  config.created = std::move(created);
  return Image(std::move(config), base.layers());
}

}  // namespace gkebuild::image
