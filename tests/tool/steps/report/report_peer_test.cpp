// The gkebuild binary end to end on the fixture runs; its SVG checked by Python's XML parser
// and rendered by rsvg-convert, its HTML page screenshotted by headless Chromium.
#include <gtest/gtest.h>

#include "fixture.h"
#include "tests/common/run.h"
#include "tests/common/temp_dir.h"

namespace gkebuild::report {
namespace {

using namespace testing;
using gkebuild::testing::run_command;
using gkebuild::testing::TempDir;

const std::string kCheck = "python3 " GKEBUILD_SOURCE_ROOT "/tests/tool/steps/report/check_output.py";
// The bar colours of the charts: throughput, on demand, spot.
const std::string kChartColours = " 4c78a8 f58518 54a24b";

std::string report_command(const std::string& arguments) {
  return gkebuild::testing::gkebuild_binary() + " report -f " + kProject + "/gkebuild.yaml --catalog " + kFixtures +
         "/catalog.yaml " + arguments;
}

TEST(ReportPeer, MarkdownSvgAndHtmlFromTheCommandLine) {
  TempDir dir;
  auto run = run_command(report_command("gemm mnist --baseline nvidia-tesla-t4 --svg " + (dir / "r.svg").string() +
                                        " --html " + (dir / "r.html").string()));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(contains(run.out, "| nvidia-l4 | 4 | 8.2 | 2 | 8.8 | 60 s | 0.01667 | $0.01667 | $0.008333 | $0.008333 |")) << run.out;

  auto xml = run_command(kCheck + " svg " + (dir / "r.svg").string());
  ASSERT_EQ(xml.exit_code, 0) << xml.err;
  EXPECT_TRUE(contains(xml.out, "text: mnist-train fp32 batch=64")) << xml.out;
  EXPECT_TRUE(contains(xml.out, "text: USD per epoch (whiskers: at max-min throughput)")) << xml.out;

  auto rsvg = run_command("rsvg-convert -o " + (dir / "r.png").string() + " " + (dir / "r.svg").string());
  ASSERT_EQ(rsvg.exit_code, 0) << rsvg.err;
  EXPECT_EQ(rsvg.err, "");
  auto png = run_command(kCheck + " png " + (dir / "r.png").string() + kChartColours);
  EXPECT_EQ(png.exit_code, 0) << png.out << png.err;

  auto chromium = run_command(
      "chromium --headless --disable-gpu --no-sandbox --hide-scrollbars --user-data-dir=" + (dir / "chrome").string() +
      " --window-size=1100,1200 --screenshot=" + (dir / "page.png").string() + " file://" + (dir / "r.html").string());
  ASSERT_EQ(chromium.exit_code, 0) << chromium.err;
  auto shot = run_command(kCheck + " png " + (dir / "page.png").string() + kChartColours);
  EXPECT_EQ(shot.exit_code, 0) << shot.out << shot.err;
}

TEST(ReportPeer, JsonAndCsvOnStdout) {
  TempDir dir;
  auto json = run_command(report_command("gemm-20261122-031500 -o json"));
  ASSERT_EQ(json.exit_code, 0) << json.err;
  auto document = nlohmann::json::parse(json.out);
  EXPECT_EQ(document["catalog_date"], "2026-11-20");
  EXPECT_EQ(document["throughput"].size(), 4u);  // 3 GEMM rows and the T4 training row
  auto csv = run_command(report_command("broken -o csv"));
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_TRUE(csv.out.starts_with("workload,precision,shape,metric,unit,accelerator,")) << csv.out;
  // CSV has no room for them, so the skipped lines go to stderr, each by file and line.
  EXPECT_TRUE(contains(csv.err, "broken-20261122-050000/results.jsonl:3: skipped: missing field 'unit'\n")) << csv.err;
}

TEST(ReportPeer, BadInputExits2WithAMessage) {
  TempDir dir;
  auto empty = run_command(report_command("empty"));
  EXPECT_EQ(empty.exit_code, 2);
  EXPECT_TRUE(contains(empty.err, "nothing to report: no usable result lines in the run")) << empty.err;
  auto unknown = run_command(report_command("gemm-2027"));
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_TRUE(contains(unknown.err, "no run named 'gemm-2027'")) << unknown.err;
  auto baseline = run_command(report_command("gemm --baseline nvidia-l5"));
  EXPECT_EQ(baseline.exit_code, 2);
  EXPECT_TRUE(contains(baseline.err, "(did you mean 'nvidia-l4'?)")) << baseline.err;
  auto format = run_command(report_command("gemm -o xlsx"));
  EXPECT_EQ(format.exit_code, 2);
  // A report whose SVG cannot be written leaves no report on stdout and no partial file.
  auto unwritable = run_command(report_command("gemm --svg /proc/no/such/r.svg"));
  EXPECT_EQ(unwritable.exit_code, 2);
  EXPECT_EQ(unwritable.out, "");
}

// The README's walk: `report EXP` after a second run of EXP takes the latest and says so
// (before: "'mlp' names 2 runs; give more of the name", exit 2); its CSV loads as a table
// with a column per sweep variable and a row per point and metric.
TEST(ReportPeer, AnExperimentsNameTakesItsLatestRunAndItsCsvLoadsAsATable) {
  TempDir dir;
  auto latest = run_command(report_command("mlp -o csv") + " > " + (dir / "r.csv").string());
  ASSERT_EQ(latest.exit_code, 0) << latest.err;
  EXPECT_TRUE(contains(latest.err, "experiment 'mlp' has 2 runs; the latest, mlp-20261124-090000 (--all-runs")) << latest.err;
  auto table = run_command(kCheck + " csv " + (dir / "r.csv").string());
  ASSERT_EQ(table.exit_code, 0) << table.out << table.err;
  EXPECT_TRUE(contains(table.out, "columns: workload,precision,shape,hidden,lr,metric,unit,")) << table.out;
  EXPECT_EQ(std::count(table.out.begin(), table.out.end(), '\n'), 13) << table.out;  // columns + 4 points x 3 metrics
  EXPECT_TRUE(contains(table.out, "row: workload=mlp hidden=32 lr=0.01 metric=val_loss unit=nats")) << table.out;
  auto all = run_command(report_command("mlp --all-runs --sort val_loss"));
  ASSERT_EQ(all.exit_code, 0) << all.err;
  EXPECT_TRUE(contains(all.out, "## Points\n\nSorted by val_loss, lowest first; * marks the best point.")) << all.out;
  EXPECT_TRUE(contains(all.out, "| * | 32 | 0.01 | 14 | 0.875 | 0.25 |\n")) << all.out;
  // Both runs measured hidden=16 lr=0.1: the median of their last losses, and their range.
  EXPECT_TRUE(contains(all.out, "|  | 16 | 0.1 | 12 | 0.79 | 0.66 (0.42-0.9) |\n")) << all.out;
  EXPECT_TRUE(contains(all.out, "mlp-20261124-080000: local")) << all.out;
}

// Twelve points, 20 epochs, two metrics with steps (tests/tool/steps/report/make_sweep.py): a line per
// point in each curve chart, each point's colour in the picture, and no text past the edge.
// Before: "no throughput results, so no chart" and no file.
TEST(ReportPeer, TwelvePointsDrawAsLearningCurvesThatFitThePicture) {
  TempDir dir;
  auto made = run_command("python3 " GKEBUILD_SOURCE_ROOT "/tests/tool/steps/report/make_sweep.py " + dir.path().string());
  ASSERT_EQ(made.exit_code, 0) << made.err;
  auto run = run_command(gkebuild::testing::gkebuild_binary() + " report -f " + (dir / "gkebuild.yaml").string() +
                         " sweep --svg " + (dir / "r.svg").string() + " --html " + (dir / "r.html").string());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto xml = run_command(kCheck + " svg " + (dir / "r.svg").string());
  ASSERT_EQ(xml.exit_code, 0) << xml.out << xml.err;
  EXPECT_TRUE(contains(xml.out, " curves=24 ")) << xml.out;  // 12 points x val_loss, val_accuracy
  EXPECT_TRUE(contains(xml.out, "text: epoch\n")) << xml.out;
  EXPECT_FALSE(contains(xml.out, "n/a")) << xml.out;
  auto rsvg = run_command("rsvg-convert -o " + (dir / "r.png").string() + " " + (dir / "r.svg").string());
  ASSERT_EQ(rsvg.exit_code, 0) << rsvg.err;
  auto png = run_command(kCheck + " png " + (dir / "r.png").string() +
                         " 4c78a8 f58518 54a24b e45756 72b7b2 b279a2 d6a800 9d755d ff9da6 1f3b73 8c6d31 7f7f7f");
  EXPECT_EQ(png.exit_code, 0) << png.out << png.err;
  EXPECT_TRUE(contains(read_file(dir / "r.html"), "<h2>Charts</h2>\n<svg ")) << "no chart in the page";
}

}  // namespace
}  // namespace gkebuild::report
