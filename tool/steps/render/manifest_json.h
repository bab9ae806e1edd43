// `gkebuild render --format json`: the rendered manifests as one JSON list of objects (as
// `kubectl get -o json` items), for scripts that read JSON rather than YAML streams.
#pragma once

#include <ostream>
#include <vector>

#include "tool/steps/render/render.h"

namespace gkebuild::render {

// Writes every manifest's objects, in order, as one JSON list (keys in their YAML order).
void write_manifest_list_json(std::ostream& out, const std::vector<RenderedFile>& files);

}  // namespace gkebuild::render
