// A cache folder filled once: under a temporary name, then renamed into place, so an
// interrupted fill is never mistaken for a finished one, and two processes or threads filling
// the same folder at once both end with the one that was renamed first.
#pragma once

#include <filesystem>
#include <functional>

namespace gkebuild::local_runner {

// Does nothing when `folder` exists. Otherwise creates a temporary sibling (mode 0755), lets
// `fill` write into it and renames it to `folder`; removes it when `fill` throws. Throws
// std::runtime_error when the rename fails and no other fill has made `folder` either.
void make_folder_once(const std::filesystem::path& folder,
                      const std::function<void(const std::filesystem::path& temporary)>& fill);

}  // namespace gkebuild::local_runner
