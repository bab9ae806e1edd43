// run.json <-> RunRecord. Readers ignore unknown fields (README: later versions may add some).
#include <cerrno>
#include <regex>
#include <string>
#include <system_error>

#include "base/error.h"
#include "base/dns_name.h"
#include "base/printable.h"
#include "base/atomic_file.h"
#include "base/confined_path.h"
#include "tool/core/runrecord/json_error.h"
#include "tool/core/runrecord/run_store.h"

namespace gkebuild::runrecord {
namespace {

using nlohmann::json;

nlohmann::json time_or_null(const std::optional<TimePoint>& when) {
  return when ? json(format_timestamp(*when)) : json(nullptr);
}

json pod_json(const PodRecord& pod) {
  return {{"name", pod.name}, {"node", pod.node},
          {"exit_code", pod.exit_code ? json(*pod.exit_code) : json(nullptr)},
          {"start", time_or_null(pod.start)}, {"end", time_or_null(pod.end)}};
}

json job_json(const JobRecord& job) {
  json pods = json::array();
  for (const auto& pod : job.pods) pods.push_back(pod_json(pod));
  json out = {{"name", job.name},
              {"accelerator", job.accelerator ? json(*job.accelerator) : json(nullptr)},
              {"gpus", job.gpus}, {"machine_type", job.machine_type}, {"spot", job.spot},
              {"parameters", job.parameters}, {"state", to_string(job.state)}, {"reason", job.reason},
              {"start", time_or_null(job.start)}, {"end", time_or_null(job.end)}, {"pods", pods}};
  if (job.nodes > 1) out["nodes"] = job.nodes;  // absent for one node, as in records before it
  if (!job.provisioning.empty()) out["provisioning"] = job.provisioning;
  if (!job.recoveries.empty()) {
    json recoveries = json::array();
    for (const auto& recovery : job.recoveries)
      recoveries.push_back({{"kind", recovery.kind}, {"reason", recovery.reason}, {"at", time_or_null(recovery.at)},
                            {"left", recovery.left}});
    out["recoveries"] = std::move(recoveries);
  }
  return out;
}

// Reads the fields of one JSON object; errors name the file and the field's path.
class Fields {
 public:
  Fields(const json& object, std::string path, const std::string& file)
      : object_(object), path_(std::move(path)), file_(file) {
    if (!object_.is_object()) fail(path_.empty() ? "the document" : path_, "expected an object");
  }

  const json* find(const char* key) const {
    auto it = object_.find(key);
    return it == object_.end() ? nullptr : &*it;
  }
  const json& require(const char* key) const {
    const json* value = find(key);
    if (!value) fail(name(key), "missing");
    return *value;
  }
  std::string string(const char* key, bool required = false) const {
    const json* value = required ? &require(key) : find(key);
    if (!value || value->is_null()) return "";
    if (!value->is_string()) fail(name(key), "expected a string, got " + value->dump());
    return value->get<std::string>();
  }
  // A run, Job or pod name: only what gkebuild writes (a DNS-1123 subdomain), since a checkout
  // may have planted the record and the name goes into paths and messages.
  std::string object_name(const char* key, bool required = false) const {
    std::string value = string(key, required);
    if ((required || !value.empty()) && !is_dns_subdomain(value))
      fail(name(key), "expected a name gkebuild writes (lower-case letters, digits, '-' and '.'), got \"" +
                          printable(value) + "\"");
    return value;
  }
  std::optional<std::string> nullable_string(const char* key) const {
    const json* value = find(key);
    if (!value || value->is_null()) return std::nullopt;
    return string(key);
  }
  int integer(const char* key) const {
    const json* value = find(key);
    if (!value || value->is_null()) return 0;
    if (!value->is_number_integer()) fail(name(key), "expected an integer, got " + value->dump());
    return value->get<int>();
  }
  unsigned long long unsigned_integer(const char* key) const {
    const json* value = find(key);
    if (!value || value->is_null()) return 0;
    if (!value->is_number_unsigned()) fail(name(key), "expected a whole number, got " + value->dump());
    return value->get<unsigned long long>();
  }
  std::optional<int> nullable_integer(const char* key) const {
    const json* value = find(key);
    if (!value || value->is_null()) return std::nullopt;
    return integer(key);
  }
  bool boolean(const char* key) const {
    const json* value = find(key);
    if (!value || value->is_null()) return false;
    if (!value->is_boolean()) fail(name(key), "expected true or false, got " + value->dump());
    return value->get<bool>();
  }
  std::optional<TimePoint> time(const char* key, bool required = false) const {
    auto text = nullable_string(key);
    if (!text) {
      if (required) fail(name(key), "missing");
      return std::nullopt;
    }
    auto when = parse_timestamp(*text);
    if (!when) fail(name(key), "expected an RFC 3339 time, got \"" + *text + "\"");
    return when;
  }
  const json& array(const char* key) const {
    static const json empty = json::array();
    const json* value = find(key);
    if (!value || value->is_null()) return empty;
    if (!value->is_array()) fail(name(key), "expected an array, got " + value->dump());
    return *value;
  }
  std::string name(const char* key) const { return path_.empty() ? key : path_ + "." + key; }
  [[noreturn]] void fail(const std::string& field, const std::string& message) const {
    throw SourceError({file_, 0, 0}, field + ": " + message);
  }

 private:
  const json& object_;
  std::string path_;
  const std::string& file_;
};

PodRecord pod_from_json(const json& value, const std::string& path, const std::string& file) {
  Fields fields(value, path, file);
  return {fields.object_name("name"), fields.string("node"), fields.nullable_integer("exit_code"),
          fields.time("start"), fields.time("end")};
}

RecoveryRecord recovery_from_json(const json& value, const std::string& path, const std::string& file) {
  Fields fields(value, path, file);
  RecoveryRecord recovery{fields.string("kind", true), fields.string("reason"), fields.time("at"), fields.string("left")};
  if (recovery.kind != "restart" && recovery.kind != "fallback")
    fields.fail(fields.name("kind"), "expected restart or fallback, got \"" + recovery.kind + "\"");
  return recovery;
}

JobRecord job_from_json(const json& value, const std::string& path, const std::string& file) {
  Fields fields(value, path, file);
  JobRecord job;
  job.name = fields.object_name("name", true);
  job.accelerator = fields.nullable_string("accelerator");
  job.gpus = fields.integer("gpus");
  job.machine_type = fields.string("machine_type");
  job.spot = fields.boolean("spot");
  if (fields.find("nodes")) job.nodes = fields.integer("nodes");
  if (const json* parameters = fields.find("parameters"); parameters && !parameters->is_null()) {
    if (!parameters->is_object()) fields.fail(fields.name("parameters"), "expected an object");
    job.parameters = *parameters;
  }
  auto state_text = fields.string("state", true);
  auto state = parse_job_state(state_text);
  if (!state)
    fields.fail(fields.name("state"), "expected pending, running, succeeded, failed or stopped, got \"" +
                                          state_text + "\"");
  job.state = *state;
  job.reason = fields.string("reason");
  job.start = fields.time("start");
  job.end = fields.time("end");
  const json& pods = fields.array("pods");
  for (std::size_t i = 0; i < pods.size(); ++i)
    job.pods.push_back(pod_from_json(pods[i], fields.name("pods") + "[" + std::to_string(i) + "]", file));
  job.provisioning = fields.string("provisioning");
  const json& recoveries = fields.array("recoveries");
  for (std::size_t i = 0; i < recoveries.size(); ++i)
    job.recoveries.push_back(
        recovery_from_json(recoveries[i], fields.name("recoveries") + "[" + std::to_string(i) + "]", file));
  return job;
}

}  // namespace

json to_json(const RunRecord& record) {
  json jobs = json::array();
  for (const auto& job : record.jobs) jobs.push_back(job_json(job));
  json out = {{"schema", kRunSchema}, {"run", record.run}, {"project", record.project},
              {"experiment", record.experiment}, {"target", record.target},
              {"context", record.context}, {"namespace", record.namespace_name},
              {"created", format_timestamp(record.created)},
              {"finished", time_or_null(record.finished)}, {"images", record.images}};
  // Only in runs that have them, so that other runs' files stay as they were.
  if (!record.secret_env.empty() || !record.secret_refs.empty())
    out["secrets"] = {{"secret", record.secret}, {"env", record.secret_env}, {"refs", record.secret_refs}};
  if (record.managed) out["managed"] = true;  // only in runs that have it, as secrets
  if (!record.region.empty()) out["region"] = record.region;  // the same
  if (const auto& search = record.search)
    out["search"] = {{"algorithm", search->algorithm},
                     {"objective", search->metric.empty() ? json(nullptr)
                                                          : json{{"metric", search->metric},
                                                                 {"goal", search->minimize ? "minimize" : "maximize"}}},
                     {"stopping", search->stopping}};
  out["jobs"] = std::move(jobs);
  out["runner"] = record.runner ? json{{"pid", record.runner->pid}, {"start_ticks", record.runner->start_ticks}}
                                : json(nullptr);
  return out;
}

namespace {

std::vector<std::string> names_of(const json& list, const std::string& what, const std::string& file) {
  std::vector<std::string> names;
  if (!list.is_array()) throw SourceError({file, 0, 0}, what + ": expected a list of names");
  for (const auto& item : list) {
    if (!item.is_string()) throw SourceError({file, 0, 0}, what + ": expected a list of names");
    names.push_back(item.get<std::string>());
  }
  return names;
}

void read_secrets(const json* secrets, RunRecord& record, const std::string& file) {
  if (!secrets || secrets->is_null()) return;
  Fields fields(*secrets, "secrets", file);
  record.secret = fields.string("secret");
  record.secret_env = names_of(secrets->value("env", json::array()), "secrets.env", file);
  record.secret_refs = names_of(secrets->value("refs", json::array()), "secrets.refs", file);
}

}  // namespace

RunRecord run_from_json(const json& document, const std::string& file) {
  Fields fields(document, "", file);
  auto schema = fields.string("schema", true);
  if (schema != kRunSchema)
    fields.fail("schema", "\"" + schema + "\" is not " + std::string(kRunSchema));
  RunRecord record;
  record.run = fields.object_name("run", true);
  record.project = fields.string("project");
  record.experiment = fields.string("experiment");
  record.target = fields.string("target");
  if (record.target != "cluster" && record.target != "local")
    fields.fail("target", "expected \"cluster\" or \"local\", got \"" + record.target + "\"");
  record.context = fields.string("context");
  record.namespace_name = fields.string("namespace");
  record.region = fields.string("region");
  // Said in report notes: only a region's shape ("europe-west4"), as the project file allows.
  static const std::regex region_shape("[a-z]+-[a-z]+[0-9]+");
  if (!record.region.empty() && !std::regex_match(record.region, region_shape))
    fields.fail("region", "expected a GCE region such as \"europe-west4\"");
  record.created = *fields.time("created", true);
  record.finished = fields.time("finished");
  if (const json* images = fields.find("images"); images && !images->is_null()) {
    Fields image_fields(*images, "images", file);
    for (const auto& [name, reference] : images->items())
      record.images[name] = image_fields.string(name.c_str());
  }
  read_secrets(fields.find("secrets"), record, file);
  record.managed = fields.boolean("managed");
  if (const json* search = fields.find("search"); search && !search->is_null()) {
    Fields search_fields(*search, "search", file);
    SearchRecord read{search_fields.string("algorithm"), "", true, search_fields.string("stopping")};
    if (const json* objective = search_fields.find("objective"); objective && !objective->is_null()) {
      Fields objective_fields(*objective, "search.objective", file);
      read.metric = objective_fields.string("metric");
      read.minimize = objective_fields.string("goal") != "maximize";
    }
    record.search = read;
  }
  const json& jobs = fields.array("jobs");
  for (std::size_t i = 0; i < jobs.size(); ++i)
    record.jobs.push_back(job_from_json(jobs[i], "jobs[" + std::to_string(i) + "]", file));
  if (const json* runner = fields.find("runner"); runner && !runner->is_null()) {
    Fields runner_fields(*runner, "runner", file);
    record.runner = LocalRunner{runner_fields.integer("pid"), runner_fields.unsigned_integer("start_ticks")};
  }
  return record;
}

RunRecord load_run(const std::filesystem::path& run_dir) {
  auto path = run_dir / "run.json";
  const auto read = read_confined_file(run_dir, "run.json", kMaxRecordBytes);
  if (!read) throw system_failure(ENOENT, "cannot read " + path.string());
  const std::string& text = *read;
  json document;
  try {
    document = json::parse(text);
  } catch (const json::parse_error& error) {
    throw json_parse_error(error, text, path.string());
  } catch (const json::out_of_range&) {
    throw SourceError({path.string(), 0, 0}, "a number beyond double range");
  }
  return run_from_json(document, path.string());
}

void save_run(const std::filesystem::path& run_dir, const RunRecord& record) {
  // Owner only: a run record carries the rendered values, which may include secrets.
  write_file_atomically(run_dir / "run.json", to_json(record).dump(2) + "\n", FileAccess::kOwnerOnly);
}

}  // namespace gkebuild::runrecord
