#include "tool/steps/publish/registry_pull.h"

#include "images/image/layout_source.h"
#include "registry/remote/pull.h"

namespace gkebuild::publish {

std::function<image::Image(const std::string&)> registry_pull(std::shared_ptr<oci::Layout> store,
                                                              registry::SessionOptions session) {
  return [store, session](const std::string& text) {
    registry::PullOptions options;
    options.session = session;
    auto pulled = registry::pull_image(registry::parse_reference(text), *store, options);
    return image::load_image(store, pulled.descriptor);
  };
}

}  // namespace gkebuild::publish
