// Search under `submit --local` (issue 46's measures): a synthetic workload whose curve over steps
// the test controls, val_loss(x, step) = (x - 0.3)^2 + 0.5 / step, so the best point is known
// (x = 0.3) and the ranking of points is the same at every step. It is the probe program printing
// one result line per step with a short sleep between; `term` makes it exit on SIGTERM, so a stop
// is quick. Random search must find a point near 0.3; halving the same best point as the full
// budget of the same trials (the same seed: the same points) at no more than 40% of its steps;
// median stopping the planted bad points of a sweep and none of the good ones.
#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <string>

#include "tests/common/run.h"
#include "tests/common/temp_dir.h"

namespace gkebuild::testing {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

constexpr int kSteps = 27;
constexpr int kTrials = 16;

// The probe's arguments: every step's result line, then a sleep of 0.2 s.
std::string synthetic_args() {
  std::string args = "[\"term\"";
  for (int step = 1; step <= kSteps; ++step)
    args += ", \"print\", '{\"schema\":\"gkebuild.workload.v1\",\"workload\":\"synthetic\",\"metric\":\"val_loss\","
            "\"value\":{{ (x - 0.3) * (x - 0.3) + 0.5 / " + std::to_string(step) + " }},\"unit\":\"1\",\"step\":" +
            std::to_string(step) + "}', \"sleep\", \"0.2\"";
  return args + "]";
}

std::string project_text() {
  const std::string search = "trials: " + std::to_string(kTrials) +
                             ", seed: 46, variables: {x: {min: 0, max: 1}}, objective: {metric: val_loss, goal: minimize}";
  return "apiVersion: gkebuild/v1\nproject: search\nregistry: registry.test/search\ncluster: local\n"
         "images:\n  probe:\n    workload: probe\nexperiments:\n"
         "  full:\n    image: probe\n    gpus: 0\n    args: " + synthetic_args() +
         "\n    search: {algorithm: random, " + search + "}\n"
         "  halving:\n    image: probe\n    gpus: 0\n    args: " + synthetic_args() +
         "\n    search: {algorithm: halving, " + search + ", halving: {minResource: 1, reductionFactor: 3, maxResource: " +
         std::to_string(kSteps) + "}}\n"
         "  median:\n    image: probe\n    gpus: 0\n    args: " + synthetic_args() +
         "\n    sweep: {x: [0.25, 0.3, 0.35, 0.9, 1.0]}\n"
         "    earlyStopping: {rule: median, metric: val_loss, warmup: 3, minPoints: 4}\n";
}

struct Trial {
  double x = 0;
  std::string state, reason;
  int last_step = 0;   // the last step it reported: the steps it ran
  double last = 0;     // its val_loss there
};

class SearchLocalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "runc runs rootful containers: this test needs root";
    fs::create_directories(project / "build");
    fs::copy_file(PROBE_PROGRAM, project / "build" / "probe");
    std::ofstream(project / "gkebuild.yaml") << project_text();
  }

  CommandResult gkebuild(const std::string& arguments) {
    return run_command("cd " + shell_quoted(project.path().string()) + " && exec 2>&1 && GKEBUILD_RUNTIME_DIR=" +
                       shell_quoted((machine / "runtime").string()) + " GKEBUILD_CACHE_DIR=" +
                       shell_quoted((machine / "cache").string()) + " " + gkebuild_binary() + " " + arguments);
  }

  // Each Job of the experiment's only run: its x, its state and the last step it reported.
  std::map<std::string, Trial> trials(const std::string& experiment) {
    fs::path run_dir;
    for (const auto& entry : fs::directory_iterator(project / ".gkebuild" / "runs"))
      if (entry.path().filename().string().starts_with(experiment + "-")) run_dir = entry.path();
    std::ifstream record_in(run_dir / "run.json");
    const json record = json::parse(record_in);
    std::map<std::string, Trial> out;
    for (const auto& job : record["jobs"])
      out[job["name"]] = {job["parameters"]["x"].get<double>(), job["state"], job["reason"], 0, 0};
    std::ifstream results(run_dir / "results.jsonl");
    for (std::string text; std::getline(results, text);) {
      const json line = json::parse(text);
      Trial& trial = out.at(line["job"]);
      const int step = line["step"].get<int>();
      if (step > trial.last_step) trial.last_step = step, trial.last = line["value"].get<double>();
    }
    return out;
  }

  TempDir project;
  TempDir machine;
};

int steps_run(const std::map<std::string, Trial>& trials) {
  int steps = 0;
  for (const auto& [name, trial] : trials) steps += trial.last_step;
  return steps;
}

// The trial with the lowest final val_loss among those that ran every step.
const Trial& best(const std::map<std::string, Trial>& trials) {
  const Trial* found = nullptr;
  for (const auto& [name, trial] : trials)
    if (trial.last_step == kSteps && (!found || trial.last < found->last)) found = &trial;
  EXPECT_NE(found, nullptr);
  return *found;
}

TEST_F(SearchLocalTest, HalvingFindsTheFullBudgetsBestPointAtAFractionOfItsSteps) {
  const auto full_run = gkebuild("submit full --max-in-flight 4");
  ASSERT_EQ(full_run.exit_code, 0) << full_run.out;
  const auto full = trials("full");
  ASSERT_EQ(full.size(), static_cast<std::size_t>(kTrials));
  EXPECT_EQ(steps_run(full), kTrials * kSteps);
  // Random search of 16 trials: the best point within 0.1 of the optimum (x = 0.3).
  const Trial& full_best = best(full);
  EXPECT_LE(std::abs(full_best.x - 0.3), 0.1) << "random search's best x " << full_best.x;

  const auto halving_run = gkebuild("submit halving --max-in-flight 1");
  ASSERT_EQ(halving_run.exit_code, 0) << halving_run.out;
  const auto halved = trials("halving");
  ASSERT_EQ(halved.size(), full.size());
  int stopped = 0;
  for (const auto& [name, trial] : halved) {
    if (trial.state != "stopped") continue;
    ++stopped;
    EXPECT_NE(trial.reason.find("early stopping (halving): rung "), std::string::npos) << trial.reason;
  }
  EXPECT_GT(stopped, 0);
  EXPECT_EQ(best(halved).x, full_best.x) << "halving must keep the full budget's best point";
  const double fraction = static_cast<double>(steps_run(halved)) / steps_run(full);
  std::cout << "[measure] random search: best x " << full_best.x << " (optimum 0.3) over " << kTrials
            << " trials, " << steps_run(full) << " steps\n[measure] halving: the same best x, " << steps_run(halved)
            << " steps (" << std::lround(fraction * 100) << "% of the full budget), " << stopped << " of " << kTrials
            << " trials stopped at a rung\n";
  EXPECT_LE(fraction, 0.4);
  // The report's search view: every trial, the best one marked, the steps against the full grid's.
  const auto report = gkebuild("report halving -o md");
  ASSERT_EQ(report.exit_code, 0) << report.out;
  EXPECT_NE(report.out.find("## Search: run halving-"), std::string::npos) << report.out;
  EXPECT_NE(report.out.find("Steps run: " + std::to_string(steps_run(halved)) + " of a full grid's " +
                            std::to_string(kTrials * kSteps)),
            std::string::npos)
      << report.out;
  EXPECT_NE(report.out.find("early stopping (halving): rung 0 (step 1) reached"), std::string::npos) << report.out;
  const auto as_json = gkebuild("report halving -o json 2>/dev/null");
  ASSERT_EQ(as_json.exit_code, 0) << as_json.out;
  const json searches = json::parse(as_json.out)["searches"];
  ASSERT_EQ(searches.size(), 1u) << as_json.out;
  EXPECT_EQ(searches[0]["objective"]["metric"], "val_loss");
  EXPECT_EQ(searches[0]["trials"].size(), static_cast<std::size_t>(kTrials));
  const std::string best_job = searches[0]["best"];
  EXPECT_EQ(halved.at(best_job).x, full_best.x) << as_json.out;
}

TEST_F(SearchLocalTest, MedianStoppingStopsThePlantedBadPointsOnly) {
  const auto run = gkebuild("submit median --max-in-flight 5");
  ASSERT_EQ(run.exit_code, 0) << run.out;
  const auto points = trials("median");
  int stopped = 0, steps = 0;
  for (const auto& [name, trial] : points) {
    steps += trial.last_step;
    if (trial.x > 0.5) {
      ++stopped;
      EXPECT_EQ(trial.state, "stopped") << name << ": " << trial.reason;
      EXPECT_NE(trial.reason.find("early stopping (median)"), std::string::npos) << trial.reason;
      EXPECT_LT(trial.last_step, kSteps);
    } else {
      EXPECT_EQ(trial.state, "succeeded") << name << ": " << trial.reason;
    }
  }
  EXPECT_EQ(stopped, 2);
  std::cout << "[measure] median stopping: the 2 planted bad points of 5 stopped, none of the good; " << steps
            << " steps of " << 5 * kSteps << "\n";
}

}  // namespace
}  // namespace gkebuild::testing
