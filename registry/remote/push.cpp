#include "registry/remote/push.h"

#include <map>
#include <mutex>

#include "base/parallel.h"
#include "registry/remote/blob_fetch.h"
#include "registry/remote/blob_locations.h"
#include "registry/remote/blob_upload.h"
#include "registry/remote/push_plan.h"
#include "registry/transport/errors.h"
#include "registry/transport/status.h"

namespace gkebuild::registry {
namespace {

class Pusher {
 public:
  Pusher(oci::Layout& layout, const Reference& destination, const PushOptions& options)
      : layout_(layout),
        destination_(destination),
        options_(options),
        locations_(BlobLocations::file_in(layout.root())),
        session_(destination.api_host(), options.session) {}

  PushResult push(const PushPlan& plan, std::vector<std::string> tags) {
    scopes_ = scopes_for(plan);
    BlobUploader uploader(session_, destination_.repository, scopes_, options_.monolithic_limit);
    PushResult result;
    result.blobs.resize(plan.blobs.size());
    run_parallel(plan.blobs.size(), options_.jobs,
                 [&](size_t i) { result.blobs[i] = push_blob(uploader, plan.blobs[i]); });
    // Every blob is confirmed: only now may a manifest (and a tag) appear.
    for (size_t i = 0; i + 1 < plan.manifests.size(); ++i)
      put_manifest(plan.manifests[i], plan.manifests[i].digest.str());
    const auto& top = plan.manifests.back();
    if (tags.empty()) put_manifest(top, top.digest.str());
    for (const auto& tag : tags) put_manifest(top, tag);
    remember(plan);
    result.digest = top.digest.str();
    result.reference = destination_.name() + "@" + result.digest;
    result.media_type = top.media_type;
    result.size = static_cast<int64_t>(top.bytes.size());
    result.tags = std::move(tags);
    return result;
  }

 private:
  // One token for the whole push: push on the destination, and pull on every
  // repository of this registry a blob could be mounted from.
  std::vector<std::string> scopes_for(const PushPlan& plan) {
    std::vector<std::string> scopes{repository_scope(destination_.repository, "pull,push")};
    for (const auto& blob : plan.blobs)
      for (const auto& from : mount_sources(blob)) {
        auto scope = repository_scope(from, "pull");
        if (std::find(scopes.begin(), scopes.end(), scope) == scopes.end()) scopes.push_back(scope);
      }
    return scopes;
  }

  std::vector<std::string> mount_sources(const oci::Descriptor& blob) const {
    std::vector<std::string> out;
    for (const auto& [registry, repository] : locations_.find(blob.digest.str()))
      if (registry == destination_.registry && repository != destination_.repository)
        out.push_back(repository);
    return out;
  }

  PushedBlob push_blob(BlobUploader& uploader, const oci::Descriptor& blob) {
    PushedBlob pushed{blob.digest.str(), blob.media_type, blob.size, BlobOutcome::kPresent, 0};
    report(blob, 0, false);
    if (!uploader.exists(blob)) {
      bool mounted = false;
      for (const auto& from : mount_sources(blob))
        if ((mounted = uploader.mount(blob, from))) break;
      if (mounted) {
        pushed.outcome = BlobOutcome::kMounted;
      } else {
        ensure_local(blob);
        pushed.outcome = BlobOutcome::kUploaded;
        pushed.bytes_sent = uploader.upload(blob, layout_.blob_path(blob.digest),
                                            [&](uint64_t sent) { report(blob, sent, false); });
      }
    }
    report(blob, static_cast<uint64_t>(blob.size), true);
    return pushed;
  }

  // A base layer that was never downloaded comes from where it was pulled from.
  void ensure_local(const oci::Descriptor& blob) {
    if (layout_.has_blob(blob.digest)) return;
    for (const auto& [registry, repository] : locations_.find(blob.digest.str())) {
      if (registry == destination_.registry) continue;
      fetch_blob(source(registry), repository, blob, layout_);
      return;
    }
    throw RegistryError(ErrorKind::kBadInput, "blob " + blob.digest.str() + " is missing from " +
                                                  layout_.root().string() +
                                                  " and no registry is known to hold it");
  }

  Session& source(const std::string& registry) {
    std::lock_guard lock(sources_mutex_);
    auto& slot = sources_[registry];
    if (!slot) {
      auto host = Reference{registry, "x", "", ""}.api_host();
      slot = std::make_unique<Session>(host, options_.session);
    }
    return *slot;
  }

  void put_manifest(const PlannedManifest& manifest, const std::string& reference) {
    std::string what = "pushing the manifest " + destination_.name() +
                       (reference.starts_with("sha256:") ? "@" : ":") + reference;
    with_retries(options_.session.retry, options_.session.log, [&] {
      HttpRequest request;
      request.method = "PUT";
      request.url = "/v2/" + destination_.repository + "/manifests/" + reference;
      request.headers.push_back("Content-Type: " + manifest.media_type);
      request.body = manifest.bytes;
      auto response = session_.send(request, scopes_);
      expect_status(response, {200, 201}, what);
      auto stored = response.header("docker-content-digest");
      if (!stored.empty() && stored != manifest.digest.str())
        throw RegistryError(ErrorKind::kRemote, what + ": the registry stored it as " + stored +
                                                    " instead of " + manifest.digest.str());
    });
  }

  void remember(const PushPlan& plan) {
    for (const auto& blob : plan.blobs)
      locations_.add(blob.digest.str(), destination_.registry, destination_.repository);
    try {
      locations_.save();
    } catch (const std::exception& e) {
      // Only a cache for later mounts: the push itself succeeded.
      if (options_.session.log) options_.session.log(std::string("cannot save blob locations: ") + e.what());
    }
  }

  void report(const oci::Descriptor& blob, uint64_t sent, bool done) {
    if (options_.on_progress) options_.on_progress({blob.digest.str(), blob.size, sent, done});
  }

  oci::Layout& layout_;
  const Reference& destination_;
  const PushOptions& options_;
  BlobLocations locations_;
  Session session_;
  std::vector<std::string> scopes_;
  std::mutex sources_mutex_;
  std::map<std::string, std::unique_ptr<Session>> sources_;
};

}  // namespace

uint64_t PushResult::bytes_sent() const {
  uint64_t total = 0;
  for (const auto& blob : blobs) total += blob.bytes_sent;
  return total;
}

PushResult push_image(oci::Layout& layout, std::string_view tag, const Reference& destination,
                      const PushOptions& options) {
  auto top = layout.resolve(tag);
  if (!top)
    throw RegistryError(ErrorKind::kBadInput, "no image tagged \"" + std::string(tag) + "\" in " +
                                                  layout.root().string());
  PushPlan plan = plan_push(layout, *top, options.format);
  std::vector<std::string> tags;
  if (!destination.tag.empty()) tags.push_back(destination.tag);
  for (const auto& extra : options.extra_tags) {
    if (!is_valid_tag(extra)) throw RegistryError(ErrorKind::kBadInput, "invalid tag \"" + extra + "\"");
    if (std::find(tags.begin(), tags.end(), extra) == tags.end()) tags.push_back(extra);
  }
  Pusher pusher(layout, destination, options);
  return pusher.push(plan, tags);
}

}  // namespace gkebuild::registry
