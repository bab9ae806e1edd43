// Sweep expansion: the grid product of an experiment's sweep axes, and the trials of its search.
#pragma once

#include <nlohmann/json.hpp>

#include <vector>

#include "tool/core/project/project.h"

namespace gkebuild::render {

// Every point of the grid as {axis: value}, in itertools.product order (the last axis
// varies fastest). No axes give one empty point.
std::vector<nlohmann::ordered_json> sweep_points(const std::vector<project::SweepAxis>& axes);

// The trials of a search as {variable: value}, in trial order: variable i takes coordinate i
// of each point (tool/core/search). A real is a double (rendered as its shortest round-trip
// text), an integer an integer, a choice the value as written.
std::vector<nlohmann::ordered_json> search_points(const project::Search& search);

// The experiment's points: its grid, and with a search each grid point once per trial (the
// trials vary fastest), the grid's variables first.
std::vector<nlohmann::ordered_json> experiment_points(const project::Experiment& experiment);

}  // namespace gkebuild::render
