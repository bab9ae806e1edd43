// The run id a run's objects are named and labelled with (gkebuild.io/run), from its record name.
#pragma once

#include <string>

namespace gkebuild::plan {

// The gkebuild.io/run label value of a run record name: the name itself when it is a
// valid run id, else a shortened form with a hash of it.
std::string cluster_run_id(const std::string& record_name);

// The label selector of a run's objects.
std::string run_selector(const std::string& run_id);

}  // namespace gkebuild::plan
