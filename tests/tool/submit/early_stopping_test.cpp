// The median stopping rule (tool/submit/early_stopping.h) on its own: warm-up, the number of other
// points it waits for, both goals, and that the order in which points report does not decide.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>

#include "tests/common/run.h"
#include "tool/core/project/project.h"
#include "tool/submit/early_stopping.h"

namespace gkebuild::submit {
namespace {

using nlohmann::json;

json line(double step, double value, const std::string& metric = "val_loss") {
  return {{"schema", "gkebuild.workload.v1"}, {"metric", metric}, {"value", value}, {"step", step}};
}

project::EarlyStopping rule(bool minimize = true, double warmup = 1, int min_points = 2) {
  project::EarlyStopping stopping;
  stopping.objective.metric = "val_loss";
  stopping.objective.minimize = minimize;
  stopping.warmup = warmup;
  stopping.min_points = min_points;
  return stopping;
}

std::vector<std::string> names(const std::vector<std::pair<std::string, std::string>>& stops) {
  std::vector<std::string> out;
  for (const auto& [name, why] : stops) out.push_back(name);
  std::sort(out.begin(), out.end());
  return out;
}

TEST(MedianStopping, StopsAPointWorseThanTheMedianOfTheOthers) {
  MedianStopping median(rule());
  EXPECT_TRUE(median.observe("a", line(1, 0.1)).empty());
  EXPECT_TRUE(median.observe("b", line(1, 0.2)).empty());
  const auto stops = median.observe("c", line(1, 0.9));
  ASSERT_EQ(names(stops), std::vector<std::string>{"c"});
  EXPECT_NE(stops[0].second.find("best val_loss 0.9 up to step 1 is worse than the median 0.15 of 2"), std::string::npos)
      << stops[0].second;
  EXPECT_TRUE(median.observe("c", line(2, 0.01)).empty()) << "a stopped point is judged no more";
}

TEST(MedianStopping, WaitsForTheWarmupAndForEnoughOtherPoints) {
  MedianStopping warm(rule(true, 2));
  warm.observe("a", line(1, 0.1));
  warm.observe("b", line(1, 0.1));
  EXPECT_TRUE(warm.observe("c", line(1, 5)).empty()) << "step 1 is inside the warm-up";
  MedianStopping few(rule(true, 1, 3));
  few.observe("a", line(1, 0.1));
  EXPECT_TRUE(few.observe("c", line(1, 5)).empty()) << "one other point, three needed";
}

TEST(MedianStopping, ItsBestValueSoFarCountsAndMaximizeTurnsItRound) {
  MedianStopping minimize(rule());
  minimize.observe("a", line(1, 0.5));
  minimize.observe("b", line(1, 0.5));
  minimize.observe("c", line(1, 0.1));  // best so far 0.1 ...
  minimize.observe("a", line(2, 0.5));
  minimize.observe("b", line(2, 0.5));
  EXPECT_TRUE(minimize.observe("c", line(2, 9)).empty()) << "c's best up to step 2 (0.1) is not worse than 0.5";
  MedianStopping maximize(rule(false));
  maximize.observe("a", line(1, 0.9));
  maximize.observe("b", line(1, 0.8));
  EXPECT_EQ(names(maximize.observe("c", line(1, 0.2))), std::vector<std::string>{"c"});
  // d is the best; judged again with d, b (0.8) is now under the median (0.9) of a, c and d.
  EXPECT_EQ(names(maximize.observe("d", line(1, 0.95))), std::vector<std::string>{"b"});
}

TEST(MedianStopping, TheOrderOfReportsDoesNotDecide) {
  const std::vector<std::pair<std::string, double>> points = {{"a", 0.1}, {"b", 0.2}, {"c", 0.3}, {"d", 0.9}, {"e", 1.0}};
  std::vector<std::size_t> order = {0, 1, 2, 3, 4};
  do {
    MedianStopping median(rule(true, 1, 4));
    std::vector<std::string> stopped;
    for (auto i : order)
      for (const auto& name : names(median.observe(points[i].first, line(1, points[i].second)))) stopped.push_back(name);
    std::sort(stopped.begin(), stopped.end());
    EXPECT_EQ(stopped, (std::vector<std::string>{"d", "e"}));
  } while (std::next_permutation(order.begin(), order.end()));
}

TEST(MedianStopping, OtherMetricsAndLinesWithoutAStepAreIgnored) {
  MedianStopping median(rule(true, 1, 1));
  median.observe("a", line(1, 0.1));
  EXPECT_TRUE(median.observe("b", line(1, 9, "throughput")).empty());
  EXPECT_TRUE(median.observe("b", {{"metric", "val_loss"}, {"value", 9}}).empty());
  json epoch = {{"metric", "val_loss"}, {"value", 9}, {"extra", {{"epoch", 1}}}};
  EXPECT_EQ(names(median.observe("b", epoch)), std::vector<std::string>{"b"}) << "an epoch under extra is a step";
}

// Beside an independent implementation: Optuna's MedianPruner (PyPI), on 300 random scenarios where
// the two rules are defined alike: every other trial has completed (Optuna compares with completed
// trials only), n_startup_trials 0, interval 1. tests/tool/submit/optuna_median.py writes the scenarios and
// Optuna's answer (the first step it prunes at); the step here must be the same in every one.
TEST(MedianStopping, AgreesWithOptunasMedianPrunerWhereBothAreDefinedAlike) {
  const auto scenarios = testing::run_command("python3 " + testing::shell_quoted(std::string(GKEBUILD_SOURCE_ROOT) +
                                                                                 "/tests/tool/submit/optuna_median.py") +
                                              " 7 300");
  if (scenarios.exit_code != 0 && scenarios.err.find("No module named 'optuna'") != std::string::npos &&
      std::getenv("CI") == nullptr)
    GTEST_SKIP() << "optuna is not installed (scripts/setup.sh installs it)";
  ASSERT_EQ(scenarios.exit_code, 0) << scenarios.all();
  std::istringstream lines(scenarios.out);
  int compared = 0, pruned = 0;
  for (std::string text; std::getline(lines, text);) {
    const json scenario = json::parse(text);
    MedianStopping median(rule(scenario["minimize"].get<bool>(), scenario["warmup"].get<double>(),
                               scenario["min_points"].get<int>()));
    int index = 0;
    for (const auto& curve : scenario["completed"]) {
      const std::string name = "completed-" + std::to_string(index++);
      for (std::size_t step = 0; step < curve.size(); ++step) median.observe(name, line(static_cast<double>(step), curve[step]));
      median.ended(name);
    }
    json ours = nullptr;
    const json& trial = scenario["trial"];
    for (std::size_t step = 0; step < trial.size() && ours.is_null(); ++step)
      for (const auto& [name, why] : median.observe("trial", line(static_cast<double>(step), trial[step])))
        if (name == "trial") ours = step;
    EXPECT_EQ(ours, scenario["optuna_prunes_at"]) << text;
    ++compared;
    pruned += !ours.is_null();
  }
  EXPECT_EQ(compared, 300);
  EXPECT_GE(pruned, 30) << "the scenarios must prune often enough to compare";
}

}  // namespace
}  // namespace gkebuild::submit
