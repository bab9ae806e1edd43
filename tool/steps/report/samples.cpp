#include "tool/steps/report/samples.h"

#include "base/printable.h"
namespace gkebuild::report {

std::string CaseKey::title() const {
  std::string text = workload;
  for (const auto* part : {&precision, &shape, &parameters})
    if (!part->empty()) text += " " + *part;
  return text;
}

std::string accelerator_name(const runrecord::JobRecord& job, const runrecord::RunRecord& run,
                             const runrecord::ResultLine& line) {
  if (!job.accelerator) return run.target == "local" ? "cpu (local)" : "cpu";
  std::string name = job.gpus > 1 ? std::to_string(job.gpus) + "x " + *job.accelerator : *job.accelerator;
  // A workload that found no usable GPU in its container and fell back to its CPU path says so
  // in its line; its figures must not stand for the accelerator.
  const auto device = line.line.find("device");
  if (device != line.line.end() && device->is_object() && device->value("kind", "") == "cpu") {
    return std::string(kCpuPathOn) + name;
  }
  return name;
}

std::optional<Step> step_field(const runrecord::ResultLine& line) {
  for (const auto* object : {&line.line, line.line.contains("extra") ? &line.line["extra"] : nullptr}) {
    if (!object || !object->is_object()) continue;
    for (std::string_view name : {"step", "epoch"})
      if (auto found = object->find(name); found != object->end() && found->is_number())
        return Step{name, found->get<double>()};
  }
  return std::nullopt;
}

std::optional<double> step_of(const runrecord::ResultLine& line) {
  if (auto step = step_field(line)) return step->value;
  return std::nullopt;
}

namespace {

// {"k": 4096} as [("k", "4096")]: strings as they are, other values as JSON.
std::vector<std::pair<std::string, std::string>> variables_of(const nlohmann::json& object) {
  std::vector<std::pair<std::string, std::string>> out;
  if (!object.is_object()) return out;
  for (const auto& [name, value] : object.items())
    out.emplace_back(name, value.is_string() ? value.get<std::string>() : value.dump());
  return out;
}

}  // namespace

std::string shape_text(const nlohmann::json& shape) {
  std::string text;
  for (const auto& [name, value] : variables_of(shape)) text += (text.empty() ? "" : " ") + name + "=" + value;
  return text;
}

namespace {

// The Job's sweep point as run.json holds it, less the variables pooled over.
nlohmann::json point_of(const runrecord::JobRecord& job, const std::vector<std::string>& pooled) {
  if (!job.parameters.is_object()) return nlohmann::json::object();
  nlohmann::json point = job.parameters;
  for (const auto& name : pooled) point.erase(name);
  return point;
}

// The point less the variables the result line states itself (a shape entry or the precision of
// the same value), so that the row's title names each once.
nlohmann::json title_point(nlohmann::json point, const runrecord::ResultLine& line) {
  const auto text = [](const nlohmann::json& value) { return value.is_string() ? value.get<std::string>() : value.dump(); };
  for (auto it = point.begin(); it != point.end();) {
    const bool in_shape = line.shape.is_object() && line.shape.contains(it.key()) &&
                          text(line.shape[it.key()]) == text(it.value());
    const bool is_precision = it.key() == "precision" && !line.precision.empty() && text(it.value()) == line.precision;
    it = in_shape || is_precision ? point.erase(it) : std::next(it);
  }
  return point;
}

}  // namespace

Groups group_samples(const std::vector<LoadedRun>& runs, std::vector<runrecord::SkippedLine>& skipped,
                     const std::vector<std::string>& pooled, bool include_stopped) {
  Groups groups;
  for (const auto& run : runs) {
    std::map<std::string, const runrecord::JobRecord*> jobs;
    for (const auto& job : run.record.jobs) jobs[job.name] = &job;
    for (const auto& line : run.results.lines) {
      auto job = jobs.find(line.job);
      if (job == jobs.end()) {
        skipped.push_back({line.where, "job " + in_quotes(line.job) + " is not in run.json"});
        continue;
      }
      if (job->second->state == runrecord::JobState::stopped && !include_stopped) continue;  // noted (report_notes)
      const nlohmann::json point = point_of(*job->second, pooled);
      CaseKey key{line.workload, line.precision, shape_text(line.shape), line.metric, line.unit,
                  shape_text(title_point(point, line)), variables_of(point)};
      groups[{key, accelerator_name(*job->second, run.record, line)}].push_back({&run, job->second, &line});
    }
  }
  return groups;
}

}  // namespace gkebuild::report
