#include "tool/steps/report/html_writer.h"

#include <sstream>

#include "tool/steps/report/points_table.h"
#include "tool/steps/report/report_charts.h"
#include "tool/steps/report/report_tables.h"
#include "tool/steps/report/search_view.h"
#include "tool/steps/report/svg_writer.h"

namespace gkebuild::report {
namespace {

constexpr const char* kStyle =
    "body{font-family:'DejaVu Sans',Arial,sans-serif;margin:24px;color:#222}"
    "table{border-collapse:collapse;margin:8px 0 20px;font-size:13px}"
    "th,td{border:1px solid #ccc;padding:4px 8px;text-align:left}td.n{text-align:right}"
    "th{background:#f0f0f0}"
    "h1{font-size:22px}h2{font-size:18px;margin-top:28px}h3{font-size:15px}"
    "li{margin:2px 0;font-size:13px}";

void table_to(std::ostream& out, const Table& table) {
  std::vector<bool> numeric;
  for (std::size_t i = 0; i < table.header.size(); ++i) numeric.push_back(numeric_column(table, i));
  out << "<table>\n<tr>";
  for (const auto& cell : table.header) out << "<th>" << xml_escape(cell) << "</th>";
  out << "</tr>\n";
  for (const auto& row : table.rows) {
    out << "<tr>";
    for (std::size_t i = 0; i < row.size(); ++i)
      out << (numeric[i] ? "<td class=\"n\">" : "<td>") << xml_escape(row[i]) << "</td>";
    out << "</tr>\n";
  }
  out << "</table>\n";
}

void list_to(std::ostream& out, const std::string& title, const std::vector<std::string>& items) {
  if (items.empty()) return;
  out << "<h2>" << xml_escape(title) << "</h2>\n<ul>\n";
  for (const auto& item : items) out << "<li>" << xml_escape(item) << "</li>\n";
  out << "</ul>\n";
}

}  // namespace

std::string write_html(const Report& report) {
  std::ostringstream out;
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<title>gkebuild report</title>\n<style>" << kStyle << "</style>\n</head>\n<body>\n"
      << "<h1>gkebuild report</h1>\n<p>" << xml_escape(basis_line(report)) << "</p>\n";
  list_to(out, "Runs", run_lines(report));
  if (points_shown(report)) {
    out << "<h2>Points</h2>\n<p>" << xml_escape(points_caption(report)) << "</p>\n";
    table_to(out, points_table(report));
  }
  for (const auto& search : report.searches) {
    out << "<h2>Search: run " << xml_escape(search.run) << "</h2>\n<p>" << xml_escape(search_summary(search)) << "</p>\n";
    table_to(out, search_table(search));
  }
  if (std::string svg = write_svg(report); !svg.empty()) out << "<h2>Charts</h2>\n" << svg;
  if (!report.throughput.empty()) out << "<h2>Throughput</h2>\n";
  for (const auto& rows : rows_by_case(report)) {
    out << "<h3>" << xml_escape(rows.front()->key.title() + " (" + rows.front()->key.unit + ")") << "</h3>\n";
    table_to(out, throughput_table(rows, report.baseline));
  }
  list_to(out, "Outliers", outlier_lines(report));
  if (!report.metrics.empty()) {
    out << "<h2>Other measurements</h2>\n";
    table_to(out, metrics_table(report));
  }
  if (!report.prices.empty()) {
    out << "<h2>Prices in " << xml_escape(report.price_region) << " (catalog of " << xml_escape(report.catalog_date)
        << ")</h2>\n";
    table_to(out, prices_table(report));
  }
  list_to(out, "Skipped result lines (" + std::to_string(report.skipped.size()) + ")", skipped_lines(report));
  list_to(out, "Notes", report.notes);
  out << "</body>\n</html>\n";
  return out.str();
}

}  // namespace gkebuild::report
