// The report's view of a search (issue 46): every trial of a run whose experiment has `search:`
// with its variables, how far it ran (the rung it reached, or why it stopped), the best trial by
// the search's objective, the objective over trials, and the steps and GPU-hours spent against a
// full grid's estimate (every trial run to the most steps any reached).
#pragma once

#include <string>
#include <vector>

#include "tool/steps/report/report_build.h"
#include "tool/steps/report/report_tables.h"

namespace gkebuild::report {

std::vector<SearchView> search_views(const std::vector<LoadedRun>& runs);

// Trial | point | state | steps | objective | best so far | outcome
Table search_table(const SearchView& view);
// "halving over 16 trials, objective val_loss (lowest best): best trial … ; 120 of 432 steps (28%)…"
std::string search_summary(const SearchView& view);

}  // namespace gkebuild::report
