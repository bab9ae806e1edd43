#include "tool/steps/plan/run_id.h"

#include "tool/steps/render/names.h"

namespace gkebuild::plan {

std::string cluster_run_id(const std::string& record_name) { return render::run_id_of(record_name); }

std::string run_selector(const std::string& run_id) { return "gkebuild.io/run=" + run_id; }

}  // namespace gkebuild::plan
