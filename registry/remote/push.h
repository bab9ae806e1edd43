// Pushing an image from an OCI layout to a registry: every blob first (only
// those the registry lacks, in parallel), the manifest last, so a tag never
// names a partial image.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "images/oci/layout.h"
#include "registry/remote/manifest_format.h"
#include "registry/transport/reference.h"
#include "registry/transport/session.h"

namespace gkebuild::registry {

// What happened to one blob, for progress displays.
struct BlobProgress {
  std::string digest;
  int64_t size = 0;
  uint64_t sent = 0;  // bytes of the current attempt
  bool done = false;
};

struct PushOptions {
  SessionOptions session;
  int jobs = 4;                                 // blobs in flight at once
  std::optional<ManifestFormat> format;         // nullopt: as stored in the layout
  std::vector<std::string> extra_tags;          // besides the destination's own tag
  uint64_t monolithic_limit = 8 << 20;          // larger blobs are streamed with PATCH
  std::function<void(const BlobProgress&)> on_progress;  // called from worker threads
};

enum class BlobOutcome { kPresent, kMounted, kUploaded };

struct PushedBlob {
  std::string digest;
  std::string media_type;
  int64_t size = 0;
  BlobOutcome outcome = BlobOutcome::kPresent;
  uint64_t bytes_sent = 0;
};

struct PushResult {
  std::string reference;  // "registry/repository@sha256:…"
  std::string digest;     // of the top manifest (or index)
  std::string media_type;
  int64_t size = 0;
  std::vector<std::string> tags;
  std::vector<PushedBlob> blobs;
  uint64_t bytes_sent() const;  // blob bytes sent, retries included
};

// Pushes the image tagged `tag` in `layout` to `destination` (its tag, plus
// options.extra_tags; by digest only when there is none). Throws RegistryError.
PushResult push_image(oci::Layout& layout, std::string_view tag, const Reference& destination,
                      const PushOptions& options);

}  // namespace gkebuild::registry
