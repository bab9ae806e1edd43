// USER and --chown names resolved as buildah resolves them: against the image's own
// /etc/passwd and /etc/group, never the host's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace gkebuild::build {

// "user[:group]", each a name or a number. A user found in passwd brings its primary
// group; a numeric user that is not there has the group of the same number.
// Throws InputError naming what is not found.
std::pair<uint32_t, uint32_t> resolve_owner(const std::string& spec, const std::optional<std::string>& passwd,
                                            const std::optional<std::string>& group);

}  // namespace gkebuild::build
