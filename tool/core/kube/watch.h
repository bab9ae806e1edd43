// List-then-watch, as client-go's informers do it: list, watch from the list's
// resourceVersion with bookmarks, reconnect from the last resourceVersion after
// a server timeout or a dropped stream, and re-list after 410 Gone, delivering
// only what changed, so a caller sees every change once. A watch is a state machine on the
// client's event loop (no thread of its own): any number of them share one thread.
#pragma once

#include <nlohmann/json.hpp>

#include <atomic>
#include <exception>
#include <functional>
#include <string>

#include "tool/core/kube/client.h"
#include "tool/core/kube/objects.h"

namespace gkebuild::kube {

struct WatchEvent {
  std::string type;  // ADDED, MODIFIED or DELETED
  nlohmann::json object;
};

struct WatchOptions {
  ListOptions selectors;
  long timeout_seconds = 300;  // the server closes each watch after this; we reconnect
  int max_failures = 5;        // drops in a row without any event before giving up
  const std::atomic<bool>* cancel = nullptr;  // turning true ends the watch within about a second
  // Whether a deletion noticed by a re-list carries the last state seen; false: only the
  // object's metadata name, namespace and resourceVersion. Keeping every object a run's
  // watches see (a 10,000-Job sweep: 80,000 Jobs, pods and events) costs hundreds of MB.
  bool keep_last_state = true;
  // Set once the first list has been delivered (an informer's HasSynced): until then a caller
  // cannot tell "no such object" from "not listed yet" (10,000 pods take many pages).
  std::atomic<bool>* listed = nullptr;
};

struct WatchStats {
  int lists = 0;
  int watches = 0;  // watch requests sent
  int expired = 0;  // 410 Gone answers (status or ERROR event)
  int drops = 0;    // streams that broke mid-way
};

// Calls `on_event` for every change until it returns false. A deletion noticed by
// a re-list carries the last state seen (client-go's DeletedFinalStateUnknown).
// Throws ApiError for refusals (403…) and std::runtime_error when the stream keeps dropping.
WatchStats watch(Client& client, const ResourceType& type, const std::string& namespace_name,
                 const WatchOptions& options, const std::function<bool(const WatchEvent&)>& on_event);

// The same on the client's event loop: `on_event` and then `done` (once, with the stats or
// what watch() would throw) run on the loop's thread and must not block.
using WatchCompletion = std::function<void(WatchStats stats, std::exception_ptr error)>;
void start_watch(Client& client, const ResourceType& type, const std::string& namespace_name,
                 const WatchOptions& options, std::function<bool(const WatchEvent&)> on_event, WatchCompletion done);

}  // namespace gkebuild::kube
