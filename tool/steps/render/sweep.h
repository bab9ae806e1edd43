// Sweep expansion: the grid product of an experiment's sweep axes.
#pragma once

#include <nlohmann/json.hpp>

#include <vector>

#include "tool/core/project/project.h"

namespace gkebuild::render {

// Every point of the grid as {axis: value}, in itertools.product order (the last axis
// varies fastest). No axes give one empty point.
std::vector<nlohmann::ordered_json> sweep_points(const std::vector<project::SweepAxis>& axes);

}  // namespace gkebuild::render
