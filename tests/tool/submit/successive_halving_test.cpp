// Successive halving (tool/submit/successive_halving.h) on its own: the rungs' steps, the top
// 1/eta kept, both goals, maxResource, and beside Optuna's SuccessiveHalvingPruner.
#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>

#include "tests/common/run.h"
#include "tool/submit/managed_run.h"
#include "tool/submit/successive_halving.h"

namespace gkebuild::submit {
namespace {

using nlohmann::json;

json line(double step, double value) {
  return {{"schema", "gkebuild.workload.v1"}, {"metric", "val_loss"}, {"value", value}, {"step", step}};
}

HalvingRule rule(bool minimize = true, int eta = 3, double min_resource = 1, int rate = 0, double max_resource = 0) {
  HalvingRule halving;
  halving.objective.metric = "val_loss";
  halving.objective.minimize = minimize;
  halving.halving.min_resource = min_resource;
  halving.halving.reduction_factor = eta;
  halving.halving.min_early_stopping_rate = rate;
  halving.halving.max_resource = max_resource;
  return halving;
}

TEST(SuccessiveHalving, RungsLieAtMinResourceTimesEtaToTheK) {
  const SuccessiveHalving halving(rule(true, 3, 2, 1, 50));
  EXPECT_EQ(halving.rung_step(0), 6);
  EXPECT_EQ(halving.rung_step(1), 18);
  EXPECT_EQ(halving.rung_step(2), 0) << "54 is past maxResource 50: no rung";
}

// Points reach rung 0 (step 1) one after another: the first goes on (the best of one), a worse one
// is stopped while fewer than eta reached it; with 3 there, the best 1 goes on; with 6, the best 2.
TEST(SuccessiveHalving, KeepsTheTopOneInEtaOfThePointsThatReachedTheRung) {
  SuccessiveHalving halving(rule());
  EXPECT_TRUE(halving.observe("a", line(1, 0.5)).empty());
  const auto stopped = halving.observe("b", line(1, 0.6));
  ASSERT_EQ(stopped.size(), 1u);
  EXPECT_EQ(stopped[0].first, "b");
  EXPECT_NE(stopped[0].second.find("early stopping (halving): rung 0 (step 1) reached; val_loss 0.6"), std::string::npos)
      << stopped[0].second;
  EXPECT_TRUE(halving.observe("c", line(1, 0.4)).empty());  // the best of 3
  EXPECT_EQ(halving.observe("d", line(1, 0.45)).size(), 1u);  // 4 there: the best 1 (0.4)
  EXPECT_EQ(halving.observe("e", line(1, 0.7)).size(), 1u);
  EXPECT_TRUE(halving.observe("f", line(1, 0.42)).empty());  // 6 there: the best 2 (0.4, 0.42)
  EXPECT_TRUE(halving.observe("a", line(2, 9)).empty()) << "no rung at step 2";
  EXPECT_TRUE(halving.observe("b", line(3, 0)).empty()) << "a stopped point's late lines are not judged";
}

TEST(SuccessiveHalving, MaximizeKeepsTheHighestAndOtherLinesAreIgnored) {
  SuccessiveHalving halving(rule(false, 2));
  EXPECT_TRUE(halving.observe("a", line(1, 0.5)).empty());
  EXPECT_EQ(halving.observe("b", line(1, 0.4)).size(), 1u);
  EXPECT_TRUE(halving.observe("c", json{{"metric", "other"}, {"value", 0}, {"step", 1}}).empty());
  EXPECT_TRUE(halving.observe("c", json{{"metric", "val_loss"}, {"value", 0}}).empty()) << "no step";
}

// A point that reports seldom passes several rungs with one line, judged at each with that value.
TEST(SuccessiveHalving, ALinePastSeveralRungsIsJudgedAtEach) {
  SuccessiveHalving halving(rule(true, 2));  // rungs at steps 1, 2, 4, 8
  for (double step : {1, 2, 4}) EXPECT_TRUE(halving.observe("a", line(step, step == 4 ? 0.01 : 0.1)).empty());
  EXPECT_EQ(halving.observe("b", line(1, 0.2)).size(), 1u);  // 2 at rung 0: only the best (a) goes on
  EXPECT_TRUE(halving.observe("c", line(1, 0.05)).empty());
  // d at step 4 with 0.08: within the best 2 of 4 at rung 0, the best of 2 at rung 1, not at rung 2 (a: 0.01).
  const auto stopped = halving.observe("d", line(4, 0.08));
  ASSERT_EQ(stopped.size(), 1u);
  EXPECT_NE(stopped[0].second.find("rung 2 (step 4) reached"), std::string::npos) << stopped[0].second;
}

// submit --managed: the controller reads the rule from the plan in the run's ConfigMap.
TEST(SuccessiveHalving, TheManagedPlanCarriesTheRule) {
  ManagedPlan plan;
  plan.namespace_name = "ns";
  plan.run_id = "r1";
  plan.halving = rule(false, 4, 2, 1, 50);
  const ManagedPlan back = managed_plan_from_json(to_json(plan), "plan.json");
  ASSERT_TRUE(back.halving);
  EXPECT_EQ(back.halving->objective.metric, "val_loss");
  EXPECT_FALSE(back.halving->objective.minimize);
  EXPECT_EQ(back.halving->halving.reduction_factor, 4);
  EXPECT_EQ(back.halving->halving.min_resource, 2);
  EXPECT_EQ(back.halving->halving.min_early_stopping_rate, 1);
  EXPECT_EQ(back.halving->halving.max_resource, 50);
  EXPECT_FALSE(back.early_stopping);
  json broken = to_json(plan);
  broken["halving"]["reduction_factor"] = 1;
  EXPECT_THROW(managed_plan_from_json(broken, "plan.json"), Error);
}

// Beside an independent implementation: Optuna's SuccessiveHalvingPruner (PyPI), on 300 random
// scenarios defined alike (tests/tool/submit/optuna_halving.py): trials at once, each step reported in the
// scenario's order; every trial must be stopped at the same step as Optuna prunes it, or at none.
TEST(SuccessiveHalving, AgreesWithOptunasSuccessiveHalvingPruner) {
  const auto scenarios = testing::run_command(
      "python3 " + testing::shell_quoted(std::string(GKEBUILD_SOURCE_ROOT) + "/tests/tool/submit/optuna_halving.py") +
      " 11 300");
  if (scenarios.exit_code != 0 && scenarios.err.find("No module named 'optuna'") != std::string::npos &&
      std::getenv("CI") == nullptr)
    GTEST_SKIP() << "optuna is not installed (scripts/setup.sh installs it)";
  ASSERT_EQ(scenarios.exit_code, 0) << scenarios.all();
  std::istringstream lines(scenarios.out);
  int compared = 0, pruned = 0;
  for (std::string text; std::getline(lines, text);) {
    const json scenario = json::parse(text);
    SuccessiveHalving halving(rule(scenario["minimize"].get<bool>(), scenario["reduction_factor"].get<int>(),
                                   scenario["min_resource"].get<double>(),
                                   scenario["min_early_stopping_rate"].get<int>()));
    const json& curves = scenario["curves"];
    json ours = json::array();
    for (std::size_t t = 0; t < curves.size(); ++t) ours.push_back(nullptr);
    for (std::size_t step = 0; step < scenario["orders"].size(); ++step)
      for (const auto& trial : scenario["orders"][step]) {
        const std::size_t t = trial.get<std::size_t>();
        if (!ours[t].is_null()) continue;
        const std::string name = "trial-" + std::to_string(t);
        for (const auto& [stopped, why] : halving.observe(name, line(static_cast<double>(step + 1), curves[t][step])))
          if (stopped == name) ours[t] = step + 1;
      }
    EXPECT_EQ(ours, scenario["optuna_prunes_at"]) << text;
    ++compared;
    for (const auto& at : ours) pruned += !at.is_null();
  }
  EXPECT_EQ(compared, 300);
  EXPECT_GE(pruned, 300) << "the scenarios must prune often enough to compare";
}

}  // namespace
}  // namespace gkebuild::submit
