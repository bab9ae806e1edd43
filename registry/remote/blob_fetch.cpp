#include "registry/remote/blob_fetch.h"

#include <nlohmann/json.hpp>
#include <optional>

#include "images/oci/media_types.h"
#include "registry/transport/errors.h"
#include "registry/transport/status.h"

namespace gkebuild::registry {
namespace {

std::string accept_header() {
  namespace media = oci::media;
  return "Accept: " + std::string(media::kOciManifest) + ", " + std::string(media::kOciIndex) +
         ", " + std::string(media::kDockerManifest) + ", " + std::string(media::kDockerManifestList);
}

// What a descriptor promises: exactly `size` bytes. The sink refuses the first
// byte past it, so an endless body ends at once instead of filling the disk.
class SizedBody {
 public:
  SizedBody(std::string where, const oci::Descriptor& blob) : where_(std::move(where)), blob_(blob) {
    if (blob_.size < 0)
      throw RegistryError(ErrorKind::kRemote, where_ + ": the descriptor of " + blob_.digest.str() +
                                                  " gives a negative size (" + std::to_string(blob_.size) + ")");
  }

  BodySink sink(std::function<void(std::string_view)> write) {
    return [this, write = std::move(write)](std::string_view bytes) {
      received_ += bytes.size();
      if (received_ > static_cast<uint64_t>(blob_.size))
        throw RegistryError(ErrorKind::kRemote, where_ + " sent more than the " + std::to_string(blob_.size) +
                                                    " bytes its descriptor gives for " + blob_.digest.str());
      write(bytes);
      return true;
    };
  }

  // A body that ended early is as wrong as one that went on too long.
  void expect_complete() const {
    if (received_ < static_cast<uint64_t>(blob_.size))
      throw RegistryError(ErrorKind::kRemote, where_ + " sent " + std::to_string(received_) + " of the " +
                                                  std::to_string(blob_.size) + " bytes its descriptor gives for " +
                                                  blob_.digest.str());
  }

 private:
  std::string where_;
  const oci::Descriptor& blob_;
  uint64_t received_ = 0;
};

}  // namespace

void fetch_blob(Session& session, const std::string& repository, const oci::Descriptor& blob,
                oci::Layout& layout) {
  std::string where = session.registry() + "/" + repository;
  std::vector<std::string> scopes{repository_scope(repository, "pull")};
  with_retries(session.options().retry, session.options().log, [&] {
    // Dropped with its temporary file when anything below throws.
    oci::BlobWriter writer(layout);
    SizedBody body(where, blob);
    HttpRequest request;
    request.url = "/v2/" + repository + "/blobs/" + blob.digest.str();
    request.sink = body.sink([&](std::string_view bytes) { writer.write(bytes); });
    request.body_limit = kNoBodyLimit;  // the sink holds the body to the descriptor's size
    request.stall = session.options().timeouts.blob_stream;
    auto response = session.send(request, scopes);
    expect_status(response, {200}, "fetching " + blob.digest.str() + " from " + where);
    body.expect_complete();
    try {
      writer.commit(blob.media_type, blob.digest);
    } catch (const std::runtime_error& e) {
      throw RegistryError(ErrorKind::kRemote, where + " sent wrong bytes for " + blob.digest.str() +
                                                  " (" + e.what() + ")");
    }
  });
}

namespace {

// By tag the size is unknown and the client's default limit (16 MiB) holds the
// body; by a descriptor it is held to the descriptor's size like any blob.
FetchedManifest fetch_manifest_by(Session& session, const std::string& repository, const std::string& reference,
                                  const oci::Descriptor* known) {
  std::string where = session.registry() + "/" + repository + (reference.starts_with("sha256:") ? "@" : ":") + reference;
  FetchedManifest out;
  with_retries(session.options().retry, session.options().log, [&] {
    std::optional<SizedBody> body;
    HttpRequest request;
    request.url = "/v2/" + repository + "/manifests/" + reference;
    request.headers.push_back(accept_header());
    if (known) {
      body.emplace(session.registry() + "/" + repository, *known);
      request.sink = body->sink([&](std::string_view bytes) { out.bytes.append(bytes); });
    }
    out.bytes.clear();
    auto response = session.send(request, {repository_scope(repository, "pull")});
    if (response.status == 404)
      throw RegistryError(ErrorKind::kRemote, where + " does not exist (the registry answered 404)");
    expect_status(response, {200}, "fetching the manifest of " + where);
    if (body) body->expect_complete();
    else out.bytes = std::move(response.body);
    out.digest = oci::sha256_of(out.bytes);
    std::string stated = response.header("docker-content-digest");
    bool by_digest = reference.find(':') != std::string::npos;
    if ((by_digest && out.digest.str() != reference) || (!stated.empty() && stated != out.digest.str()))
      throw RegistryError(ErrorKind::kRemote, where + ": the manifest's content does not match its digest (" +
                                                  out.digest.str() + ")");
    auto json = nlohmann::json::parse(out.bytes, nullptr, false);
    if (!json.is_object())
      throw RegistryError(ErrorKind::kRemote, where + ": the registry answered something that is not a manifest");
    out.media_type = json.value("mediaType", "");
    if (out.media_type.empty()) out.media_type = response.header("content-type");
    if (!oci::media::is_manifest(out.media_type) && !oci::media::is_index(out.media_type))
      throw RegistryError(ErrorKind::kRemote, where + " has an unsupported manifest type \"" +
                                                  out.media_type + "\"");
  });
  return out;
}

}  // namespace

FetchedManifest fetch_manifest(Session& session, const std::string& repository, const std::string& reference) {
  return fetch_manifest_by(session, repository, reference, nullptr);
}

FetchedManifest fetch_manifest(Session& session, const std::string& repository, const oci::Descriptor& manifest) {
  return fetch_manifest_by(session, repository, manifest.digest.str(), &manifest);
}

}  // namespace gkebuild::registry
