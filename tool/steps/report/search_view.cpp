#include "tool/steps/report/search_view.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "tool/steps/report/number_format.h"

namespace gkebuild::report {
namespace {

using nlohmann::json;

// The step of a result line: `step` or `epoch`, at the top level or under `extra`.
std::optional<double> step_of(const json& line) {
  for (const json* object : {&line, line.contains("extra") ? &line["extra"] : nullptr}) {
    if (!object || !object->is_object()) continue;
    for (const char* name : {"step", "epoch"})
      if (auto found = object->find(name); found != object->end() && found->is_number()) return found->get<double>();
  }
  return std::nullopt;
}

std::string text_of(const json& value) { return value.is_string() ? value.get<std::string>() : value.dump(); }

double wall_hours(const runrecord::JobRecord& job) {
  if (!job.start || !job.end) return 0;
  return std::chrono::duration<double>(*job.end - *job.start).count() / 3600;
}

SearchTrial trial_of(const runrecord::JobRecord& job) {
  SearchTrial trial;
  trial.job = job.name;
  for (const auto& [name, value] : job.parameters.items()) trial.point.emplace_back(name, text_of(value));
  trial.state = std::string(runrecord::to_string(job.state));
  trial.outcome = job.reason;
  trial.gpu_hours = job.gpus * std::max(1, job.nodes) * wall_hours(job);
  return trial;
}

// Each trial's last step and its objective there (any metric's steps when there is no objective).
void read_steps(const LoadedRun& run, const std::string& metric, std::map<std::string, SearchTrial*>& trials) {
  for (const auto& line : run.results.lines) {
    auto found = trials.find(line.job);
    const auto step = step_of(line.line);
    if (found == trials.end() || !step || (!metric.empty() && line.metric != metric)) continue;
    SearchTrial& trial = *found->second;
    if (trial.last_step && *step < *trial.last_step) continue;
    trial.last_step = step;
    if (!metric.empty()) trial.value = line.value;
  }
}

SearchView view_of(const LoadedRun& run) {
  const auto& search = *run.record.search;
  SearchView view{run.record.run, search.algorithm, search.stopping, search.metric, search.minimize, {}, {}, 0, 0, 0, 0};
  std::map<std::string, SearchTrial*> by_job;
  for (const auto& job : run.record.jobs) view.trials.push_back(trial_of(job));
  for (auto& trial : view.trials) by_job[trial.job] = &trial;
  read_steps(run, search.metric, by_job);
  double most = 0;
  for (const auto& trial : view.trials) most = std::max(most, trial.last_step.value_or(0));
  std::optional<double> best;
  for (std::size_t i = 0; i < view.trials.size(); ++i) {
    SearchTrial& trial = view.trials[i];
    const double steps = trial.last_step.value_or(0);
    view.steps_run += steps;
    view.steps_full += most;
    view.gpu_hours += trial.gpu_hours;
    view.gpu_hours_full += steps > 0 ? trial.gpu_hours * most / steps : trial.gpu_hours;
    const bool finished = trial.state == "succeeded";
    if (finished && trial.outcome.empty()) trial.outcome = "ran to step " + format_number(steps);
    if (finished && trial.value && (!best || (search.minimize ? *trial.value < *best : *trial.value > *best))) {
      best = trial.value;
      view.best = i;
    }
    trial.best_so_far = best;
  }
  return view;
}

std::string optional_number(const std::optional<double>& value) { return value ? format_number(*value) : "-"; }

std::string point_text(const SearchTrial& trial) {
  std::string text;
  for (const auto& [name, value] : trial.point) text += (text.empty() ? "" : " ") + name + "=" + value;
  return text;
}

}  // namespace

std::vector<SearchView> search_views(const std::vector<LoadedRun>& runs) {
  std::vector<SearchView> views;
  for (const auto& run : runs)
    if (run.record.search) views.push_back(view_of(run));
  return views;
}

Table search_table(const SearchView& view) {
  const std::string metric = view.metric.empty() ? "objective" : view.metric;
  Table table{{"Trial", "Point", "State", "Steps", metric + " (last)", "Best so far", "Outcome"}, {}};
  for (std::size_t i = 0; i < view.trials.size(); ++i) {
    const SearchTrial& trial = view.trials[i];
    table.rows.push_back({(view.best == i ? "* " : "") + trial.job, point_text(trial), trial.state,
                          optional_number(trial.last_step), optional_number(trial.value),
                          optional_number(trial.best_so_far), trial.outcome});
  }
  return table;
}

std::string search_summary(const SearchView& view) {
  std::string text = view.algorithm + " over " + count_of(view.trials.size(), "trial");
  if (!view.stopping.empty()) text += ", stopped early by " + view.stopping;
  if (view.metric.empty()) {
    text += "; no objective: no best trial";
  } else {
    text += "; objective " + view.metric + " (" + (view.minimize ? "lowest" : "highest") + " best)";
    if (view.best) {
      const SearchTrial& best = view.trials[*view.best];
      text += "; * best trial " + best.job + " (" + point_text(best) + "): " + view.metric + " " +
              format_number(*best.value);
    } else {
      text += "; no trial ran to its end";
    }
  }
  text += ". Steps run: " + format_number(view.steps_run) + " of a full grid's " + format_number(view.steps_full);
  if (view.steps_full > 0) text += " (" + format_number(100 * view.steps_run / view.steps_full, 3) + "%)";
  text += "; GPU-hours: " + format_number(view.gpu_hours) + " of an estimated " + format_number(view.gpu_hours_full) +
          " for the full grid" + (view.gpu_hours_full == 0 ? " (no GPUs: count steps)" : "") + ".";
  return text;
}

}  // namespace gkebuild::report
