// Events about one object (a run's pod): why it is pending (FailedScheduling,
// TriggeredScaleUp), pulling, or failing, in the order they happened.
#pragma once

#include <string>
#include <vector>

#include "tool/core/kube/client.h"
#include "tool/core/kube/objects.h"

namespace gkebuild::kube {

struct ObjectEvent {
  std::string type;    // Normal | Warning
  std::string reason;  // TriggeredScaleUp, FailedScheduling, Pulling…
  std::string message;
  int count = 1;
  std::string last_seen;  // RFC 3339, as the server wrote it
};

// One core/v1 Event as the fields above. Its time is lastTimestamp, or eventTime where that is
// null (events the scheduler and newer components write through events.k8s.io carry only
// eventTime), or firstTimestamp.
ObjectEvent object_event(const nlohmann::json& item);

// Oldest first, by the times object_event chose (RFC 3339 UTC strings of one server sort as times).
void sort_by_time(std::vector<ObjectEvent>& events);

// The list options that select the events about `kind` `name`.
ListOptions events_selector(const std::string& kind, const std::string& name);
// The events of a List of core/v1 Events, oldest first.
std::vector<ObjectEvent> events_in(const nlohmann::json& listed);

// Events whose involvedObject is `kind` `name` in `namespace_name`, oldest first.
std::vector<ObjectEvent> events_for(Client& client, const std::string& namespace_name, const std::string& kind,
                                    const std::string& name);

}  // namespace gkebuild::kube
