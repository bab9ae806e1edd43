// The gkebuild binary end to end on the fixture runs; its SVG checked by Python's XML parser
// and rendered by rsvg-convert, its HTML page screenshotted by headless Chromium.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdlib>

#include "../images/temp_dir.h"
#include "fixture.h"

namespace gkebuild::report {
namespace {

using namespace testing;
using gkebuild::testing::TempDir;

const std::string kCheck = "python3 " GKEBUILD_SOURCE_ROOT "/tests/report/check_output.py";
// The bar colours of the charts: throughput, on demand, spot.
const std::string kChartColours = " 4c78a8 f58518 54a24b";

struct Outcome {
  int code;
  std::string out, err;
};

Outcome shell(const std::string& command, const TempDir& dir) {
  std::string out = (dir / "stdout").string(), err = (dir / "stderr").string();
  int status = std::system((command + " >" + out + " 2>" + err).c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_file(out), read_file(err)};
}

std::string report_command(const std::string& arguments) {
  return std::string(GKEBUILD_BINARY) + " report -f " + kProject + "/gkebuild.yaml --catalog " + kFixtures +
         "/catalog.yaml " + arguments;
}

TEST(ReportPeer, MarkdownSvgAndHtmlFromTheCommandLine) {
  TempDir dir;
  auto run = shell(report_command("gemm mnist --baseline nvidia-tesla-t4 --svg " + (dir / "r.svg").string() +
                                  " --html " + (dir / "r.html").string()),
                   dir);
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_TRUE(contains(run.out, "| nvidia-l4 | 4 | 8.2 | 2 | 8.8 | 60 s | 0.01667 | $0.012 | $0.006 |")) << run.out;

  auto xml = shell(kCheck + " svg " + (dir / "r.svg").string(), dir);
  ASSERT_EQ(xml.code, 0) << xml.err;
  EXPECT_TRUE(contains(xml.out, "text: mnist-train fp32 batch=64")) << xml.out;
  EXPECT_TRUE(contains(xml.out, "text: USD per epoch (whiskers: at max-min throughput)")) << xml.out;

  auto rsvg = shell("rsvg-convert -o " + (dir / "r.png").string() + " " + (dir / "r.svg").string(), dir);
  ASSERT_EQ(rsvg.code, 0) << rsvg.err;
  EXPECT_EQ(rsvg.err, "");
  auto png = shell(kCheck + " png " + (dir / "r.png").string() + kChartColours, dir);
  EXPECT_EQ(png.code, 0) << png.out << png.err;

  auto chromium = shell("chromium --headless --disable-gpu --no-sandbox --hide-scrollbars --user-data-dir=" +
                            (dir / "chrome").string() + " --window-size=1100,1200 --screenshot=" +
                            (dir / "page.png").string() + " file://" + (dir / "r.html").string(),
                        dir);
  ASSERT_EQ(chromium.code, 0) << chromium.err;
  auto shot = shell(kCheck + " png " + (dir / "page.png").string() + kChartColours, dir);
  EXPECT_EQ(shot.code, 0) << shot.out << shot.err;
}

TEST(ReportPeer, JsonAndCsvOnStdout) {
  TempDir dir;
  auto json = shell(report_command("gemm-20261122-031500 -o json"), dir);
  ASSERT_EQ(json.code, 0) << json.err;
  auto document = nlohmann::json::parse(json.out);
  EXPECT_EQ(document["catalog_date"], "2026-11-20");
  EXPECT_EQ(document["throughput"].size(), 4u);  // 3 GEMM rows and the T4 training row
  auto csv = shell(report_command("broken -o csv"), dir);
  ASSERT_EQ(csv.code, 0) << csv.err;
  EXPECT_TRUE(csv.out.starts_with("workload,precision,shape,metric,unit,accelerator,"));
  // CSV has no room for them, so the skipped lines go to stderr, each by file and line.
  EXPECT_TRUE(contains(csv.err, "broken-20261122-050000/results.jsonl:3: skipped: missing field 'unit'\n")) << csv.err;
}

TEST(ReportPeer, BadInputExits2WithAMessage) {
  TempDir dir;
  auto empty = shell(report_command("empty"), dir);
  EXPECT_EQ(empty.code, 2);
  EXPECT_TRUE(contains(empty.err, "nothing to report: no usable result lines in the run")) << empty.err;
  auto unknown = shell(report_command("gemm-2027"), dir);
  EXPECT_EQ(unknown.code, 2);
  EXPECT_TRUE(contains(unknown.err, "no run named 'gemm-2027'")) << unknown.err;
  auto baseline = shell(report_command("gemm --baseline nvidia-l5"), dir);
  EXPECT_EQ(baseline.code, 2);
  EXPECT_TRUE(contains(baseline.err, "(did you mean 'nvidia-l4'?)")) << baseline.err;
  auto format = shell(report_command("gemm -o xlsx"), dir);
  EXPECT_EQ(format.code, 2);
  // A report whose SVG cannot be written leaves no report on stdout and no partial file.
  auto unwritable = shell(report_command("gemm --svg /proc/no/such/r.svg"), dir);
  EXPECT_EQ(unwritable.code, 2);
  EXPECT_EQ(unwritable.out, "");
}

}  // namespace
}  // namespace gkebuild::report
