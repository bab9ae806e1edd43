// The pieces: statistics, number formats, XML escaping, the SVG and HTML writers.
#include <gtest/gtest.h>

#include <cmath>

#include "fixture.h"
#include "tool/steps/report/bar_chart.h"
#include "tool/steps/report/html_writer.h"
#include "tool/steps/report/line_chart.h"
#include "tool/steps/report/number_format.h"
#include "tool/steps/report/report_charts.h"
#include "tool/steps/report/statistics.h"
#include "tool/steps/report/svg_writer.h"

namespace gkebuild::report {
namespace {

using namespace testing;

TEST(ReportParts, MedianAndMad) {
  EXPECT_EQ(median({3, 1, 2}), 2);
  EXPECT_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_EQ(median_absolute_deviation({1, 2, 3, 4, 100}), 1);  // |x - 3| = 2 1 0 1 97
  EXPECT_EQ(outlier_indices({1, 2, 3, 4, 100}), std::vector<std::size_t>{4});
  EXPECT_TRUE(outlier_indices({1, 100}).empty());  // too few values to judge
  EXPECT_EQ(outlier_indices({5, 5, 5, 6}), std::vector<std::size_t>{3});  // MAD 0: any other value
  EXPECT_TRUE(std::isinf(modified_z_score(6, 5, 0)));
}

TEST(ReportParts, NumbersKeepFourSignificantDigits) {
  EXPECT_EQ(format_number(1234.56), "1235");
  EXPECT_EQ(format_number(0.0123456), "0.01235");
  EXPECT_EQ(format_number(8.2), "8.2");
  EXPECT_EQ(format_number(9.99996), "10");
  EXPECT_EQ(format_number(-10.45475, 3), "-10.5");
  EXPECT_EQ(format_number(0), "0");
  EXPECT_EQ(format_number(-INFINITY), "-inf");
  EXPECT_EQ(format_usd(std::nullopt), "n/a");
  EXPECT_EQ(format_ratio(1.0 / 3), "0.33x");
  EXPECT_EQ(format_duration(90), "90 s");
  EXPECT_EQ(format_duration(1800), "30 min");
  EXPECT_EQ(format_duration(36000), "10 h");
  EXPECT_EQ(nice_ceiling(8.8), 10);
  EXPECT_EQ(nice_ceiling(40), 50);
  EXPECT_EQ(nice_ceiling(0.0243), 0.05);
}

TEST(ReportParts, SvgTextIsEscaped) {
  EXPECT_EQ(xml_escape("a<b & \"c\" 'd'>"), "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;");
  EXPECT_EQ(xml_escape(std::string("tab\there\x01")), "tab\there?");  // XML 1.0 cannot hold \x01
  SvgWriter svg(100, 50, "x < y");
  svg.text(1, 2, "</text><script>");
  std::string document = svg.finish();
  EXPECT_TRUE(contains(document, "<title>x &lt; y</title>"));
  EXPECT_TRUE(contains(document, ">&lt;/text&gt;&lt;script&gt;</text>"));
}

TEST(ReportParts, TextWrapsAtSpacesAndBreaksAWordLongerThanALine) {
  EXPECT_EQ(wrap_text("mlp hidden=16 lr=0.1", 1000, 10), std::vector<std::string>{"mlp hidden=16 lr=0.1"});
  EXPECT_EQ(wrap_text("mlp hidden=16 lr=0.1", 62, 10), (std::vector<std::string>{"mlp", "hidden=16", "lr=0.1"}));
  EXPECT_EQ(wrap_text("abcdefghijkl", 31, 10), (std::vector<std::string>{"abcde", "fghij", "kl"}));
  EXPECT_EQ(wrap_text("", 100, 10), std::vector<std::string>{""});
  // Broken between characters, not inside one: "é" is two bytes.
  EXPECT_EQ(wrap_text("\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9", 31, 10),
            (std::vector<std::string>{"\u00e9\u00e9\u00e9\u00e9\u00e9", "\u00e9"}));
}

TEST(ReportParts, AxisRangesEndAtRoundNumbers) {
  auto range = nice_range(0.23, 2.41);
  EXPECT_DOUBLE_EQ(range.low, 0);
  EXPECT_DOUBLE_EQ(range.high, 2.5);
  EXPECT_DOUBLE_EQ(range.step, 0.5);
  range = nice_range(1, 3, true);  // steps: whole ticks, not 1.5
  EXPECT_DOUBLE_EQ(range.step, 1);
  range = nice_range(0.5, 0.5);  // one value: a range around it
  EXPECT_LT(range.low, 0.5);
  EXPECT_GT(range.high, 0.5);
}

// A metric may be negative (a reward): its bar grows left from zero, inside the plot.
TEST(ReportParts, NegativeBarsGrowLeftFromZero) {
  BarChart chart{"reward", "points", {{"median", "#4c78a8"}}, {{"a", {{-3.0}}}, {"b", {{5.0}}}}};
  SvgWriter svg(470, bar_chart_height(chart, 470), "t");
  draw_bar_chart(svg, chart, 470);
  const std::string document = svg.finish();
  for (const char* tick : {">-4</text>", ">0</text>", ">6</text>"}) EXPECT_TRUE(contains(document, tick)) << tick;
  // The plot spans 150 to 400 (470 less the value room) for -4 to 6: zero at 250, -3 at 175.
  EXPECT_TRUE(contains(document, "<rect x=\"175\" y=\"")) << document;
  EXPECT_TRUE(contains(document, "width=\"75\" height=\"12\" fill=\"#4c78a8\"><title>a median: -3</title>")) << document;
}

TEST(ReportParts, ChartsHoldEveryAcceleratorWithItsSpread) {
  auto report = fixture_report({"gemm-20261122-031500"});
  std::string svg = write_svg(report);
  EXPECT_TRUE(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
  EXPECT_TRUE(contains(svg, ">gemm-bench fp32 k=4096 m=4096 n=4096 (TFLOP/s)</text>"));
  EXPECT_TRUE(contains(svg, ">TFLOP/s (bar: median; whiskers: min-max)</text>"));
  EXPECT_TRUE(contains(svg, ">Cost per 10^15 FLOP</text>"));
  EXPECT_TRUE(contains(svg, ">n/a (no price in the catalog)</text>"));  // GB200 in the cost chart
  EXPECT_TRUE(contains(svg, "<title>nvidia-l4 median: 8.2</title>"));
  for (const char* label : {">nvidia-gb200</text>", ">nvidia-l4</text>", ">nvidia-tesla-t4</text>"})
    EXPECT_TRUE(contains(svg, label)) << label;
}

TEST(ReportParts, HtmlHoldsTablesAndChartsTogether) {
  std::string html = write_html(fixture_report({"gemm-20261122-031500", "mnist-20261122-040000"}));
  EXPECT_TRUE(html.starts_with("<!DOCTYPE html>"));
  EXPECT_TRUE(contains(html, "<h2>Charts</h2>\n<svg "));
  EXPECT_TRUE(contains(html, "<td>nvidia-l4</td><td class=\"n\">4</td><td class=\"n\">8.2</td>"));
  EXPECT_TRUE(contains(html, "<td>cpu (local)</td>"));
  EXPECT_TRUE(contains(html, "</svg>\n"));
}

}  // namespace
}  // namespace gkebuild::report
