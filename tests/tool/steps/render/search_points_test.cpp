// The points of an experiment's `search:` (issue 46): in their ranges, the same for the same
// file, other for another seed, and times the grid of `sweep:` beside it.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "tool/core/project/project.h"
#include "tool/steps/render/sweep.h"

namespace gkebuild::render {
namespace {

project::Project parse(const std::string& search, const std::string& sweep = "") {
  return project::parse_project(
      "apiVersion: gkebuild/v1\nproject: demo\nregistry: r.test/x\nimages:\n  gemm: {workload: gemm-bench}\n"
      "experiments:\n  t:\n    image: gemm\n    args: ['{{ lr }}', '{{ hidden }}', '{{ opt }}', '{{ model }}']\n" +
          sweep + "    search:\n" + search,
      "gkebuild.yaml");
}

const std::string kVariables =
    "      variables:\n"
    "        lr: {min: 1e-5, max: 1e-1, log: true}\n"
    "        hidden: {min: 32, max: 512, integer: true}\n"
    "        opt: {choices: [sgd, adam]}\n";

std::vector<nlohmann::ordered_json> points_of(const std::string& search, const std::string& sweep = "") {
  return experiment_points(parse(search, sweep).experiments.front());
}

void expect_in_ranges(const std::vector<nlohmann::ordered_json>& points) {
  for (const auto& point : points) {
    ASSERT_TRUE(point["lr"].is_number_float()) << point.dump();
    EXPECT_GE(point["lr"].get<double>(), 1e-5);
    EXPECT_LT(point["lr"].get<double>(), 1e-1);
    ASSERT_TRUE(point["hidden"].is_number_integer()) << point.dump();
    EXPECT_GE(point["hidden"].get<long long>(), 32);
    EXPECT_LE(point["hidden"].get<long long>(), 512);
    EXPECT_TRUE(point["opt"] == "sgd" || point["opt"] == "adam") << point.dump();
  }
}

TEST(SearchPoints, RandomInRangesAndReproducible) {
  const auto points = points_of("      trials: 2000\n      seed: 7\n" + kVariables);
  ASSERT_EQ(points.size(), 2000U);
  expect_in_ranges(points);
  EXPECT_EQ(points, points_of("      trials: 2000\n      seed: 7\n" + kVariables));
  EXPECT_NE(points, points_of("      trials: 2000\n      seed: 8\n" + kVariables));
  // Both choices, both ends of the integer range, and every decade of the log range are reached.
  std::set<std::string> choices;
  std::set<long long> hidden;
  std::set<int> decades;
  for (const auto& point : points) {
    choices.insert(point["opt"].get<std::string>());
    hidden.insert(point["hidden"].get<long long>());
    decades.insert(static_cast<int>(std::floor(std::log10(point["lr"].get<double>()))));
  }
  EXPECT_EQ(choices.size(), 2U);
  EXPECT_TRUE(hidden.count(32) && hidden.count(512));
  EXPECT_EQ(decades, (std::set<int>{-5, -4, -3, -2}));
}

TEST(SearchPoints, SobolStartsAtTheLowerEnds) {
  const auto points = points_of("      algorithm: sobol\n      trials: 8\n" + kVariables);
  ASSERT_EQ(points.size(), 8U);
  expect_in_ranges(points);
  // Point 0 is the origin; point 1 the middle of each range (log: the geometric middle).
  EXPECT_EQ(points[0]["lr"].get<double>(), 1e-5);
  EXPECT_EQ(points[0]["hidden"], 32);
  EXPECT_EQ(points[0]["opt"], "sgd");
  EXPECT_NEAR(points[1]["lr"].get<double>(), 1e-3, 1e-15);
  EXPECT_EQ(points[1]["hidden"], 272);  // floor(32 + 0.5 * 481)
  EXPECT_EQ(points[1]["opt"], "adam");
}

TEST(SearchPoints, TimesTheGrid) {
  const auto points = points_of("      trials: 3\n" + kVariables, "    sweep:\n      model: [small, large]\n");
  ASSERT_EQ(points.size(), 6U);
  const auto trials = points_of("      trials: 3\n" + kVariables);
  for (std::size_t i = 0; i < points.size(); ++i) {
    EXPECT_EQ(points[i]["model"], i < 3 ? "small" : "large");
    EXPECT_EQ(points[i]["lr"], trials[i % 3]["lr"]);  // the same trials for every grid point
    EXPECT_EQ(points[i].begin().key(), "model");      // the grid's variables first
  }
}

}  // namespace
}  // namespace gkebuild::render
