// An image as a value, in the manner of go-containerregistry: a config and a list
// of layers whose blobs live in some layout. Nothing here edits an image; the
// functions below return a new one, and the manifest and digest follow from it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "images/oci/layout.h"
#include "images/oci/manifest.h"

namespace gkebuild::image {

struct Layer {
  oci::Descriptor blob;                       // compressed (or plain tar) blob
  oci::Digest diff_id;                        // SHA-256 of the uncompressed tar
  std::shared_ptr<const oci::Layout> store;   // where the blob can be read
};

class Image {
 public:
  Image() = default;  // the empty image: FROM scratch
  Image(oci::ImageConfig config, std::vector<Layer> layers)
      : config_(std::move(config)), layers_(std::move(layers)) {}

  const oci::ImageConfig& config() const { return config_; }
  const std::vector<Layer>& layers() const { return layers_; }

  // The config JSON, its descriptor, the manifest and its digest (OCI media types).
  std::string raw_config() const;
  oci::Descriptor config_descriptor() const;
  oci::Manifest manifest() const;
  std::string raw_manifest() const;
  oci::Digest digest() const;

 private:
  oci::ImageConfig config_;
  std::vector<Layer> layers_;
};

// The result of adding `layer` on top, with its diff_id and history entry recorded.
Image append_layer(const Image& base, Layer layer, oci::History history);
// The result of recording an instruction that adds no layer.
Image append_history(const Image& base, oci::History history);
Image with_container_config(const Image& base, oci::ContainerConfig config);
Image with_created(const Image& base, std::string created);

}  // namespace gkebuild::image
