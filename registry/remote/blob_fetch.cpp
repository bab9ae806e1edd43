#include "remote/blob_fetch.h"

#include <nlohmann/json.hpp>
#include <optional>

#include "oci/media_types.h"
#include "transport/errors.h"
#include "transport/status.h"

namespace gkebuild::registry {
namespace {

std::string accept_header() {
  namespace media = oci::media;
  return "Accept: " + std::string(media::kOciManifest) + ", " + std::string(media::kOciIndex) +
         ", " + std::string(media::kDockerManifest) + ", " + std::string(media::kDockerManifestList);
}

}  // namespace

void fetch_blob(Session& session, const std::string& repository, const oci::Descriptor& blob,
                oci::Layout& layout) {
  std::string where = session.registry() + "/" + repository;
  std::vector<std::string> scopes{repository_scope(repository, "pull")};
  with_retries(session.options().retry, session.options().log, [&] {
    std::optional<oci::BlobWriter> writer;
    writer.emplace(layout);
    HttpRequest request;
    request.url = "/v2/" + repository + "/blobs/" + blob.digest.str();
    request.sink = [&](std::string_view bytes) {
      writer->write(bytes);
      return true;
    };
    request.body_limit = kNoBodyLimit;  // the digest check judges what arrived
    auto response = session.send(request, scopes);
    expect_status(response, {200}, "fetching " + blob.digest.str() + " from " + where);
    try {
      writer->commit(blob.media_type, blob.digest);
    } catch (const std::runtime_error& e) {
      throw RegistryError(ErrorKind::kRemote, where + " sent wrong bytes for " + blob.digest.str() +
                                                  " (" + e.what() + ")");
    }
  });
}

FetchedManifest fetch_manifest(Session& session, const std::string& repository,
                               const std::string& reference) {
  std::string where = session.registry() + "/" + repository + (reference.starts_with("sha256:") ? "@" : ":") + reference;
  FetchedManifest out;
  with_retries(session.options().retry, session.options().log, [&] {
    HttpRequest request;
    request.url = "/v2/" + repository + "/manifests/" + reference;
    request.headers.push_back(accept_header());
    auto response = session.send(request, {repository_scope(repository, "pull")});
    if (response.status == 404)
      throw RegistryError(ErrorKind::kRemote, where + " does not exist (the registry answered 404)");
    expect_status(response, {200}, "fetching the manifest of " + where);
    out.bytes = std::move(response.body);
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

}  // namespace gkebuild::registry
