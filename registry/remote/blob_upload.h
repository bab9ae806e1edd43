// Putting one blob into one repository: HEAD to skip what is there, a
// cross-repository mount when another repository of the same registry holds
// it, else an upload: one PUT for small blobs, one streamed PATCH and a
// closing PUT for large ones. Failed uploads start again from a new session.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "images/oci/descriptor.h"
#include "registry/transport/session.h"

namespace gkebuild::registry {

class BlobUploader {
 public:
  // `scopes`: the token scopes for this repository (push, plus pull on mount sources).
  BlobUploader(Session& session, std::string repository, std::vector<std::string> scopes,
               uint64_t monolithic_limit);

  bool exists(const oci::Descriptor& blob);
  // True when the registry mounted the blob from `from` (same registry).
  bool mount(const oci::Descriptor& blob, const std::string& from);
  // Uploads the bytes in `file`, calling `on_sent` with the bytes sent by the
  // current attempt. Returns the request body bytes sent, retries included.
  uint64_t upload(const oci::Descriptor& blob, const std::filesystem::path& file,
                  const std::function<void(uint64_t)>& on_sent);

 private:
  std::string start_session();
  HttpResponse send_file(const std::string& method, const std::string& url,
                         const std::filesystem::path& file, uint64_t size,
                         const std::function<void(uint64_t)>& on_sent);
  void check_stored(const HttpResponse& response, const oci::Descriptor& blob);
  std::string what(const oci::Descriptor& blob) const;

  Session& session_;
  std::string repository_;
  std::vector<std::string> scopes_;
  uint64_t monolithic_limit_;
};

// The upload URL `location` with the closing "digest=" parameter added.
std::string with_digest(const std::string& location, const std::string& digest);

}  // namespace gkebuild::registry
