// `search:` and `budget:` of an experiment (issue 46): what they read, and each mistake at its place.
#include <gtest/gtest.h>

#include "parse_error.h"
#include "tool/core/project/project.h"

namespace gkebuild::project {
namespace {

using experiments_file::expect_error;
using experiments_file::parse;

TEST(SearchSection, ReadsVariablesInFileOrder) {
  const Project project = parse(
      "  train:\n"                                                  // 7
      "    image: gemm\n"                                           // 8
      "    accelerators: [nvidia-l4]\n"                             // 9
      "    args: ['{{ lr }}', '{{ hidden }}', '{{ opt }}']\n"       // 10
      "    search:\n"                                               // 11
      "      algorithm: sobol\n"                                    // 12
      "      trials: 20\n"                                          // 13
      "      seed: 7\n"                                             // 14
      "      variables:\n"                                          // 15
      "        lr: {min: 1e-5, max: 1e-1, log: true}\n"             // 16
      "        hidden: {min: 32, max: 512, integer: true}\n"        // 17
      "        opt: {choices: [sgd, adam, 3]}\n"                    // 18
      "    budget: {gpuHours: 100, usd: 500.5}\n");                 // 19
  const Experiment& experiment = project.experiments.front();
  ASSERT_TRUE(experiment.search);
  const Search& search = *experiment.search;
  EXPECT_EQ(search.algorithm, SearchAlgorithm::Sobol);
  EXPECT_EQ(search.trials, 20);
  EXPECT_EQ(search.seed, 7U);
  ASSERT_EQ(search.variables.size(), 3U);
  EXPECT_EQ(search.variables[0].name, "lr");
  EXPECT_DOUBLE_EQ(search.variables[0].min, 1e-5);
  EXPECT_DOUBLE_EQ(search.variables[0].max, 1e-1);
  EXPECT_TRUE(search.variables[0].log);
  EXPECT_TRUE(search.variables[1].integer);
  EXPECT_EQ(search.variables[1].max, 512);
  EXPECT_EQ(search.variables[1].where.line, 17);
  ASSERT_EQ(search.variables[2].choices.size(), 3U);
  EXPECT_EQ(search.variables[2].choices[0], "sgd");
  EXPECT_EQ(search.variables[2].choices[2], 3);  // typed as YAML reads it
  ASSERT_TRUE(experiment.budget);
  EXPECT_EQ(*experiment.budget->gpu_hours, 100);
  EXPECT_EQ(*experiment.budget->usd, 500.5);
  EXPECT_EQ(experiment.budget->usd_where.line, 19);
}

TEST(SearchSection, Defaults) {
  const Project project = parse(
      "  train: {image: gemm, args: ['{{ x }}'], search: {trials: 3, variables: {x: {min: 0, max: 1}}}}\n");
  const Search& search = *project.experiments.front().search;
  EXPECT_EQ(search.algorithm, SearchAlgorithm::Random);
  EXPECT_EQ(search.seed, 0U);
  EXPECT_FALSE(search.variables[0].log);
  EXPECT_FALSE(search.variables[0].integer);
  EXPECT_FALSE(project.experiments.front().budget);
}

// Each line is line 7 of the file; columns count from its start.
TEST(SearchSection, MistakesAtTheirPlace) {
  const std::string head = "  t: {image: gemm, search: {";
  const std::string vars = "variables: {x: {min: 0, max: 1}}";
  expect_error(head + "algorithm: halving, trials: 4, " + vars + "}}\n", 7, 40, "give the search an objective");
  expect_error(head + "algorithm: sobel, trials: 4, " + vars + "}}\n", 7, 40, "did you mean 'sobol'");
  expect_error(head + "trials: 0, " + vars + "}}\n", 7, 37, "from 1 to 100000");
  expect_error(head + "trials: 100001, " + vars + "}}\n", 7, 37, "from 1 to 100000");
  expect_error(head + vars + "}}\n", 7, 28, "missing required key 'trials'");
  expect_error(head + "trials: 4, seeds: 2, " + vars + "}}\n", 7, 40, "unknown key 'seeds'");
  expect_error(head + "trials: 4, seed: -1, " + vars + "}}\n", 7, 46, "at least 0");
  expect_error(head + "trials: 4, variables: {}}}\n", 7, 51, "at least one variable");
  expect_error(head + "trials: 4, variables: {x: {min: 1, max: 1}}}}\n", 7, 69, "must be greater than min");
  expect_error(head + "trials: 4, variables: {x: {min: 2, max: 1}}}}\n", 7, 69, "must be greater than min");
  expect_error(head + "trials: 4, variables: {x: {min: 0, max: 1, log: true}}}}\n", 7, 61, "needs min > 0");
  expect_error(head + "trials: 4, variables: {x: {min: 1, max: 8.5, integer: true}}}}\n", 7, 69, "an integer");
  expect_error(head + "trials: 4, variables: {x: {min: 1, max: 8, integer: true, log: true}}}}\n", 7, 92,
               "for real ranges");
  expect_error(head + "trials: 4, variables: {x: {min: 1, mx: 8}}}}\n", 7, 64, "did you mean 'max'");
  expect_error(head + "trials: 4, variables: {x: {min: 1}}}}\n", 7, 55, "missing required key 'max'");
  expect_error(head + "trials: 4, variables: {x: {choices: []}}}}\n", 7, 65, "expected a non-empty list of values");
  expect_error(head + "trials: 4, variables: {x: {choices: [a], min: 0}}}}\n", 7, 75, "not both");
  expect_error(head + "trials: 4, variables: {x: [1, 2]}}}\n", 7, 55, "expected {min, max}");
  expect_error(head + "trials: 4, variables: {seed: {min: 0, max: 1}}}}\n", 7, 52, "reserved");
  expect_error(head + "trials: 4, variables: {x: {min: 0, max: .inf}}}}\n", 7, 69, "finite");
  expect_error("  t: {image: gemm, sweep: {x: [1, 2]}, search: {trials: 4, " + vars + "}}\n", 7, 72,
               "is a sweep axis too");
}

TEST(SearchSection, ReadsTheObjectiveAndTheRungsOfHalving) {
  const Project project = parse(
      "  t:\n"                                                                            // 7
      "    image: gemm\n"                                                                 // 8
      "    args: ['{{ x }}']\n"                                                           // 9
      "    search:\n"                                                                     // 10
      "      algorithm: halving\n"                                                        // 11
      "      trials: 9\n"                                                                 // 12
      "      variables: {x: {min: 0, max: 1}}\n"                                          // 13
      "      objective: {metric: accuracy, goal: maximize}\n"                             // 14
      "      halving: {minResource: 2, reductionFactor: 4, minEarlyStoppingRate: 1, maxResource: 100}\n"
      "  u:\n"
      "    image: gemm\n"
      "    args: ['{{ x }}']\n"
      "    search: {trials: 4, variables: {x: {min: 0, max: 1}}, objective: {metric: val_loss}}\n"
      "    earlyStopping: {rule: median, warmup: 2}\n");
  const Search& search = *project.experiments[0].search;
  EXPECT_EQ(search.algorithm, SearchAlgorithm::Halving);
  ASSERT_TRUE(search.objective);
  EXPECT_EQ(search.objective->metric, "accuracy");
  EXPECT_FALSE(search.objective->minimize);
  EXPECT_EQ(search.objective->where.line, 14);
  EXPECT_EQ(search.halving.min_resource, 2);
  EXPECT_EQ(search.halving.reduction_factor, 4);
  EXPECT_EQ(search.halving.min_early_stopping_rate, 1);
  EXPECT_EQ(search.halving.max_resource, 100);
  // earlyStopping without metric and goal: the search's objective (minimize unless it says).
  const auto& stopping = project.experiments[1].early_stopping;
  ASSERT_TRUE(stopping);
  EXPECT_EQ(stopping->objective.metric, "val_loss");
  EXPECT_TRUE(stopping->objective.minimize);
  EXPECT_EQ(stopping->warmup, 2);
}

TEST(SearchSection, ObjectiveAndHalvingMistakesAtTheirPlace) {
  const std::string vars = "variables: {x: {min: 0, max: 1}}";
  const auto at = [](const std::string& line, const std::string& part) {
    return static_cast<int>(line.find(part)) + 1;
  };
  std::string line = "  t: {image: gemm, search: {trials: 4, " + vars + ", objective: {metric: l, goal: maximise}}}\n";
  expect_error(line, 7, at(line, "maximise"), "did you mean 'maximize'");
  line = "  t: {image: gemm, search: {trials: 4, " + vars + ", objective: {goal: minimize}}}\n";
  expect_error(line, 7, at(line, "{goal"), "missing required key 'metric'");
  line = "  t: {image: gemm, search: {trials: 4, " + vars + ", halving: {minResource: 2}}}\n";
  expect_error(line, 7, at(line, "{minResource"), "rungs are for algorithm: halving");
  const std::string halving = "  t: {image: gemm, search: {algorithm: halving, trials: 4, " + vars +
                              ", objective: {metric: l}";
  line = halving + ", halving: {reductionFactor: 1}}}\n";
  expect_error(line, 7, at(line, "1}}}"), "at least 2");
  line = halving + ", halving: {minResource: 3, maxResource: 3}}}\n";
  expect_error(line, 7, at(line, "3}}}"), "must be greater than minResource (3)");
  line = halving + "}, earlyStopping: {rule: median}}\n";
  expect_error(line, 7, at(line, "{rule"), "one rule stops them, not two");
  line = "  t: {image: gemm, search: {trials: 4, " + vars + ", objective: {metric: l}}, earlyStopping: {metric: m}}\n";
  expect_error(line, 7, at(line, "m}}\n"), "differs from the search's objective");
  line = "  t: {image: gemm, earlyStopping: {rule: median}}\n";
  expect_error(line, 7, at(line, "{rule"), "give metric (and goal), or the search an objective");
}

TEST(SearchSection, SobolHasAtMost21Variables) {
  std::string variables;
  for (int i = 0; i < 22; ++i) variables += (i ? ", " : "") + std::string("v") + std::to_string(i) + ": {min: 0, max: 1}";
  expect_error("  t: {image: gemm, search: {algorithm: sobol, trials: 4, variables: {" + variables + "}}}\n", 7, 69,
               "at most 21 dimensions");
  // Random search has no such limit.
  EXPECT_NO_THROW(parse("  t: {image: gemm, search: {trials: 4, variables: {" + variables + "}}}\n"));
}

TEST(BudgetSection, MistakesAtTheirPlace) {
  expect_error("  t: {image: gemm, budget: {}}\n", 7, 28, "gpuHours");
  expect_error("  t: {image: gemm, budget: {gpuHours: 0}}\n", 7, 39, "greater than 0");
  expect_error("  t: {image: gemm, budget: {usd: -5}}\n", 7, 34, "greater than 0");
  expect_error("  t: {image: gemm, budget: {dollars: 5}}\n", 7, 29, "unknown key 'dollars'");
  expect_error("  t: {image: gemm, budget: {usd: lots}}\n", 7, 34, "a number");
  expect_error("  t: {image: gemm, budget: 100}\n", 7, 28, "expected");
}

}  // namespace
}  // namespace gkebuild::project
