#include "registry/remote/manifest_format.h"

#include <map>

#include "images/oci/media_types.h"
#include "registry/transport/errors.h"

namespace gkebuild::registry {
namespace {

namespace media = oci::media;

constexpr std::string_view kDockerLayerTar = "application/vnd.docker.image.rootfs.diff.tar";
constexpr std::string_view kDockerLayerZstd = "application/vnd.docker.image.rootfs.diff.tar.zstd";

const std::map<std::string_view, std::string_view>& to_docker() {
  static const std::map<std::string_view, std::string_view> table{
      {media::kOciManifest, media::kDockerManifest},
      {media::kOciConfig, media::kDockerConfig},
      {media::kOciLayerGzip, media::kDockerLayerGzip},
      {media::kOciLayer, kDockerLayerTar},
      {media::kOciLayerZstd, kDockerLayerZstd},
  };
  return table;
}

const std::map<std::string_view, std::string_view>& to_oci() {
  static const std::map<std::string_view, std::string_view> table{
      {media::kDockerManifest, media::kOciManifest},
      {media::kDockerConfig, media::kOciConfig},
      {media::kDockerLayerGzip, media::kOciLayerGzip},
      {kDockerLayerTar, media::kOciLayer},
      {kDockerLayerZstd, media::kOciLayerZstd},
  };
  return table;
}

std::string translate(const std::string& type, ManifestFormat format) {
  bool docker_target = format == ManifestFormat::kDocker;
  if (media::is_docker(type) == docker_target) return type;
  const auto& table = docker_target ? to_docker() : to_oci();
  auto it = table.find(type);
  if (it == table.end())
    throw RegistryError(ErrorKind::kBadInput, "media type " + type + " has no " +
                                                  (docker_target ? "Docker schema 2" : "OCI") +
                                                  " equivalent");
  return std::string(it->second);
}

}  // namespace

std::optional<ManifestFormat> parse_manifest_format(std::string_view name) {
  if (name == "oci") return ManifestFormat::kOci;
  if (name == "docker") return ManifestFormat::kDocker;
  return std::nullopt;
}

oci::Manifest convert_manifest(oci::Manifest manifest, ManifestFormat format) {
  manifest.media_type = translate(manifest.media_type, format);
  manifest.config.media_type = translate(manifest.config.media_type, format);
  for (auto& layer : manifest.layers) layer.media_type = translate(layer.media_type, format);
  // Docker schema 2 has no manifest annotations.
  if (format == ManifestFormat::kDocker) manifest.annotations.clear();
  return manifest;
}

std::string index_media_type(ManifestFormat format) {
  return std::string(format == ManifestFormat::kDocker ? media::kDockerManifestList : media::kOciIndex);
}

}  // namespace gkebuild::registry
