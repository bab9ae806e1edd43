// ADD --checksum=sha256:… URL: the file is downloaded once (libcurl, redirects followed),
// verified against the checksum, and kept in the store's cache by that checksum, so a
// rebuild does not download it again. Without a checksum nothing is downloaded: a build
// must not depend on what a server answers today.
#pragma once

#include <filesystem>
#include <string>

namespace gkebuild::build {

// The verified file, under `cache` (the store's gkebuild/cache/remote). Throws CopyError
// saying what failed: a malformed checksum, an unreachable server, a status, a mismatch.
std::filesystem::path fetch_verified(const std::string& url, const std::string& checksum,
                                     const std::filesystem::path& cache);

bool is_remote_source(const std::string& source);

}  // namespace gkebuild::build
