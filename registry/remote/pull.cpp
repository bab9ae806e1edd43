#include "registry/remote/pull.h"

#include "base/parallel.h"
#include "images/oci/media_types.h"
#include "registry/remote/blob_fetch.h"
#include "registry/remote/blob_locations.h"
#include "registry/transport/errors.h"

namespace gkebuild::registry {
namespace {

std::string platform_name(const oci::Platform& p) {
  return p.os + "/" + p.architecture + (p.variant.empty() ? "" : "/" + p.variant);
}

oci::Descriptor pick_platform(const oci::Index& index, const oci::Platform& wanted,
                              const std::string& where) {
  for (const auto& child : index.manifests)
    if (child.platform && child.platform->os == wanted.os &&
        child.platform->architecture == wanted.architecture &&
        (wanted.variant.empty() || child.platform->variant == wanted.variant) &&
        oci::media::is_manifest(child.media_type))
      return child;
  throw RegistryError(ErrorKind::kRemote, where + " has no image for " + platform_name(wanted));
}

template <typename Parse>
auto parse_or_fail(Parse parse, const std::string& text, const std::string& what) {
  try {
    return parse(text);
  } catch (const std::exception& e) {
    throw RegistryError(ErrorKind::kRemote, what + " is not valid: " + e.what());
  }
}

void store(oci::Layout& layout, const std::string& media_type, const std::string& bytes,
           const oci::Digest& digest) {
  if (layout.has_blob(digest)) return;
  auto stored = layout.write_blob(media_type, bytes);
  if (stored.digest != digest)
    throw RegistryError(ErrorKind::kRemote, "stored manifest digest differs from " + digest.str());
}

}  // namespace

PullResult pull_image(const Reference& reference, oci::Layout& layout, const PullOptions& options) {
  Session session(reference.api_host(), options.session);
  const std::string& repository = reference.repository;
  std::string where = reference.str();
  PullResult result;
  auto fetched = fetch_manifest(session, repository,
                                reference.digest.empty() ? (reference.tag.empty() ? "latest" : reference.tag)
                                                         : reference.digest);
  if (oci::media::is_index(fetched.media_type)) {
    store(layout, fetched.media_type, fetched.bytes, fetched.digest);
    result.index_digest = fetched.digest.str();
    auto index = parse_or_fail(oci::parse_index, fetched.bytes, "the index of " + where);
    auto child = pick_platform(index, options.platform, where);
    fetched = fetch_manifest(session, repository, child);
    if (!oci::media::is_manifest(fetched.media_type))
      throw RegistryError(ErrorKind::kRemote, where + ": the " + platform_name(options.platform) +
                                                  " entry is not an image manifest");
  }
  store(layout, fetched.media_type, fetched.bytes, fetched.digest);
  result.manifest = parse_or_fail(oci::parse_manifest, fetched.bytes, "the manifest of " + where);
  result.descriptor = {fetched.media_type, fetched.digest, static_cast<int64_t>(fetched.bytes.size()), {}, {}};
  result.resolved = reference;
  result.resolved.digest = fetched.digest.str();

  const auto& config = result.manifest.config;
  if (!layout.has_blob(config.digest)) fetch_blob(session, repository, config, layout);
  result.config = parse_or_fail(oci::parse_image_config, layout.read_blob(config.digest),
                                "the config of " + where);

  const auto& layers = result.manifest.layers;
  if (options.fetch_layers)
    run_parallel(layers.size(), options.jobs, [&](size_t i) {
      if (!layout.has_blob(layers[i].digest)) fetch_blob(session, repository, layers[i], layout);
    });

  BlobLocations locations(BlobLocations::file_in(layout.root()));
  locations.add(config.digest.str(), reference.registry, repository);
  for (const auto& layer : layers) locations.add(layer.digest.str(), reference.registry, repository);
  locations.save();
  if (!options.tag.empty()) layout.tag(options.tag, result.descriptor);
  return result;
}

}  // namespace gkebuild::registry
