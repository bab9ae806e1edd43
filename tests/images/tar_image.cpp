#include "tests/images/tar_image.h"

#include "base/atomic_file.h"
#include "images/image/layout_sink.h"
#include "images/oci/media_types.h"

namespace gkebuild::testing {

image::Image image_of_tar(const std::filesystem::path& layout_dir, const std::string& tag,
                          const std::filesystem::path& tar) {
  auto store = std::make_shared<oci::Layout>(oci::Layout::open_or_create(layout_dir));
  const std::string bytes = read_file(tar);
  image::Layer layer{store->write_blob(oci::media::kOciLayer, bytes), oci::sha256_of(bytes), store};
  image::Image image = image::append_layer(image::Image(), layer, oci::History{});
  store->tag(tag, image::write_to_layout(*store, image));
  return image;
}

}  // namespace gkebuild::testing
