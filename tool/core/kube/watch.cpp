#include "tool/core/kube/watch.h"

#include <chrono>
#include <map>
#include <memory>
#include <stdexcept>

#include "base/error.h"
#include "tool/core/kube/api_error.h"
#include "tool/core/kube/wait_for.h"

namespace gkebuild::kube {
namespace {

using nlohmann::json;

// The object's metadata, read in place (json::value would copy it, labels and all, per event).
const json& metadata_of(const json& object) {
  static const json kNone = json::object();
  auto found = object.find("metadata");
  return found != object.end() && found->is_object() ? *found : kNone;
}

std::string key_of(const json& object) {
  const json& metadata = metadata_of(object);
  return metadata.value("namespace", "") + "/" + metadata.value("name", "");
}

std::string version_of(const json& object) {
  return metadata_of(object).value("resourceVersion", "");
}

// The session state: what the caller has been told so far, and where the stream is. Each
// step starts a request whose completion takes the next: list, watch, and after a watch
// ends, reconnect (at once after a server timeout, after a pause after a drop) or re-list.
class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(Client& client, const ResourceType& type, std::string namespace_name, WatchOptions options,
          std::function<bool(const WatchEvent&)> on_event, WatchCompletion done)
      : client_(client), type_(type), namespace_(std::move(namespace_name)), options_(std::move(options)),
        on_event_(std::move(on_event)), done_(std::move(done)) {}

  void relist() {
    ++stats_.lists;
    start_list(client_, type_, namespace_, options_.selectors,
               [self = shared_from_this()](json listed, std::exception_ptr error) {
                 if (error) return self->done_(self->stats_, error);
                 self->step([&] {
                   const bool keep_going = self->listed(listed);
                   if (self->options_.listed) *self->options_.listed = true;
                   return keep_going ? Next::Watch : Next::Finish;
                 });
               });
  }

 private:
  enum class Outcome { Ended, Dropped, Expired, Stopped };
  enum class Next { Watch, Relist, Pause, Finish };  // Pause: reconnect after a drop, not at once

  bool cancelled() const { return options_.cancel && options_.cancel->load(); }

  // Runs `decide` and takes the step it names; what it throws ends the watch.
  template <typename Decide>
  void step(Decide decide) {
    Next next = Next::Finish;
    try {
      next = decide();
    } catch (...) {
      return done_(stats_, std::current_exception());
    }
    go(next);
  }

  void go(Next next) {
    if (cancelled()) next = Next::Finish;
    if (next == Next::Watch) return watch_once();
    if (next == Next::Relist) return relist();
    if (next == Next::Pause)
      return client_.after(std::chrono::milliseconds(50 * failures_),
                           [self = shared_from_this()] { self->go(Next::Watch); });
    done_(stats_, nullptr);
  }

  bool deliver(const std::string& type, json object) {
    delivered_since_connect_ = true;
    return on_event_(WatchEvent{type, std::move(object)});
  }

  // What is kept of an object seen: its version, and its last state when the caller wants it.
  struct Known {
    std::string version;
    json last;
  };

  Known known_of(const json& object) const {
    return {version_of(object), options_.keep_last_state ? object : json()};
  }

  // A deleted object as the caller learns of it: its last state, or (keep_last_state false)
  // its name, namespace and version, from its key "namespace/name".
  static json gone_object(const std::string& key, Known known) {
    if (!known.last.is_null()) return std::move(known.last);
    const auto slash = key.find('/');
    json metadata = {{"name", key.substr(slash + 1)}, {"resourceVersion", known.version}};
    if (slash > 0) metadata["namespace"] = key.substr(0, slash);
    return {{"metadata", std::move(metadata)}};
  }

  // What comes after a watch request: reconnect, re-list, pause or finish.
  Next after_watch(Outcome outcome) {
    switch (outcome) {
      case Outcome::Stopped: return Next::Finish;
      case Outcome::Expired:
        ++stats_.expired;
        failures_ = 0;
        return Next::Relist;
      case Outcome::Ended: return Next::Watch;
      case Outcome::Dropped: break;
    }
    ++stats_.drops;
    if (delivered_since_connect_) failures_ = 0;
    if (++failures_ > options_.max_failures)
      throw Error(ErrorKind::kFailed, "watch of " + std::string(type_.plural) + " keeps dropping: " + drop_reason_);
    return Next::Pause;
  }

  // Brings the caller from what it knows to the listed state with the fewest events.
  bool listed(json& listed) {
    resource_version_ = version_of(listed);
    std::map<std::string, json> now;  // the items moved, not copied: 10,000 pods are 100 MB
    if (auto items = listed.find("items"); items != listed.end() && items->is_array())
      for (json& item : *items) {
        std::string key = key_of(item);  // before the move: an assignment's right side goes first
        now[std::move(key)] = std::move(item);
      }
    for (auto it = known_.begin(); it != known_.end();) {
      if (now.count(it->first)) {
        ++it;
        continue;
      }
      json gone = gone_object(it->first, std::move(it->second));
      it = known_.erase(it);
      if (!deliver("DELETED", std::move(gone))) return false;
    }
    for (auto& [key, item] : now) {
      auto known = known_.find(key);
      const bool is_new = known == known_.end();
      if (!is_new && known->second.version == version_of(item)) continue;
      known_[key] = known_of(item);
      if (!deliver(is_new ? "ADDED" : "MODIFIED", std::move(item))) return false;
    }
    return true;
  }

  // One event line; false stops the stream (the caller is done, or the version expired).
  bool handle(json& event) {
    const std::string type = event.value("type", "");
    json object = event.contains("object") ? std::move(event["object"]) : json::object();
    if (type == "ERROR") {
      if (object.value("code", 0L) == 410) {
        expired_ = true;
        return false;
      }
      throw status_error("watch " + std::string(type_.plural), object);
    }
    const std::string version = version_of(object);
    if (!version.empty()) resource_version_ = version;
    if (type == "BOOKMARK") return true;
    const std::string key = key_of(object);
    auto known = known_.find(key);
    if (type == "DELETED") {
      if (known == known_.end()) return true;
      known_.erase(known);
      return deliver(type, std::move(object));
    }
    if (known != known_.end() && known->second.version == version) return true;  // seen already
    const std::string delivered = known == known_.end() ? "ADDED" : "MODIFIED";
    known_[key] = known_of(object);
    return deliver(delivered, std::move(object));
  }

  bool take(std::string_view chunk) {
    pending_.append(chunk);
    std::size_t start = 0;
    for (std::size_t end; (end = pending_.find('\n', start)) != std::string::npos; start = end + 1) {
      const std::string_view line(pending_.data() + start, end - start);
      if (line.find_first_not_of(" \r\t") == std::string_view::npos) continue;
      json event = json::parse(line, nullptr, false);
      if (event.is_discarded()) continue;  // a torn line: the reconnect replays it
      if (!handle(event)) {
        pending_.clear();
        return false;
      }
    }
    pending_.erase(0, start);
    return true;
  }

  void watch_once() {
    ++stats_.watches;
    pending_.clear();
    expired_ = delivered_since_connect_ = false;
    HttpRequest request;
    request.url = collection_path(type_, namespace_) + "?watch=1&allowWatchBookmarks=true&resourceVersion=" +
                  percent_encode(resource_version_) + "&timeoutSeconds=" +
                  std::to_string(options_.timeout_seconds) + selector_query(options_.selectors, '&');
    // A server that misses its own timeoutSeconds is treated as a dropped stream.
    request.timeout_seconds = options_.timeout_seconds + 30;
    request.cancel = options_.cancel;
    auto self = shared_from_this();
    client_.start(
        request, [self](std::string_view chunk) { return self->take(chunk); },
        [self](HttpResult result, std::exception_ptr error) {
          if (error) return self->done_(self->stats_, error);
          self->step([&] { return self->after_watch(self->outcome_of(result)); });
        });
  }

  Outcome outcome_of(const HttpResult& result) {
    if (result.status == 410 || expired_) return Outcome::Expired;
    if (result.end == HttpResult::End::Stopped) return Outcome::Stopped;  // perhaps before any answer
    if (!result.dropped_unanswered() && (result.status < 200 || result.status >= 300))
      throw ApiError("watch " + std::string(type_.plural), result.status, result.body);
    if (result.end == HttpResult::End::Dropped) {
      drop_reason_ = result.drop_reason;
      return Outcome::Dropped;
    }
    return Outcome::Ended;
  }

  Client& client_;
  const ResourceType type_;
  const std::string namespace_;
  const WatchOptions options_;
  const std::function<bool(const WatchEvent&)> on_event_;
  const WatchCompletion done_;
  int failures_ = 0;  // drops in a row without an event
  std::map<std::string, Known> known_;
  std::string resource_version_;
  std::string pending_;
  std::string drop_reason_;
  bool expired_ = false;
  bool delivered_since_connect_ = false;
  WatchStats stats_;
};

}  // namespace

void start_watch(Client& client, const ResourceType& type, const std::string& namespace_name,
                 const WatchOptions& options, std::function<bool(const WatchEvent&)> on_event, WatchCompletion done) {
  std::make_shared<Session>(client, type, namespace_name, options, std::move(on_event), std::move(done))->relist();
}

WatchStats watch(Client& client, const ResourceType& type, const std::string& namespace_name,
                 const WatchOptions& options, const std::function<bool(const WatchEvent&)>& on_event) {
  return wait_for<WatchStats>(
      [&](WatchCompletion done) { start_watch(client, type, namespace_name, options, on_event, std::move(done)); });
}

}  // namespace gkebuild::kube
