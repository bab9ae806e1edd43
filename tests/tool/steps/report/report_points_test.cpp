// A sweep of a training script on the CPU (fixtures mlp-*): lr x hidden, val_loss and
// val_accuracy per step and a train_time, one Job stopped by Ctrl-C. Every metric reaches every
// format, the points table ranks the points, and the curves keep each Job's steps.
#include <gtest/gtest.h>

#include <cstdlib>

#include <nlohmann/json.hpp>
#include <set>

#include "fixture.h"
#include "tool/steps/report/points_table.h"
#include "tool/steps/report/metric_charts.h"
#include "tool/steps/report/report_charts.h"
#include "tool/steps/report/report_writers.h"

namespace gkebuild::report {
namespace {

using namespace testing;
using nlohmann::json;

const std::string kLatest = "mlp-20261124-090000";

Report sweep_report(bool include_stopped = false, const std::vector<std::string>& names = {kLatest}) {
  std::vector<LoadedRun> runs;
  for (const auto& name : names) runs.push_back(load_run_argument(name, kProject));
  return build_report(runs, fixture_catalog(), "", {}, include_stopped);
}

std::size_t lines_of(const std::string& text) { return std::count(text.begin(), text.end(), '\n'); }

// Before: the CSV held the throughput rows only, so a sweep without throughput gave its header alone.
TEST(ReportPoints, EveryMetricIsARowOfCsvJsonAndMarkdownWithAColumnPerVariable) {
  const Report report = sweep_report();
  ASSERT_EQ(report.metrics.size(), 12u);  // 4 points x 3 metrics; the stopped Job's line is not one
  const std::string csv = write_csv(report);
  EXPECT_EQ(lines_of(csv), 13u) << csv;
  EXPECT_TRUE(csv.starts_with("workload,precision,shape,hidden,lr,metric,unit,accelerator,gpus,values,jobs,median,"
                              "min,max,last,"))
      << csv;
  // The last step's loss of the point hidden=32 lr=0.01, with its Job count and stopped Jobs (0).
  EXPECT_TRUE(contains(csv, "\r\nmlp,,,32,0.01,val_loss,nats,cpu (local),0,1,1,0.25,0.25,0.25,0.25,")) << csv;
  EXPECT_TRUE(contains(csv, "0.25,0.25,0.25,0.25,,,,,,,,,,,,,0\r\n")) << csv;
  const json document = json::parse(write_json(report));
  EXPECT_EQ(document["metrics"].size(), 12u);
  EXPECT_EQ(document["metrics"][0]["case"]["point"], json({{"hidden", "16"}, {"lr", "0.01"}})) << document["metrics"][0];
  const std::string markdown = write_markdown(report);
  EXPECT_TRUE(contains(markdown, "| mlp hidden=32 lr=0.01 | val_loss | cpu (local) | 1 | 0.25 | 0.25 | 0.25 | nats | 0.25 |"))
      << markdown;
}

TEST(ReportPoints, TheTableRanksThePointsAndMarksTheBest) {
  Report report = sweep_report();
  ASSERT_TRUE(points_shown(report));  // one accelerator: nothing to compare but the points
  // No --sort: a validation metric whose name says which end is better (accuracy: highest first).
  Table table = points_table(report);
  ASSERT_EQ(table.header, (std::vector<std::string>{"best", "hidden", "lr", "train_time (s)", "val_accuracy (fraction)",
                                                     "val_loss (nats)"}));
  ASSERT_EQ(table.rows.size(), 4u);
  EXPECT_EQ(table.rows[0], (std::vector<std::string>{"*", "32", "0.01", "14", "0.875", "0.25"}));
  EXPECT_EQ(table.rows[3], (std::vector<std::string>{"", "16", "0.1", "12", "0.79", "0.42"}));
  // --sort val_loss --desc: the worst first, the best (lowest loss) still marked, now last.
  report.points.sort = "val_loss";
  report.points.descending = true;
  table = points_table(report);
  EXPECT_EQ(table.rows[0][0], "");
  EXPECT_EQ(table.rows[0][5], "0.42");
  EXPECT_EQ(table.rows[3][0], "*");
  EXPECT_EQ(table.rows[3][5], "0.25");
  EXPECT_TRUE(contains(points_caption(report), "Sorted by val_loss, highest first")) << points_caption(report);
  // --metric min: the lowest loss of any step, the last one here.
  report.points.value = "min";
  EXPECT_EQ(points_table(report).rows[3][5], "0.25");
  report.points.sort = "val_los";
  try {
    check_points_view(report);
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_TRUE(contains(error.what(), "--sort val_los: no result line has that metric (did you mean 'val_loss'?)"))
        << error.what();
  }
}

// The same sweep as a search (issue 46) whose objective is val_loss, maximised against what its name
// says: the search view marks the highest last value among the finished trials, the points table
// sorts by the objective with its goal's end first (before: val_accuracy, by its name), and the steps
// count each trial's last step against every trial run to the most steps (4 x 3 + 1 of 5 x 3).
TEST(ReportPoints, ASearchsObjectiveNamesTheBestTrialAndTheBestPoint) {
  std::vector<LoadedRun> runs{load_run_argument(kLatest, kProject)};
  runs[0].record.search = runrecord::SearchRecord{"random", "val_loss", false, "median"};
  const Report report = build_report(runs, fixture_catalog(), "");
  ASSERT_EQ(report.searches.size(), 1u);
  const SearchView& view = report.searches[0];
  ASSERT_EQ(view.trials.size(), 5u);
  ASSERT_TRUE(view.best);
  EXPECT_EQ(view.trials[*view.best].job, "mlp-0");
  EXPECT_EQ(view.trials[*view.best].point, (std::vector<std::pair<std::string, std::string>>{{"hidden", "16"}, {"lr", "0.1"}}));
  EXPECT_EQ(view.trials[3].best_so_far, 0.42);
  EXPECT_EQ(view.trials[4].state, "stopped");
  EXPECT_EQ(view.trials[4].last_step, 1);
  EXPECT_EQ(view.trials[2].outcome, "ran to step 3");
  EXPECT_EQ(view.steps_run, 13);
  EXPECT_EQ(view.steps_full, 15);
  const Table table = points_table(report);
  EXPECT_EQ(table.rows[0], (std::vector<std::string>{"*", "16", "0.1", "12", "0.79", "0.42"}));
  EXPECT_TRUE(contains(points_caption(report), "Sorted by val_loss, highest first")) << points_caption(report);
  const std::string markdown = write_markdown(report);
  EXPECT_TRUE(contains(markdown, "## Search: run mlp-20261124-090000")) << markdown;
  EXPECT_TRUE(contains(markdown, "* best trial mlp-0 (hidden=16 lr=0.1): val_loss 0.42. Steps run: 13 of a full "
                                 "grid's 15 (86.7%)"))
      << markdown;
  EXPECT_TRUE(contains(markdown, "| * mlp-0 | hidden=16 lr=0.1 | succeeded | 3 | 0.42 | 0.42 | ran to step 3 |"))
      << markdown;
  const json document = json::parse(write_json(report));
  EXPECT_EQ(document["searches"][0]["best"], "mlp-0");
  EXPECT_EQ(document["searches"][0]["objective"], json({{"metric", "val_loss"}, {"goal", "maximize"}}));
}

// Ctrl-C after the first step: its loss (0.05, better than any) must not win the sweep.
TEST(ReportPoints, AStoppedJobIsLeftOutWithANoteUnlessAsked) {
  const Report report = sweep_report();
  bool noted = false;
  for (const auto& note : report.notes)
    noted = noted || contains(note, "Job mlp-4 (mlp-20261124-090000) is stopped (1 result line left out of every "
                                    "figure; --include-stopped counts them).");
  EXPECT_TRUE(noted);
  for (const auto& row : report.metrics) EXPECT_NE(row.key.parameters, "hidden=16 lr=0.001");
  const Report with = sweep_report(true);
  ASSERT_EQ(with.metrics.size(), 13u);
  const auto stopped = std::find_if(with.metrics.begin(), with.metrics.end(),
                                    [](const MetricRow& row) { return row.key.parameters == "hidden=16 lr=0.001"; });
  ASSERT_NE(stopped, with.metrics.end());
  EXPECT_EQ(stopped->stopped_jobs, 1u);
  EXPECT_TRUE(contains(write_csv(with), "0.05,0.05,0.05,0.05,,,,,,,,,,,,,1\r\n")) << write_csv(with);
}

// Two runs of one experiment pool each point's Jobs: the median of their last values, and the range.
TEST(ReportPoints, PooledJobsShowTheirSpreadAndTheCurvesKeepEachStep) {
  const Report report = sweep_report(false, {"mlp-20261124-080000", kLatest});
  const Table table = points_table(report);
  const auto row = std::find_if(table.rows.begin(), table.rows.end(),
                                [](const auto& cells) { return cells[1] == "16" && cells[2] == "0.1"; });
  ASSERT_NE(row, table.rows.end());
  EXPECT_EQ((*row)[5], "0.66 (0.42-0.9)");  // median of 0.42 and 0.9
  const auto loss = std::find_if(report.metrics.begin(), report.metrics.end(), [](const MetricRow& each) {
    return each.key.metric == "val_loss" && each.key.parameters == "hidden=16 lr=0.1";
  });
  ASSERT_NE(loss, report.metrics.end());
  ASSERT_EQ(loss->curves.size(), 2u);
  EXPECT_EQ(loss->curves[1].run, kLatest);
  EXPECT_EQ(loss->curves[1].points, (std::vector<std::pair<double, double>>{{1, 0.82}, {2, 0.62}, {3, 0.42}}));
}

std::size_t count_of_text(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++count;
  return count;
}

// Before: "no throughput results, so no chart", and no curve anywhere. Now each metric with steps
// is a chart of one line per point; the points are named once, in one legend, not in titles.
TEST(ReportPoints, TheSvgDrawsEachStepMetricAsOneLinePerPoint) {
  const std::string svg = write_svg(sweep_report());
  ASSERT_FALSE(svg.empty());
  // 4 points x 2 metrics with steps (val_loss, val_accuracy); legend swatches carry no tooltip.
  EXPECT_EQ(count_of_text(svg, "</polyline>"), 8u) << svg;
  EXPECT_EQ(count_of_text(svg, "<title>hidden=32 lr=0.01</title></polyline>"), 2u) << svg;
  for (const char* point : {"hidden=16 lr=0.1", "hidden=32 lr=0.1", "hidden=16 lr=0.01", "hidden=32 lr=0.01"})
    EXPECT_EQ(count_of_text(svg, std::string(">") + point + "</text>"), 2u) << point;  // the legend; train_time's bar
  EXPECT_FALSE(contains(svg, "mlp hidden=")) << svg;  // no title names a point
  EXPECT_TRUE(contains(svg, ">mlp: val_loss</text>")) << svg;
  EXPECT_TRUE(contains(svg, ">val_loss (nats)</text>")) << svg;
  EXPECT_TRUE(contains(svg, ">step</text>")) << svg;
  // train_time has no steps: one bar chart, a bar per point, on one scale.
  EXPECT_EQ(count_of_text(svg, ">mlp: train_time</text>"), 1u) << svg;
  // In the point's colour, as in the legend: the third point by its variables (hidden 32, lr 0.01).
  EXPECT_TRUE(contains(svg, "fill=\"#54a24b\"><title>hidden=32 lr=0.01 median: 14</title>")) << svg;
  // No panel of n/a alone: a CPU run has no cost chart.
  EXPECT_FALSE(contains(svg, "n/a (CPU, no GPU price)")) << svg;
  EXPECT_FALSE(contains(svg, "Cost per")) << svg;
}

// A CPU throughput case per point: one chart with a bar per point, and no cost panel.
TEST(ReportPoints, ThroughputOfSeveralPointsSharesOneChart) {
  Report report = sweep_report();
  for (const auto& [hidden, value] : {std::pair{"1024", 100.0}, std::pair{"64", 50.0}}) {
    ThroughputRow row;
    row.key = {"mlp", "", "", "throughput", "samples/s", "hidden=" + std::string(hidden) + " lr=0.1",
               {{"hidden", hidden}, {"lr", "0.1"}}};
    row.accelerator = "cpu (local)";
    row.median = row.min = row.max = value;
    report.throughput.push_back(row);
  }
  const std::string svg = write_svg(report);
  EXPECT_EQ(count_of_text(svg, ">Throughput</text>"), 1u) << svg;
  EXPECT_TRUE(contains(svg, ">mlp (samples/s)</text>")) << svg;
  // Points in their variables' order, numbers as numbers: 64 before 1024.
  ASSERT_TRUE(contains(svg, ">hidden=64 lr=0.1</text>")) << svg;
  EXPECT_LT(svg.find(">hidden=64 lr=0.1</text>"), svg.find(">hidden=1024 lr=0.1</text>")) << svg;
  EXPECT_FALSE(contains(svg, "n/a (CPU, no GPU price)")) << svg;
}

// 12 points with long variable names: titles wrap inside the picture instead of being cut.
TEST(ReportPoints, LongTitlesWrapAndTwelvePointsEachHaveAColour) {
  Report report;
  for (int i = 0; i < 12; ++i) {
    MetricRow row;
    const std::string point = "learning_rate=0.00" + std::to_string(i + 1) + " hidden_units=1024 dropout=0.5";
    row.key = {"a-training-script-with-a-long-name", "bf16", "sequence_length=4096 global_batch=512",
               "validation_loss_after_warmup", "nats", point, {}};
    row.accelerator = "cpu (local)";
    MetricRow time = row;  // and a metric without steps: a bar per point, the point as its label
    time.key.metric = "train_time";
    time.median = time.min = time.max = 30 + i;
    row.curves.push_back({"run", "job-" + std::to_string(i), {{1, 2.0 - i * 0.1}, {2, 1.5 - i * 0.1}}});
    report.metrics.push_back(row);
    report.metrics.push_back(time);
  }
  const std::string svg = write_svg(report);
  EXPECT_EQ(count_of_text(svg, "</polyline>"), 12u);
  std::set<std::string> colours;
  for (const auto& entry : point_legend(report)) colours.insert(entry.color);
  EXPECT_EQ(colours.size(), 12u);
  const std::string title = "a-training-script-with-a-long-name bf16 sequence_length=4096 global_batch=512: "
                            "validation_loss_after_warmup";
  const auto lines = wrap_text(title, 470, 13);
  ASSERT_GT(lines.size(), 1u);
  for (const auto& line : lines) {
    EXPECT_TRUE(contains(svg, ">" + line + "</text>")) << line;
    EXPECT_LE(text_width(line, 13), 470) << line;
  }
  // A bar's label too long for the room left of the bars wraps too (it ran past the left edge).
  EXPECT_TRUE(contains(svg, ">learning_rate=0.001</text>")) << svg;
  EXPECT_EQ(count_of_text(svg, ">learning_rate=0.001 hidden_units=1024 dropout=0.5</text>"), 1u) << svg;  // the legend
  if (const char* keep = std::getenv("REPORT_TEST_SVG")) write_file_atomically(keep, svg);  // to look at it
}

}  // namespace
}  // namespace gkebuild::report
