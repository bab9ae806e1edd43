#include "fake_cluster.h"

#include <sstream>

#include "fake_admission.h"
#include "tool/core/kube/api_error.h"

namespace gkebuild::testing {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

constexpr std::chrono::milliseconds kTick{5};  // before a script's first change; the loop's poll

const json& metadata_of(const json& object) {
  static const json kNone = json::object();
  auto found = object.find("metadata");
  return found != object.end() && found->is_object() ? *found : kNone;
}

std::string name_of(const json& object) { return metadata_of(object).value("name", ""); }

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::istringstream in(text);
  for (std::string part; std::getline(in, part, separator);)
    if (!part.empty()) parts.push_back(part);
  return parts;
}

// `k=v`, `k==v`, `k!=v` and `k` (the label exists), comma-separated, all to hold.
bool labels_match(const json& object, const std::string& selector) {
  const json labels = metadata_of(object).value("labels", json::object());
  for (const auto& term : split(selector, ',')) {
    const auto not_equal = term.find("!=");
    const auto equal = term.find('=');
    if (not_equal != std::string::npos) {
      const std::string key = term.substr(0, not_equal);
      if (labels.value(key, "") == term.substr(not_equal + 2)) return false;
    } else if (equal != std::string::npos) {
      const std::string key = term.substr(0, equal);
      const std::string value = term.substr(term[equal + 1] == '=' ? equal + 2 : equal + 1);
      if (!labels.contains(key) || labels[key] != value) return false;
    } else if (!labels.contains(term)) {
      return false;
    }
  }
  return true;
}

// `dotted.path=value`, comma-separated, all to hold.
bool fields_match(const json& object, const std::string& selector) {
  for (const auto& term : split(selector, ',')) {
    const auto equal = term.find('=');
    const json* at = &object;
    for (const auto& step : split(term.substr(0, equal), '.')) {
      if (!at->is_object() || !at->contains(step)) return false;
      at = &(*at)[step];
    }
    if (!at->is_string() || at->get<std::string>() != term.substr(equal + 1)) return false;
  }
  return true;
}

bool selected(const json& object, const kube::ListOptions& options) {
  return labels_match(object, options.label_selector) && fields_match(object, options.field_selector);
}

}  // namespace

struct FakeCluster::Watcher {
  std::string kind;
  std::string namespace_name;  // "": every namespace
  kube::WatchOptions options;
  std::function<bool(const kube::WatchEvent&)> on_event;
  kube::WatchCompletion done;
  std::map<std::string, std::string> versions;  // namespace/name -> the version it was told of
  kube::WatchStats stats;
  bool ended = false;

  bool wants(const std::string& object_kind, const json& object) const {
    const std::string ns = metadata_of(object).value("namespace", "");
    return object_kind == kind && (namespace_name.empty() || ns == namespace_name) &&
           selected(object, options.selectors);
  }
  void end(std::exception_ptr error) {
    if (ended) return;
    ended = true;
    done(stats, error);
  }
};

FakeCluster::FakeCluster(std::string namespace_name)
    : namespace_(std::move(namespace_name)), thread_([this] { loop(); }) {
  for (const auto& name : {std::string("default"), std::string("kube-system"), std::string("kube-public"),
                           std::string("kube-node-lease"), namespace_})
    store({{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", name}}}});
}

FakeCluster::~FakeCluster() {
  {
    std::lock_guard lock(loop_mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void FakeCluster::put(json object) { make({std::move(object)}); }

void FakeCluster::put(json object, const std::string& manager) {
  const json& metadata = metadata_of(object);
  const Key key{object.value("kind", ""), metadata.value("namespace", ""), metadata.value("name", "")};
  {
    std::lock_guard lock(mutex_);
    managers_[key].own_all(manager, object);
  }
  put(std::move(object));
}

void FakeCluster::play(std::vector<Change> changes) {
  std::chrono::milliseconds delay = kTick;
  for (auto& change : changes) {
    const auto lasts = change.lasts;
    after(delay, [this, change = std::move(change)] { make(change); });
    delay += lasts;
  }
}

void FakeCluster::script(std::string match, Script script) {
  std::lock_guard lock(mutex_);
  scripts_.emplace_back(std::move(match), std::move(script));
}

void FakeCluster::set_log(const std::string& pod, std::vector<std::string> lines) {
  std::lock_guard lock(mutex_);
  logs_[pod] = std::move(lines);
}

void FakeCluster::refuse(const std::string& what, int status, const std::string& message) {
  std::lock_guard lock(mutex_);
  refusals_[what] = {status, message};
}

std::optional<json> FakeCluster::object(const std::string& kind, const std::string& namespace_name,
                                        const std::string& name) const {
  std::lock_guard lock(mutex_);
  auto found = objects_.find({kind, namespace_name, name});
  return found == objects_.end() ? std::nullopt : std::optional<json>(found->second);
}

std::vector<json> FakeCluster::objects(const std::string& kind) const {
  std::lock_guard lock(mutex_);
  std::vector<json> found;
  for (const auto& [key, object] : objects_)
    if (std::get<0>(key) == kind) found.push_back(object);
  return found;
}

std::vector<std::string> FakeCluster::calls() const {
  std::lock_guard lock(mutex_);
  return calls_;
}

int FakeCluster::count_calls(const std::string& prefix) const {
  int count = 0;
  for (const auto& call : calls()) count += call.starts_with(prefix);
  return count;
}

void FakeCluster::called(const std::string& what, const std::string& action) {
  std::lock_guard lock(mutex_);
  calls_.push_back(action);
  if (auto refusal = refusals_.find(what); refusal != refusals_.end())
    throw kube::ApiError(action, refusal->second.first,
                         json{{"kind", "Status"}, {"status", "Failure"}, {"message", refusal->second.second}}.dump());
}

json FakeCluster::store(json object) {
  const std::string kind = object.value("kind", "");
  json& metadata = object["metadata"];
  const Key key{kind, metadata.value("namespace", ""), metadata.value("name", "")};
  std::lock_guard lock(mutex_);
  auto known = objects_.find(key);
  metadata["uid"] = known != objects_.end() ? known->second["metadata"].value("uid", "")
                                            : "uid-" + std::to_string(version_ + 1);
  metadata["resourceVersion"] = std::to_string(++version_);
  objects_[key] = object;
  return object;
}

bool FakeCluster::namespace_exists(const std::string& name) const {
  return object("Namespace", "", name).has_value();
}

void FakeCluster::erase(const Key& key) {
  json gone;
  {
    std::lock_guard lock(mutex_);
    managers_.erase(key);
    auto found = objects_.find(key);
    if (found == objects_.end()) return;
    gone = std::move(found->second);
    objects_.erase(found);
  }
  after(std::chrono::milliseconds(0), [this, gone = std::move(gone)] { notify("DELETED", gone); });
}

void FakeCluster::make(const Change& change) {
  if (change.deleted) {
    const json& metadata = metadata_of(change.object);
    return erase({change.object.value("kind", ""), metadata.value("namespace", ""), metadata.value("name", "")});
  }
  json stored = store(change.object);
  after(std::chrono::milliseconds(0), [this, stored = std::move(stored)] { notify("MODIFIED", stored); });
}

json FakeCluster::apply(const json& object, const kube::ApplyOptions& options) {
  const kube::ResourceType& type = kube::resource_type_of(object);
  json body = object;
  if (type.namespaced) body["metadata"]["namespace"] = kube::namespace_for(namespace_, type, object);
  const std::string ns = body["metadata"].value("namespace", "");
  const std::string action = "apply " + kube::describe_object(type, ns, name_of(body));
  called("apply " + std::string(type.kind), action + (options.dry_run ? " (dry run)" : ""));
  admit(body, type, action, [this](const std::string& name) { return namespace_exists(name); });
  const Key key{std::string(type.kind), ns, name_of(body)};
  const auto stored = this->object(std::get<0>(key), ns, std::get<2>(key));
  json applied;
  {
    std::lock_guard lock(mutex_);
    applied = managers_[key].apply(stored, body, options.field_manager, options.force, action, !options.dry_run);
  }
  if (options.dry_run) return applied;
  applied = store(std::move(applied));
  after(std::chrono::milliseconds(0), [this, applied] { notify("MODIFIED", applied); });
  return applied;
}

json FakeCluster::create_object(json object, const std::string& action, bool dry_run) {
  const kube::ResourceType& type = kube::resource_type_of(object);
  if (type.namespaced) object["metadata"]["namespace"] = kube::namespace_for(namespace_, type, object);
  const std::string ns = object["metadata"].value("namespace", "");
  called("create " + std::string(type.kind), action + (dry_run ? " (dry run)" : ""));
  if (this->object(std::string(type.kind), ns, name_of(object)))
    throw kube::ApiError(action, 409, json{{"kind", "Status"}, {"reason", "AlreadyExists"}}.dump());
  admit(object, type, action, [this](const std::string& name) { return namespace_exists(name); });
  if (dry_run) return object;
  {
    std::lock_guard lock(mutex_);
    managers_[{std::string(type.kind), ns, name_of(object)}].own_all(kube::kFieldManager, object);
  }
  json stored = store(std::move(object));
  after(std::chrono::milliseconds(0), [this, stored] { notify("ADDED", stored); });
  if (type.kind == "Job") run_script(stored);
  return stored;
}

json FakeCluster::create(const json& object, bool dry_run) {
  const kube::ResourceType& type = kube::resource_type_of(object);
  return create_object(object, "create " + kube::describe_object(type, kube::namespace_for(namespace_, type, object),
                                                                  name_of(object)),
                       dry_run);
}

void FakeCluster::send_create(const kube::PreparedCreate& create, std::string* uid) {
  const json stored = create_object(json::parse(create.body), create.action, false);
  if (uid) *uid = stored["metadata"].value("uid", "");
}

void FakeCluster::run_script(const json& job) {
  Script script;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [match, candidate] : scripts_)
      if (name_of(job).find(match) != std::string::npos) {
        script = candidate;
        break;
      }
  }
  if (script) play(script(job));
}

std::optional<json> FakeCluster::get(const kube::ResourceType& type, const std::string& namespace_name,
                                     const std::string& name) {
  called("get " + std::string(type.kind), "get " + kube::describe_object(type, namespace_name, name));
  return object(std::string(type.kind), namespace_name, name);
}

json FakeCluster::list(const kube::ResourceType& type, const std::string& namespace_name,
                       const kube::ListOptions& options) {
  called("list " + std::string(type.kind), "list " + std::string(type.kind) + " " + namespace_name);
  json items = json::array();
  std::lock_guard lock(mutex_);
  for (const auto& [key, object] : objects_)
    if (std::get<0>(key) == type.kind && (namespace_name.empty() || std::get<1>(key) == namespace_name) &&
        selected(object, options))
      items.push_back(object);
  return {{"items", std::move(items)}, {"metadata", {{"resourceVersion", std::to_string(version_)}}}};
}

bool FakeCluster::remove(const kube::ResourceType& type, const std::string& namespace_name, const std::string& name,
                         kube::Propagation) {
  called("delete " + std::string(type.kind), "delete " + kube::describe_object(type, namespace_name, name));
  if (!object(std::string(type.kind), namespace_name, name)) return false;
  erase({std::string(type.kind), namespace_name, name});
  return true;
}

void FakeCluster::start_watch(const kube::ResourceType& type, const std::string& namespace_name,
                              const kube::WatchOptions& options, std::function<bool(const kube::WatchEvent&)> on_event,
                              kube::WatchCompletion done) {
  auto watcher = std::make_shared<Watcher>(
      Watcher{std::string(type.kind), namespace_name, options, std::move(on_event), std::move(done)});
  std::exception_ptr refused;
  try {
    called("watch " + std::string(type.kind), "watch " + std::string(type.kind) + " " + namespace_name);
  } catch (...) {
    refused = std::current_exception();
  }
  after(std::chrono::milliseconds(0), [this, watcher, refused] {
    if (refused) return watcher->end(refused);
    // The list first, then every change (what changed in between is told twice; versions
    // filter the repeats, as a list-then-watch from the list's resourceVersion would).
    ++watcher->stats.lists;
    std::vector<json> now;
    {
      std::lock_guard lock(mutex_);
      for (const auto& [key, object] : objects_)
        if (watcher->wants(std::get<0>(key), object)) now.push_back(object);
    }
    for (const auto& object : now) {
      deliver(*watcher, "ADDED", object);
      if (watcher->ended) return;
    }
    if (watcher->options.listed) *watcher->options.listed = true;
    ++watcher->stats.watches;
    watchers_.push_back(watcher);
  });
}

void FakeCluster::deliver(Watcher& watcher, const std::string& type, const json& object) {
  const json& metadata = metadata_of(object);
  const std::string key = metadata.value("namespace", "") + "/" + metadata.value("name", "");
  const std::string version = metadata.value("resourceVersion", "");
  auto known = watcher.versions.find(key);
  std::string told = type;
  if (type == "DELETED") {
    if (known == watcher.versions.end()) return;
    watcher.versions.erase(known);
  } else if (known == watcher.versions.end()) {
    told = "ADDED";
    watcher.versions[key] = version;
  } else {
    if (std::stol(known->second) >= std::stol(version)) return;  // told already
    told = "MODIFIED";
    known->second = version;
  }
  if (!watcher.on_event(kube::WatchEvent{told, object})) watcher.end(nullptr);
}

void FakeCluster::notify(const std::string& type, const json& object) {
  const std::string kind = object.value("kind", "");
  for (auto it = watchers_.begin(); it != watchers_.end();) {
    Watcher& watcher = **it;
    if (!watcher.ended && watcher.wants(kind, object)) deliver(watcher, type, object);
    it = watcher.ended ? watchers_.erase(it) : std::next(it);
  }
}

void FakeCluster::end_cancelled_watchers() {
  for (auto it = watchers_.begin(); it != watchers_.end();) {
    Watcher& watcher = **it;
    if (watcher.options.cancel && watcher.options.cancel->load()) watcher.end(nullptr);
    it = watcher.ended ? watchers_.erase(it) : std::next(it);
  }
}

void FakeCluster::start_follow_logs(const std::string& namespace_name, const std::string& pod,
                                    const kube::LogOptions&, std::function<bool(std::string_view line)> on_line,
                                    kube::LogCompletion done) {
  std::exception_ptr refused;
  try {
    called("logs Pod", "logs " + namespace_name + "/" + pod);
  } catch (...) {
    refused = std::current_exception();
  }
  std::vector<std::string> lines;
  {
    std::lock_guard lock(mutex_);
    if (auto found = logs_.find(pod); found != logs_.end()) lines = found->second;
  }
  after(std::chrono::milliseconds(0), [lines = std::move(lines), on_line = std::move(on_line),
                                       done = std::move(done), refused] {
    kube::LogStats stats;
    stats.requests = 1;
    if (refused) return done(stats, refused);
    for (const auto& line : lines)
      if (!on_line(line)) break;
    done(stats, nullptr);
  });
}

void FakeCluster::after(std::chrono::milliseconds delay, std::function<void()> task) {
  {
    std::lock_guard lock(loop_mutex_);
    tasks_[{Clock::now() + delay, task_number_++}] = std::move(task);
  }
  wake_.notify_all();
}

void FakeCluster::loop() {
  std::unique_lock lock(loop_mutex_);
  while (!stopping_) {
    if (!tasks_.empty() && tasks_.begin()->first.first <= Clock::now()) {
      auto task = std::move(tasks_.begin()->second);
      tasks_.erase(tasks_.begin());
      lock.unlock();
      task();
      lock.lock();
      continue;
    }
    lock.unlock();
    end_cancelled_watchers();  // a cancelled watch ends within a tick, as a real one within a second
    lock.lock();
    const auto poll = Clock::now() + kTick;
    const auto wake_at = tasks_.empty() ? poll : std::min(tasks_.begin()->first.first, poll);
    wake_.wait_until(lock, wake_at);
  }
}

kube::ConnectCluster connect_to(std::shared_ptr<FakeCluster> cluster) {
  return [cluster](const kube::ClusterAccess&) -> std::shared_ptr<kube::ClusterApi> { return cluster; };
}

json pod_of(const json& job, const std::string& suffix, const std::string& phase, int index) {
  const json& job_metadata = metadata_of(job);
  const std::string job_name = job_metadata.value("name", "");
  json labels = job.value("spec", json::object())
                    .value("template", json::object())
                    .value("metadata", json::object())
                    .value("labels", json::object());
  labels["batch.kubernetes.io/job-name"] = job_name;
  labels["job-name"] = job_name;
  json pod = {{"apiVersion", "v1"},
              {"kind", "Pod"},
              {"metadata",
               {{"name", job_name + (index >= 0 ? "-" + std::to_string(index) : "") + "-" + suffix},
                {"namespace", job_metadata.value("namespace", "")},
                {"labels", labels}}},
              {"spec", json::object()},
              {"status", {{"phase", phase}}}};
  if (index >= 0)
    pod["metadata"]["annotations"] = {{"batch.kubernetes.io/job-completion-index", std::to_string(index)}};
  return pod;
}

json unschedulable(json pod, const std::string& message) {
  pod["status"]["conditions"] = {
      {{"type", "PodScheduled"}, {"status", "False"}, {"reason", "Unschedulable"}, {"message", message}}};
  return pod;
}

json running(json pod, const std::string& node) {
  pod["spec"]["nodeName"] = node;
  pod["status"]["phase"] = "Running";
  pod["status"]["conditions"] = {{{"type", "PodScheduled"}, {"status", "True"}}};
  pod["status"]["containerStatuses"] = {
      {{"name", "main"}, {"state", {{"running", {{"startedAt", "2026-01-01T00:00:01Z"}}}}}}};
  return pod;
}

json terminated(json pod, int exit_code, const std::string& reason, const std::string& message) {
  pod["status"]["phase"] = exit_code == 0 ? "Succeeded" : "Failed";
  json state = {{"exitCode", exit_code},
                {"reason", reason.empty() ? (exit_code == 0 ? "Completed" : "Error") : reason},
                {"startedAt", "2026-01-01T00:00:01Z"},
                {"finishedAt", "2026-01-01T00:00:09Z"}};
  if (!message.empty()) state["message"] = message;
  pod["status"]["containerStatuses"] = {{{"name", "main"}, {"state", {{"terminated", state}}}}};
  return pod;
}

json with_status(json job, json status) {
  job["status"] = std::move(status);
  return job;
}

json finished(json job, bool succeeded, const std::string& reason) {
  json condition = {{"type", succeeded ? "Complete" : "Failed"},
                    {"status", "True"},
                    {"lastTransitionTime", "2026-01-01T00:00:10Z"}};
  if (!reason.empty()) condition["reason"] = reason;
  json status = {{"startTime", "2026-01-01T00:00:00Z"}, {"conditions", {condition}}};
  status[succeeded ? "succeeded" : "failed"] = 1;
  if (succeeded) status["completionTime"] = "2026-01-01T00:00:10Z";
  return with_status(std::move(job), std::move(status));
}

json pod_event(const json& pod, const std::string& reason, const std::string& message, const std::string& time) {
  const std::string name = metadata_of(pod).value("name", "");
  const std::string ns = metadata_of(pod).value("namespace", "");
  return {{"apiVersion", "v1"},
          {"kind", "Event"},
          {"metadata", {{"name", name + "." + reason}, {"namespace", ns}}},
          {"involvedObject", {{"kind", "Pod"}, {"name", name}, {"namespace", ns}}},
          {"type", reason == "FailedScheduling" ? "Warning" : "Normal"},
          {"reason", reason},
          {"message", message},
          {"lastTimestamp", time}};
}

}  // namespace gkebuild::testing
