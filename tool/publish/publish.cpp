#include "publish/publish.h"

#include <chrono>
#include <memory>

#include "base/rfc3339.h"
#include "image/layout_sink.h"
#include "oci/manifest.h"
#include "publish/pins.h"
#include "publish/registry_pull.h"

namespace gkebuild::publish {
namespace fs = std::filesystem;

namespace {

int64_t now_seconds() {
  using namespace std::chrono;
  return duration_cast<seconds>(system_clock::now().time_since_epoch()).count();
}

PublishedImage push_one(oci::Layout& store, const imageproject::ProjectImage& built, const PublishOptions& options,
                        const fs::path& pin_file) {
  const oci::Descriptor manifest = image::write_to_layout(store, built.result.image);
  store.tag(built.reference, manifest);
  const registry::Reference destination = registry::parse_reference(built.reference);
  registry::PushResult pushed = registry::push_image(store, built.reference, destination, options.push);
  record_pin(pin_file, built.name,
             {pushed.reference, destination.str(), manifest.digest.str(), fs::absolute(store.root()).string(),
              format_rfc3339_seconds(now_seconds())});
  return {built.name, pushed.reference, pushed.digest, pushed.bytes_sent(), std::move(pushed)};
}

}  // namespace

std::vector<PublishedImage> publish_project_images(const fs::path& project_file, const PublishOptions& options) {
  const fs::path project_dir = fs::absolute(project_file).parent_path();
  const fs::path layout = options.layout.empty() ? project_dir / ".gkebuild" / "oci" : options.layout;
  auto store = std::make_shared<oci::Layout>(oci::Layout::open_or_create(layout));
  imageproject::ProjectImageOptions build = options.build;
  if (!build.build.pull) build.build.pull = registry_pull(store, options.push.session);
  std::vector<PublishedImage> published;
  for (const auto& built : imageproject::build_project_images(project_file, build, store))
    published.push_back(push_one(*store, built, options, pins_file(project_dir)));
  return published;
}

}  // namespace gkebuild::publish
