#include "tool/core/kube/events.h"

#include <algorithm>

#include "tool/core/kube/objects.h"

namespace gkebuild::kube {

ObjectEvent object_event(const nlohmann::json& item) {
  ObjectEvent event;
  event.type = item.value("type", "");
  event.reason = item.value("reason", "");
  event.message = item.value("message", "");
  event.count = item.contains("count") && item["count"].is_number_integer() ? item["count"].get<int>() : 1;
  for (const char* field : {"lastTimestamp", "eventTime", "firstTimestamp"})
    if (item.contains(field) && item[field].is_string()) {
      event.last_seen = item[field].get<std::string>();
      break;
    }
  return event;
}

void sort_by_time(std::vector<ObjectEvent>& events) {
  std::stable_sort(events.begin(), events.end(),
                   [](const ObjectEvent& a, const ObjectEvent& b) { return a.last_seen < b.last_seen; });
}

ListOptions events_selector(const std::string& kind, const std::string& name) {
  ListOptions options;
  options.field_selector = "involvedObject.kind=" + kind + ",involvedObject.name=" + name;
  return options;
}

std::vector<ObjectEvent> events_in(const nlohmann::json& listed) {
  std::vector<ObjectEvent> events;
  for (const auto& item : listed.value("items", nlohmann::json::array())) events.push_back(object_event(item));
  sort_by_time(events);
  return events;
}

std::vector<ObjectEvent> events_for(Client& client, const std::string& namespace_name, const std::string& kind,
                                    const std::string& name) {
  return events_in(list(client, resource_type("v1", "Event"), namespace_name, events_selector(kind, name)));
}

}  // namespace gkebuild::kube
