#include "tool/steps/local_runner/layer_folders.h"

#include <string>

#include "images/oci/digest.h"
#include "tool/steps/local_runner/folder_once.h"
#include "tool/steps/local_runner/layer_apply.h"

namespace gkebuild::local_runner {
namespace fs = std::filesystem;
namespace {

fs::path blob_of(const image::Layer& layer) { return layer.store->blob_path(layer.blob.digest); }

// The OCI chain ID's recipe over the layers' blob digests: ChainID(L0) = Blob(L0), ChainID(Ln) =
// SHA256(ChainID(Ln-1) + " " + Blob(Ln)). Blob digests, not diff_ids: each blob is checked
// against its digest as it is unpacked, while a diff_id is only what the image's config says, and
// these folders are shared by every project on the machine.
oci::Digest chain_id(const std::vector<image::Layer>& layers) {
  oci::Digest chain = layers.front().blob.digest;
  for (size_t i = 1; i < layers.size(); ++i) {
    oci::Sha256 hasher;
    hasher.update(chain.str() + " " + layers[i].blob.digest.str());
    chain = hasher.finish();
  }
  return chain;
}

fs::path chain_tree(const image::Image& image, const fs::path& cache_dir) {
  const fs::path folder = cache_dir / "chains" / chain_id(image.layers()).hex;
  make_folder_once(folder, [&](const fs::path& tree) {
    for (const auto& layer : image.layers()) apply_layer(blob_of(layer), layer.blob.digest, tree);
  });
  return folder;
}

// Marks `folder` used now: its mtime is the age `gkebuild prune --older-than` goes by.
const fs::path& used(const fs::path& folder) {
  std::error_code ignored;
  fs::last_write_time(folder, fs::file_time_type::clock::now(), ignored);
  return folder;
}

}  // namespace

std::vector<fs::path> lower_folders(const image::Image& image, const fs::path& cache_dir) {
  if (image.layers().empty()) {
    const fs::path empty = cache_dir / "layers" / "empty";
    make_folder_once(empty, [](const fs::path&) {});
    return {used(empty)};
  }
  std::vector<fs::path> folders;
  size_t length = 0;
  for (auto layer = image.layers().rbegin(); layer != image.layers().rend(); ++layer) {
    folders.push_back(cache_dir / "layers" / layer->blob.digest.hex);
    length += folders.back().string().size() + 1;
  }
  if (length > kMaxLowerdirLength) return {used(chain_tree(image, cache_dir))};
  for (size_t i = 0; i < folders.size(); ++i) {
    const image::Layer& layer = image.layers()[image.layers().size() - 1 - i];
    make_folder_once(folders[i], [&](const fs::path& tree) {
      apply_layer(blob_of(layer), layer.blob.digest, tree, Whiteouts::kOverlay);
    });
    used(folders[i]);
  }
  return folders;
}

}  // namespace gkebuild::local_runner
