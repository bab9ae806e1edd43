#include "registry/remote/push_plan.h"

#include <set>

#include "images/oci/media_types.h"
#include "registry/transport/errors.h"

namespace gkebuild::registry {
namespace {

bool needs_conversion(const std::string& media_type, const std::optional<ManifestFormat>& format) {
  return format && oci::media::is_docker(media_type) != (*format == ManifestFormat::kDocker);
}

class Planner {
 public:
  Planner(const oci::Layout& layout, const std::optional<ManifestFormat>& format)
      : layout_(layout), format_(format) {}

  // Plans `descriptor` and returns the descriptor the registry will know it by.
  oci::Descriptor add(const oci::Descriptor& descriptor, int depth) {
    if (depth > 4) throw RegistryError(ErrorKind::kBadInput, "image indexes nest too deeply");
    std::string raw = read(descriptor);
    PlannedManifest planned;
    if (oci::media::is_index(descriptor.media_type)) {
      planned = plan_index(raw, depth);
    } else if (oci::media::is_manifest(descriptor.media_type)) {
      planned = plan_manifest(raw);
    } else {
      throw RegistryError(ErrorKind::kBadInput, descriptor.digest.str() + " has media type " +
                                                    descriptor.media_type + ", not an image");
    }
    oci::Descriptor out = descriptor;
    out.media_type = planned.media_type;
    out.digest = planned.digest;
    out.size = static_cast<int64_t>(planned.bytes.size());
    plan_.manifests.push_back(std::move(planned));
    return out;
  }

  PushPlan take() { return std::move(plan_); }

 private:
  std::string read(const oci::Descriptor& d) {
    try {
      return layout_.read_blob(d.digest);
    } catch (const gkebuild::Error& e) {  // a blob missing or corrupted stays a failed operation
      throw gkebuild::Error(e.kind(), layout_.root().string() + ": " + e.what());
    } catch (const std::exception& e) {
      throw RegistryError(ErrorKind::kBadInput, layout_.root().string() + ": " + e.what());
    }
  }

  void add_blob(const oci::Descriptor& blob) {
    if (seen_.insert(blob.digest.str()).second) plan_.blobs.push_back(blob);
  }

  PlannedManifest plan_manifest(const std::string& raw) {
    oci::Manifest manifest = oci::parse_manifest(raw);
    bool convert = needs_conversion(manifest.media_type, format_);
    if (convert) manifest = convert_manifest(std::move(manifest), *format_);
    add_blob(manifest.config);
    for (const auto& layer : manifest.layers) add_blob(layer);
    std::string bytes = convert ? oci::to_json_text(manifest) : raw;
    return {manifest.media_type, bytes, oci::sha256_of(bytes)};
  }

  PlannedManifest plan_index(const std::string& raw, int depth) {
    oci::Index index = oci::parse_index(raw);
    bool changed = needs_conversion(index.media_type, format_);
    for (auto& child : index.manifests) {
      auto pushed = add(child, depth + 1);
      changed = changed || pushed.digest != child.digest;
      child = pushed;
    }
    if (changed && format_) index.media_type = index_media_type(*format_);
    if (changed && format_ == ManifestFormat::kDocker) index.annotations.clear();
    std::string bytes = changed ? oci::to_json_text(index) : raw;
    return {index.media_type, bytes, oci::sha256_of(bytes)};
  }

  const oci::Layout& layout_;
  std::optional<ManifestFormat> format_;
  PushPlan plan_;
  std::set<std::string> seen_;
};

}  // namespace

PushPlan plan_push(const oci::Layout& layout, const oci::Descriptor& top,
                   const std::optional<ManifestFormat>& format) {
  Planner planner(layout, format);
  planner.add(top, 0);
  return planner.take();
}

}  // namespace gkebuild::registry
