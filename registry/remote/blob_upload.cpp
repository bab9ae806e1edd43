#include "registry/remote/blob_upload.h"

#include <cstdio>
#include <memory>

#include "registry/transport/errors.h"
#include "registry/transport/status.h"

namespace gkebuild::registry {
namespace {

using File = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;

File open_blob(const std::filesystem::path& file) {
  File f(std::fopen(file.c_str(), "rb"), &std::fclose);
  if (!f) throw RegistryError(ErrorKind::kBadInput, "cannot read blob " + file.string());
  return f;
}

}  // namespace

std::string with_digest(const std::string& location, const std::string& digest) {
  auto colon = digest.find(':');
  std::string encoded = digest.substr(0, colon) + "%3A" + digest.substr(colon + 1);
  return location + (location.find('?') == std::string::npos ? "?" : "&") + "digest=" + encoded;
}

BlobUploader::BlobUploader(Session& session, std::string repository,
                           std::vector<std::string> scopes, uint64_t monolithic_limit)
    : session_(session),
      repository_(std::move(repository)),
      scopes_(std::move(scopes)),
      monolithic_limit_(monolithic_limit) {}

std::string BlobUploader::what(const oci::Descriptor& blob) const {
  return "pushing " + blob.digest.str() + " to " + session_.registry() + "/" + repository_;
}

bool BlobUploader::exists(const oci::Descriptor& blob) {
  bool found = false;
  with_retries(session_.options().retry, session_.options().log, [&] {
    HttpRequest request;
    request.method = "HEAD";
    request.url = "/v2/" + repository_ + "/blobs/" + blob.digest.str();
    auto response = session_.send(request, scopes_);
    if (response.status != 404) expect_status(response, {200}, what(blob));
    found = response.status == 200;
  });
  return found;
}

bool BlobUploader::mount(const oci::Descriptor& blob, const std::string& from) {
  HttpRequest request;
  request.method = "POST";
  request.url = "/v2/" + repository_ + "/blobs/uploads/?mount=" + blob.digest.str() + "&from=" + from;
  try {
    auto response = session_.send(request, scopes_);
    if (response.status == 201) return true;
    // 202 opened an upload session instead; it is left to expire, and the upload
    // opens its own so a retry never reuses a half-used session.
  } catch (const RegistryError& e) {
    // Registries refuse mounts in many ways (403, odd errors): upload instead.
    if (session_.options().log) session_.options().log(std::string("mount refused: ") + e.what());
  }
  return false;
}

std::string BlobUploader::start_session() {
  HttpRequest request;
  request.method = "POST";
  request.url = "/v2/" + repository_ + "/blobs/uploads/";
  auto response = session_.send(request, scopes_);
  expect_status(response, {202}, "starting an upload to " + session_.registry() + "/" + repository_);
  auto location = response.header("location");
  if (location.empty())
    throw RegistryError(ErrorKind::kRemote, session_.registry() + " opened an upload without a Location");
  return location;
}

HttpResponse BlobUploader::send_file(const std::string& method, const std::string& url,
                                     const std::filesystem::path& file, uint64_t size,
                                     const std::function<void(uint64_t)>& on_sent) {
  File in = open_blob(file);
  HttpRequest request;
  request.method = method;
  request.url = url;
  request.headers.push_back("Content-Type: application/octet-stream");
  request.upload_size = size;
  request.upload = [f = in.get()](char* buffer, size_t n) { return std::fread(buffer, 1, n, f); };
  request.on_sent = on_sent;
  request.stall = session_.options().timeouts.blob_stream;
  // A monolithic PUT closes the upload: the registry verifies before it answers.
  if (method == "PUT") request.answer_wait_seconds = session_.options().timeouts.upload_answer_seconds;
  return session_.send(request, scopes_);
}

void BlobUploader::check_stored(const HttpResponse& response, const oci::Descriptor& blob) {
  expect_status(response, {201}, what(blob));
  auto stored = response.header("docker-content-digest");
  if (!stored.empty() && stored != blob.digest.str())
    throw RegistryError(ErrorKind::kRemote, what(blob) + ": the registry stored it as " + stored);
}

uint64_t BlobUploader::upload(const oci::Descriptor& blob, const std::filesystem::path& file,
                              const std::function<void(uint64_t)>& on_sent) {
  uint64_t total = 0;
  auto size = static_cast<uint64_t>(blob.size);
  with_retries(session_.options().retry, session_.options().log, [&] {
    std::string location = session_.resolve(start_session());
    HttpResponse response;
    if (size <= monolithic_limit_) {
      response = send_file("PUT", with_digest(location, blob.digest.str()), file, size, on_sent);
      total += response.bytes_sent;
    } else {
      response = send_file("PATCH", location, file, size, on_sent);
      total += response.bytes_sent;
      expect_status(response, {202, 204}, what(blob));
      if (auto next = response.header("location"); !next.empty()) location = session_.resolve(next);
      HttpRequest close;
      close.method = "PUT";
      close.url = with_digest(location, blob.digest.str());
      close.headers.push_back("Content-Type: application/octet-stream");
      close.answer_wait_seconds = session_.options().timeouts.upload_answer_seconds;
      response = session_.send(close, scopes_);
    }
    check_stored(response, blob);
  });
  return total;
}

}  // namespace gkebuild::registry
