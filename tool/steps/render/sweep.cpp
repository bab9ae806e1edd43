#include "tool/steps/render/sweep.h"

namespace gkebuild::render {

std::vector<nlohmann::ordered_json> sweep_points(const std::vector<project::SweepAxis>& axes) {
  std::vector<nlohmann::ordered_json> points{nlohmann::ordered_json::object()};
  for (const auto& axis : axes) {
    std::vector<nlohmann::ordered_json> next;
    next.reserve(points.size() * axis.values.size());
    for (const auto& point : points)
      for (const auto& value : axis.values) {
        auto extended = point;
        extended[axis.name] = value;
        next.push_back(std::move(extended));
      }
    points = std::move(next);
  }
  return points;
}

}  // namespace gkebuild::render
