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

std::string shape_text(const nlohmann::json& shape) {
  std::string text;
  for (const auto& [name, value] : shape.items()) {
    if (!text.empty()) text += ' ';
    text += name + "=" + (value.is_string() ? value.get<std::string>() : value.dump());
  }
  return text;
}

// The Job's sweep point as run.json holds it, less the variables pooled over and those the
// result line states itself (a shape entry or the precision of the same value), so that the
// row's title names each once.
std::string point_text(const runrecord::JobRecord& job, const std::vector<std::string>& pooled,
                       const runrecord::ResultLine& line) {
  if (!job.parameters.is_object()) return "";
  nlohmann::json point = job.parameters;
  for (const auto& name : pooled) point.erase(name);
  const auto text = [](const nlohmann::json& value) { return value.is_string() ? value.get<std::string>() : value.dump(); };
  for (auto it = point.begin(); it != point.end();) {
    const bool in_shape = line.shape.is_object() && line.shape.contains(it.key()) &&
                          text(line.shape[it.key()]) == text(it.value());
    const bool is_precision = it.key() == "precision" && !line.precision.empty() && text(it.value()) == line.precision;
    it = in_shape || is_precision ? point.erase(it) : std::next(it);
  }
  return shape_text(point);
}

Groups group_samples(const std::vector<LoadedRun>& runs, std::vector<runrecord::SkippedLine>& skipped,
                     const std::vector<std::string>& pooled) {
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
      CaseKey key{line.workload, line.precision, shape_text(line.shape), line.metric, line.unit,
                  point_text(*job->second, pooled, line)};
      groups[{key, accelerator_name(*job->second, run.record, line)}].push_back({&run, job->second, &line});
    }
  }
  return groups;
}

}  // namespace gkebuild::report
