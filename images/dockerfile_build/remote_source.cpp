#include "images/dockerfile_build/remote_source.h"

#include "base/atomic_file.h"
#include "base/error.h"
#include "base/http_client.h"
#include "images/dockerfile_build/copy_sources.h"
#include "images/oci/digest.h"

namespace gkebuild::build {
namespace fs = std::filesystem;

bool is_remote_source(const std::string& source) {
  return source.starts_with("http://") || source.starts_with("https://") || source.starts_with("git@");
}

fs::path fetch_verified(const std::string& url, const std::string& checksum, const fs::path& cache) {
  oci::Digest expected;
  try {
    expected = oci::Digest::parse(checksum);
  } catch (const InputError&) {
    throw CopyError("--checksum=" + checksum + ": expected sha256:<64 hex digits>");
  }
  if (expected.algorithm != "sha256") throw CopyError("--checksum=" + checksum + ": only sha256 is supported");
  if (url.starts_with("git@")) throw CopyError("ADD of a git repository is not supported; clone it beforehand and COPY it");
  fs::path kept = cache / expected.hex;
  std::error_code error;
  if (fs::is_regular_file(kept, error)) return kept;
  fs::create_directories(cache);
  TemporaryFile partial(cache, "download");
  oci::Sha256 hasher;
  HttpRequest request;
  request.url = url;
  request.follow_redirects = true;
  request.body_limit = kNoBodyLimit;
  request.sink = [&](std::string_view chunk) {
    hasher.update(chunk);
    partial.write(chunk);
    return true;
  };
  HttpResponse response;
  try {
    HttpClient client;
    response = client.send(request);
  } catch (const HttpError& e) {
    throw CopyError("cannot download " + origin_of(url) + ": " + e.reason());
  }
  if (response.status < 200 || response.status >= 300) {
    throw CopyError("cannot download " + without_query(url) + ": the server answered " +
                    std::to_string(response.status));
  }
  oci::Digest got = hasher.finish();
  if (got != expected) {
    throw CopyError("the download of " + without_query(url) + " has checksum " + got.str() + ", not " + expected.str());
  }
  partial.commit(kept);
  return kept;
}

}  // namespace gkebuild::build
