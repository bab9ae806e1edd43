#include "kube/events.h"

#include <algorithm>

#include "kube/objects.h"

namespace gkebuild::kube {

std::vector<ObjectEvent> events_for(Client& client, const std::string& namespace_name, const std::string& kind,
                                    const std::string& name) {
  ListOptions options;
  options.field_selector = "involvedObject.kind=" + kind + ",involvedObject.name=" + name;
  const auto listed = list(client, resource_type("v1", "Event"), namespace_name, options);
  std::vector<ObjectEvent> events;
  for (const auto& item : listed.value("items", nlohmann::json::array())) {
    ObjectEvent event;
    event.type = item.value("type", "");
    event.reason = item.value("reason", "");
    event.message = item.value("message", "");
    event.count = item.value("count", 1);
    // Newer clusters fill eventTime (events.k8s.io) and leave lastTimestamp null.
    for (const char* field : {"lastTimestamp", "eventTime", "firstTimestamp"})
      if (item.contains(field) && item[field].is_string()) {
        event.last_seen = item[field].get<std::string>();
        break;
      }
    events.push_back(std::move(event));
  }
  // RFC 3339 UTC strings of one server sort as times.
  std::stable_sort(events.begin(), events.end(),
                   [](const ObjectEvent& a, const ObjectEvent& b) { return a.last_seen < b.last_seen; });
  return events;
}

}  // namespace gkebuild::kube
