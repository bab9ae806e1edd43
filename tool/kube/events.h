// Events about one object (a run's pod): why it is pending (FailedScheduling,
// TriggeredScaleUp), pulling, or failing, in the order they happened.
#pragma once

#include <string>
#include <vector>

#include "kube/client.h"

namespace gkebuild::kube {

struct ObjectEvent {
  std::string type;    // Normal | Warning
  std::string reason;  // TriggeredScaleUp, FailedScheduling, Pulling…
  std::string message;
  int count = 1;
  std::string last_seen;  // RFC 3339, as the server wrote it
};

// Events whose involvedObject is `kind` `name` in `namespace_name`, oldest first.
std::vector<ObjectEvent> events_for(Client& client, const std::string& namespace_name, const std::string& kind,
                                    const std::string& name);

}  // namespace gkebuild::kube
