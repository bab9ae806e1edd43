#include "tool/steps/publish/pinned_references.h"

#include "images/oci/layout.h"
#include "registry/transport/reference.h"
#include "tool/steps/publish/pins.h"
#include "tool/steps/render/plan.h"

namespace gkebuild::publish {
namespace fs = std::filesystem;

namespace {

// The digest the local layout's tag for the image names now, empty when unknown.
std::string layout_digest(const ImagePin& pin, const std::string& tag, const fs::path& default_layout) {
  const fs::path dir = pin.layout.empty() ? default_layout : fs::path(pin.layout);
  std::error_code error;
  if (!fs::exists(dir / "index.json", error)) return "";
  try {
    auto found = oci::Layout::open(dir).resolve(tag);
    return found ? found->digest.str() : "";
  } catch (const std::exception&) {
    return "";  // an unreadable layout says nothing about the pin
  }
}

}  // namespace

std::map<std::string, std::string> pinned_references(const project::Project& project, const Warn& warn) {
  const fs::path file = pins_file(project.dir);
  const ImagePins pins = read_pins(file);
  std::map<std::string, std::string> references;
  for (const auto& image : project.images) {
    const auto pin = pins.find(image.name);
    if (pin == pins.end()) continue;
    const std::string tag = render::default_image_reference(project, image);
    const std::string repository = registry::parse_reference(tag).name();
    if (registry::parse_reference(pin->second.reference).name() != repository) {
      warn("image '" + image.name + "': " + file.string() + " pins " + pin->second.reference + ", but the project " +
           "now names " + repository + "; using " + tag + " (push again to pin it)");
      continue;
    }
    const std::string now = layout_digest(pin->second, tag, project.dir / ".gkebuild" / "oci");
    if (!pin->second.built.empty() && !now.empty() && now != pin->second.built)
      warn("image '" + image.name + "' was rebuilt since its last push (" + now + " in the layout, " +
           pin->second.built + " pushed); the manifests name the pushed " + pin->second.reference +
           "; run `gkebuild image --push " + image.name + "` to publish the new build");
    references[image.name] = pin->second.reference;
  }
  return references;
}

}  // namespace gkebuild::publish
