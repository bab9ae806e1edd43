#include "images/image/layout_sink.h"

#include <fstream>
#include <stdexcept>

#include "base/error.h"

namespace gkebuild::image {

oci::Descriptor write_to_layout(oci::Layout& layout, const Image& image) {
  for (const Layer& layer : image.layers()) {
    if (layout.has_blob(layer.blob.digest)) continue;
    if (!layer.store) throw Error(ErrorKind::kFailed, "layer " + layer.blob.digest.str() + " has no source");
    std::ifstream in(layer.store->blob_path(layer.blob.digest), std::ios::binary);
    if (!in) throw Error(ErrorKind::kFailed, "cannot read layer " + layer.blob.digest.str());
    layout.write_blob(layer.blob.media_type, in, layer.blob.digest);
  }
  std::string config = image.raw_config();
  layout.write_blob(image.config_descriptor().media_type, config);
  oci::Manifest manifest = image.manifest();
  return layout.write_blob(manifest.media_type, image.raw_manifest());
}

}  // namespace gkebuild::image
