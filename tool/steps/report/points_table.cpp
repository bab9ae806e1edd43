#include "tool/steps/report/points_table.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "base/error.h"
#include "base/printable.h"
#include "base/suggest.h"
#include "tool/steps/report/number_format.h"

namespace gkebuild::report {
namespace {

// One metric at one point: the value chosen (--metric) and, over pooled Jobs, its range.
struct Cell {
  double value = 0, low = 0, high = 0;
  std::size_t jobs = 0;
};

struct Column {
  std::string metric, unit;
  std::string title() const { return unit.empty() ? metric : metric + " (" + unit + ")"; }
  auto operator<=>(const Column&) const = default;
};

struct PointRow {
  std::string base;  // workload, precision, shape
  std::vector<std::pair<std::string, std::string>> point;
  std::string accelerator;
  std::map<Column, Cell> cells;
};

bool has_word(const std::string& metric, std::initializer_list<const char*> words) {
  return std::any_of(words.begin(), words.end(), [&](const char* word) { return metric.find(word) != std::string::npos; });
}

double chosen(const std::string& value, const std::string& metric, double last, double median, double low,
              double high) {
  if (value == "min") return low;
  if (value == "max") return high;
  if (value == "median") return median;
  if (value == "best") return lower_is_better(metric).value_or(false) ? low : high;
  return last;
}

std::string base_of(const CaseKey& key) {
  std::string text = key.workload;
  for (const auto* part : {&key.precision, &key.shape})
    if (!part->empty()) text += " " + *part;
  return text;
}

std::vector<PointRow> collect(const Report& report) {
  std::map<std::tuple<std::string, std::string, std::string>, PointRow> rows;
  auto row_of = [&](const CaseKey& key, const std::string& accelerator) -> PointRow& {
    auto& row = rows[{base_of(key), key.parameters, accelerator}];
    if (row.base.empty()) row = {base_of(key), key.point, accelerator, {}};
    return row;
  };
  const std::string& value = report.points.value;
  for (const auto& row : report.metrics)
    row_of(row.key, row.accelerator).cells[{row.key.metric, row.key.unit}] = {
        chosen(value, row.key.metric, row.last, row.median, row.min, row.max), row.min, row.max, row.jobs};
  for (const auto& row : report.throughput)  // a throughput has no last step: its median stands for it
    row_of(row.key, row.accelerator).cells[{row.key.metric, row.key.unit}] = {
        chosen(value, row.key.metric, row.median, row.median, row.min, row.max), row.min, row.max, row.jobs.size()};
  std::vector<PointRow> out;
  for (auto& [key, row] : rows) out.push_back(std::move(row));
  return out;
}

std::vector<Column> columns_of(const std::vector<PointRow>& rows) {
  std::set<Column> columns;
  for (const auto& row : rows)
    for (const auto& [column, cell] : row.cells) columns.insert(column);
  return {columns.begin(), columns.end()};
}

std::vector<std::string> metric_names(const Report& report) {
  std::set<std::string> names;
  for (const auto& row : report.metrics) names.insert(row.key.metric);
  for (const auto& row : report.throughput) names.insert(row.key.metric);
  return {names.begin(), names.end()};
}

// The objective of a search in the report, when it is `metric`: its goal says which end is
// better; else the metric's name may say (lower_is_better).
std::optional<bool> lower_better(const Report& report, const std::string& metric) {
  for (const auto& search : report.searches)
    if (search.metric == metric) return search.minimize;
  return lower_is_better(metric);
}

// Lower first when lower is better, unless --sort was given: then as asked (--desc).
bool ascending(const Report& report, const std::string& metric) {
  if (!report.points.sort.empty()) return !report.points.descending;
  return lower_better(report, metric).value_or(true) != report.points.descending;
}

const Cell* cell_of(const PointRow& row, const std::string& metric) {
  for (const auto& [column, cell] : row.cells)
    if (column.metric == metric) return &cell;
  return nullptr;
}

void sort_rows(const Report& report, std::vector<PointRow>& rows, const std::string& metric) {
  const bool up = ascending(report, metric);
  std::stable_sort(rows.begin(), rows.end(), [&](const PointRow& a, const PointRow& b) {
    const Cell* x = cell_of(a, metric);
    const Cell* y = cell_of(b, metric);
    if (!x || !y) return x && !y;  // rows without the metric last
    return up ? x->value < y->value : x->value > y->value;
  });
}

// The best row: the better end of the sort metric (by a search's objective, else its name), else the first row.
const PointRow* best_row(const Report& report, const std::vector<PointRow>& rows, const std::string& metric) {
  const PointRow* best = nullptr;
  const auto lower = lower_better(report, metric);
  for (const auto& row : rows) {
    const Cell* cell = cell_of(row, metric);
    if (!cell) continue;
    if (!best || (lower && (*lower ? cell->value < cell_of(*best, metric)->value
                                   : cell->value > cell_of(*best, metric)->value)))
      best = &row;
  }
  return best;
}

std::string cell_text(const Cell* cell) {
  if (!cell) return "-";
  std::string text = format_number(cell->value);
  if (cell->jobs > 1 && cell->low != cell->high)  // pooled (--group-by seed): the spread
    text += " (" + format_number(cell->low) + "-" + format_number(cell->high) + ")";
  return text;
}

}  // namespace

std::optional<bool> lower_is_better(const std::string& metric) {
  if (has_word(metric, {"loss", "error", "time", "latency", "perplexity", "mse", "mae", "seconds"}))
    return true;
  if (has_word(metric, {"acc", "throughput", "f1", "auc", "precision", "recall", "score", "reward", "bleu"}))
    return false;
  return std::nullopt;
}

std::string sort_metric(const Report& report) {
  if (!report.points.sort.empty()) return report.points.sort;
  const auto names = metric_names(report);
  for (const auto& search : report.searches)  // a search's objective names the best point
    if (std::find(names.begin(), names.end(), search.metric) != names.end()) return search.metric;
  for (const char* prefix : {"val", "test", ""})
    for (const auto& name : names)
      if (name.starts_with(prefix) && lower_is_better(name)) return name;
  return "";
}

bool points_shown(const Report& report) {
  if (report.points.shown) return *report.points.shown;
  std::set<std::string> accelerators;
  for (const auto& row : report.metrics) accelerators.insert(row.accelerator);
  for (const auto& row : report.throughput) accelerators.insert(row.accelerator);
  return accelerators.size() <= 1;
}

void check_points_view(const Report& report) {
  const auto& view = report.points;
  static const std::vector<std::string> values = {"last", "best", "min", "max", "median"};
  if (std::find(values.begin(), values.end(), view.value) == values.end())
    throw Error(ErrorKind::kBadInput, "--metric " + printable(view.value) +
                                          ": expected last, best, min, max or median" + did_you_mean(view.value, values));
  const auto names = metric_names(report);
  if (view.sort.empty() || std::find(names.begin(), names.end(), view.sort) != names.end()) return;
  std::string list;
  for (const auto& name : names) list += (list.empty() ? "" : ", ") + printable(name);
  throw Error(ErrorKind::kBadInput, "--sort " + printable(view.sort) + ": no result line has that metric" +
                                        did_you_mean(view.sort, names) + "; the metrics: " + list);
}

Table points_table(const Report& report) {
  std::vector<PointRow> rows = collect(report);
  const auto columns = columns_of(rows);
  const std::string metric = sort_metric(report);
  if (!metric.empty()) sort_rows(report, rows, metric);
  const PointRow* best = metric.empty() ? nullptr : best_row(report, rows, metric);
  std::set<std::string> bases, accelerators, variables;
  for (const auto& row : rows) {
    bases.insert(row.base);
    accelerators.insert(row.accelerator);
    for (const auto& [name, value] : row.point) variables.insert(name);
  }
  Table table;
  table.header.push_back("best");
  if (bases.size() > 1) table.header.push_back("case");
  table.header.insert(table.header.end(), variables.begin(), variables.end());
  if (accelerators.size() > 1) table.header.push_back("accelerator");
  for (const auto& column : columns) table.header.push_back(column.title());
  for (const auto& row : rows) {
    std::vector<std::string> cells = {&row == best ? "*" : ""};
    if (bases.size() > 1) cells.push_back(row.base);
    for (const auto& name : variables) {
      auto found = std::find_if(row.point.begin(), row.point.end(), [&](const auto& each) { return each.first == name; });
      cells.push_back(found == row.point.end() ? "-" : found->second);
    }
    if (accelerators.size() > 1) cells.push_back(row.accelerator);
    for (const auto& column : columns) {
      auto found = row.cells.find(column);
      cells.push_back(cell_text(found == row.cells.end() ? nullptr : &found->second));
    }
    table.rows.push_back(std::move(cells));
  }
  return table;
}

std::string points_caption(const Report& report) {
  const std::string metric = sort_metric(report);
  const auto& value = report.points.value;
  std::string text = metric.empty() ? "Unsorted (no metric name says which end is better; --sort METRIC sorts)."
                                     : "Sorted by " + metric + ", " + (ascending(report, metric) ? "lowest" : "highest") +
                                           " first; * marks the best point.";
  text += " Each cell: " + (value == "last" ? std::string("the last value (last step or epoch) of each Job")
                                            : "the " + value + " value of each Job's results") +
          "; pooled Jobs (--group-by): their median, then the range. --metric last|best|min|max|median chooses.";
  return text;
}

}  // namespace gkebuild::report
