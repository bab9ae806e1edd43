// Media types of OCI and Docker schema 2 objects. One image uses one family.
#pragma once

#include <string_view>

namespace gkebuild::oci::media {

inline constexpr std::string_view kOciIndex = "application/vnd.oci.image.index.v1+json";
inline constexpr std::string_view kOciManifest = "application/vnd.oci.image.manifest.v1+json";
inline constexpr std::string_view kOciConfig = "application/vnd.oci.image.config.v1+json";
inline constexpr std::string_view kOciLayer = "application/vnd.oci.image.layer.v1.tar";
inline constexpr std::string_view kOciLayerGzip = "application/vnd.oci.image.layer.v1.tar+gzip";
inline constexpr std::string_view kOciLayerZstd = "application/vnd.oci.image.layer.v1.tar+zstd";

inline constexpr std::string_view kDockerManifestList =
    "application/vnd.docker.distribution.manifest.list.v2+json";
inline constexpr std::string_view kDockerManifest =
    "application/vnd.docker.distribution.manifest.v2+json";
inline constexpr std::string_view kDockerConfig = "application/vnd.docker.container.image.v1+json";
inline constexpr std::string_view kDockerLayerGzip =
    "application/vnd.docker.image.rootfs.diff.tar.gzip";

inline bool is_index(std::string_view t) { return t == kOciIndex || t == kDockerManifestList; }
inline bool is_manifest(std::string_view t) { return t == kOciManifest || t == kDockerManifest; }
inline bool is_docker(std::string_view t) { return t.starts_with("application/vnd.docker."); }

}  // namespace gkebuild::oci::media
