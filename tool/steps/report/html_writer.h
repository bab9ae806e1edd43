// The report as one self-contained HTML page: the tables, the notes and the SVG charts inline.
#pragma once

#include <string>

#include "tool/steps/report/report_model.h"

namespace gkebuild::report {

std::string write_html(const Report& report);

}  // namespace gkebuild::report
