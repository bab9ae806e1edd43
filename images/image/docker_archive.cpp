#include "images/image/docker_archive.h"

#include <algorithm>
#include <memory>

#include <nlohmann/json.hpp>

#include "base/atomic_file.h"
#include "images/image/decompress.h"
#include "images/layer/layer_writer.h"

namespace gkebuild::image {
namespace fs = std::filesystem;

namespace {

class FileSink final : public layer::ByteSink {
 public:
  explicit FileSink(TemporaryFile& file) : file_(file) {}
  void write(std::string_view bytes) override { file_.write(bytes); }

 private:
  TemporaryFile& file_;
};

layer::Entry file_entry(const std::string& path, const TemporaryFile& file) {
  return layer::Entry{path, layer::EntryType::kFile, 0644, 0, 0,
                      static_cast<int64_t>(fs::file_size(file.path())), "", file.path()};
}

}  // namespace

void write_docker_archive(const fs::path& file, const Image& image,
                          const std::vector<std::string>& repo_tags) {
  fs::path dir = file.parent_path().empty() ? fs::path(".") : file.parent_path();
  std::vector<std::unique_ptr<TemporaryFile>> parts;
  std::vector<layer::Entry> entries;
  auto add_part = [&]() -> TemporaryFile& {
    parts.push_back(std::make_unique<TemporaryFile>(dir, file.filename().string() + ".part"));
    return *parts.back();
  };

  std::string config_name = image.config_descriptor().digest.hex + ".json";
  add_part().write(image.raw_config());
  entries.push_back(file_entry(config_name, *parts.back()));

  nlohmann::json layer_names = nlohmann::json::array();
  for (const Layer& layer : image.layers()) {
    std::string name = layer.diff_id.hex + "/layer.tar";
    layer_names.push_back(name);
    if (std::any_of(entries.begin(), entries.end(), [&](const auto& e) { return e.path == name; })) {
      continue;
    }
    TemporaryFile& part = add_part();
    FileSink sink(part);
    decompress_blob(layer.store->blob_path(layer.blob.digest), layer.blob.media_type, sink);
    entries.push_back({layer.diff_id.hex, layer::EntryType::kDirectory, 0755});
    entries.push_back(file_entry(name, part));
  }

  nlohmann::json manifest = nlohmann::json::array(
      {{{"Config", config_name}, {"RepoTags", repo_tags}, {"Layers", layer_names}}});
  add_part().write(manifest.dump());
  entries.push_back(file_entry("manifest.json", *parts.back()));

  TemporaryFile archive(dir, file.filename().string());
  FileSink sink(archive);
  layer::write_tar(entries, 0, sink);
  archive.commit(file);
}

}  // namespace gkebuild::image
