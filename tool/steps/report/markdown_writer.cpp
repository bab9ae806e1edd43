#include <sstream>

#include "tool/steps/report/points_table.h"
#include "tool/steps/report/search_view.h"
#include "tool/steps/report/report_tables.h"
#include "tool/steps/report/report_writers.h"

namespace gkebuild::report {
namespace {

std::string cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  return out;
}

void table_to(std::ostream& out, const Table& table) {
  auto row_to = [&out](const std::vector<std::string>& cells) {
    out << "|";
    for (const auto& text : cells) out << " " << cell(text) << " |";
    out << "\n";
  };
  row_to(table.header);
  out << "|";
  for (std::size_t i = 0; i < table.header.size(); ++i) out << (numeric_column(table, i) ? " ---: |" : " --- |");
  out << "\n";
  for (const auto& row : table.rows) row_to(row);
}

void list_to(std::ostream& out, const std::string& title, const std::vector<std::string>& items) {
  if (items.empty()) return;
  out << "\n## " << title << "\n\n";
  for (const auto& item : items) out << "- " << item << "\n";
}

}  // namespace

std::string write_markdown(const Report& report) {
  std::ostringstream out;
  out << "# gkebuild report\n\n" << basis_line(report) << "\n";
  list_to(out, "Runs", run_lines(report));
  if (points_shown(report)) {
    out << "\n## Points\n\n" << points_caption(report) << "\n\n";
    table_to(out, points_table(report));
  }
  for (const auto& search : report.searches) {
    out << "\n## Search: run " << search.run << "\n\n" << search_summary(search) << "\n\n";
    table_to(out, search_table(search));
  }
  if (!report.throughput.empty()) out << "\n## Throughput\n";
  for (const auto& rows : rows_by_case(report)) {
    out << "\n### " << rows.front()->key.title() << " (" << rows.front()->key.unit << ")\n\n";
    table_to(out, throughput_table(rows, report.baseline));
  }
  list_to(out, "Outliers", outlier_lines(report));
  if (!report.metrics.empty()) {
    out << "\n## Other measurements\n\n";
    table_to(out, metrics_table(report));
  }
  if (!report.prices.empty()) {
    out << "\n## Prices in " << report.price_region << " (catalog of " << report.catalog_date << ")\n\n";
    table_to(out, prices_table(report));
  }
  list_to(out, "Skipped result lines (" + std::to_string(report.skipped.size()) + ")", skipped_lines(report));
  list_to(out, "Notes", report.notes);
  return out.str();
}

}  // namespace gkebuild::report
