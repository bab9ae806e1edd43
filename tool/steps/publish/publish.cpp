#include "tool/steps/publish/publish.h"

#include <chrono>

#include "base/rfc3339.h"
#include "tool/steps/publish/pins.h"

namespace gkebuild::publish {
namespace fs = std::filesystem;

namespace {

int64_t now_seconds() {
  using namespace std::chrono;
  return duration_cast<seconds>(system_clock::now().time_since_epoch()).count();
}

}  // namespace

std::vector<PublishedImage> publish_images(const project::Project& project, oci::Layout& store,
                                           const std::vector<project_images::ProjectImage>& built,
                                           const registry::PushOptions& push) {
  const fs::path pin_file = pins_file(project.dir);
  std::vector<PublishedImage> published;
  for (const auto& image : built) {
    const registry::Reference destination = registry::parse_reference(image.reference);
    registry::PushResult pushed = registry::push_image(store, image.reference, destination, push);
    record_pin(pin_file, image.name,
               {pushed.reference, destination.str(), image.manifest.digest.str(), fs::absolute(store.root()).string(),
                format_rfc3339_seconds(now_seconds())});
    published.push_back({image.name, pushed.reference, pushed.digest, pushed.bytes_sent(), std::move(pushed)});
  }
  return published;
}

}  // namespace gkebuild::publish
