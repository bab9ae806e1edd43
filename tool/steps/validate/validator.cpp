#include "tool/steps/validate/validator.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <regex>
#include <thread>
#include <iterator>
#include <sstream>
#include <stdexcept>

#include "base/error.h"
#include "base/input_file.h"
#include "base/parallel.h"
#include "base/printable.h"
#include "tool/steps/validate/builtin_groups.h"
#include "tool/steps/validate/gpu_checks.h"
#include "tool/steps/validate/embedded_schemas.h"
#include "tool/steps/validate/project_file_check.h"
#include "tool/steps/validate/rules.h"
#include "tool/steps/validate/schema_check.h"
#include "tool/steps/validate/schema_store.h"

namespace gkebuild::validate {
namespace fs = std::filesystem;

std::vector<std::string> expand_inputs(const std::vector<std::string>& inputs) {
  std::vector<std::string> files;
  for (const auto& input : inputs) {
    std::error_code ec;
    if (input == "-" || !fs::is_directory(input, ec)) {
      if (input != "-" && !fs::exists(input, ec)) throw Error(ErrorKind::kBadInput, input + ": no such file or directory");
      files.push_back(input);
      continue;
    }
    std::vector<std::string> found;
    for (auto it = fs::recursive_directory_iterator(input, fs::directory_options::skip_permission_denied, ec);
         it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (ec) break;
      auto ext = it->path().extension().string();
      if (it->is_regular_file(ec) && (ext == ".yaml" || ext == ".yml" || ext == ".json"))
        found.push_back(it->path().string());
    }
    if (ec) throw Error(ErrorKind::kBadInput, input + ": " + ec.message());
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

namespace {

std::string read_input(const std::string& name, std::istream& standard_input, std::size_t max_bytes) {
  // Reads one byte past the limit, so the loader can say the file is too large
  // without this process holding all of a huge file.
  if (name != "-") {
    // A named input only as a regular file: a FIFO would stop validate for ever (stdin is `-`).
    std::string refusal;
    const int fd = open_input_file(name, refusal);
    if (fd < 0 && !refusal.empty()) throw Error(ErrorKind::kBadInput, printable(name) + ": " + refusal);
    if (fd < 0) throw Error(ErrorKind::kBadInput, printable(name) + ": cannot open for reading");
    auto text = read_all(fd, max_bytes);
    if (!text) throw Error(ErrorKind::kFailed, printable(name) + ": cannot read: " + std::strerror(errno));
    return std::move(*text);
  }
  std::string text;
  char buffer[1 << 16];
  while (text.size() <= max_bytes && standard_input.read(buffer, sizeof buffer).gcount() > 0)
    text.append(buffer, static_cast<std::size_t>(standard_input.gcount()));
  return text;
}

// kubeconform's -skip and -reject: "Pod" names every Pod, "v1/Pod" only that version's.
bool is_named_kind(const std::vector<std::string>& kinds, const Manifest& m) {
  return std::any_of(kinds.begin(), kinds.end(), [&](const std::string& entry) {
    return entry == m.kind() || entry == m.api_version() + "/" + m.kind();
  });
}

// Whether `key` is present in the object at all (with any value, null included).
bool has_key(const nlohmann::json& object, const char* key) { return object.contains(key); }

class ObjectChecker {
 public:
  ObjectChecker(const ValidateOptions& options, SchemaStore& store, const SchemaLocator& locator,
                ValidateReport& report)
      : options_(options), store_(store), locator_(locator), report_(report) {}

  // gkebuild.yaml is checked as a project file, not as an object; its env: values still end
  // up in Jobs, so a literal credential there warns at its line.
  void check_project_credentials_of(const Manifest& m) {
    RuleReporter r(m, options_.disabled_rules, report_.findings);
    check_project_credentials(r);
  }

  void check(const Manifest& m) {
    ++report_.resources;
    size_t before = report_.findings.size();
    check_object(m);
    for (size_t i = before; i < report_.findings.size(); ++i)
      if (report_.findings[i].severity == Severity::kError) {
        ++report_.invalid;
        return;
      }
    report_.valid.push_back(m.file + ":" + std::to_string(m.position({}).line) + ": " + m.kind() + " " + m.name());
  }

 private:
  void check_object(const Manifest& m) {
    RuleReporter r(m, options_.disabled_rules, report_.findings);
    if (!m.value.is_object()) {
      r.report("manifest", {}, "document is a " + std::string(m.value.type_name()) + ", not a Kubernetes object; skipped",
               false, Severity::kInfo);
      ++report_.skipped;
      return;
    }
    if (!has_key(m.value, "apiVersion") && !has_key(m.value, "kind")) {
      // Other YAML in the same repository (CI configs, values files) is not ours to judge.
      // kubeconform fails these ("missing 'kind' key"); a pre-commit hook run on every
      // *.yaml cannot afford to.
      r.report("manifest", {}, "not a Kubernetes object (no apiVersion or kind); skipped", false, Severity::kInfo);
      ++report_.skipped;
      return;
    }
    // One of the two is there, so the document means to be an object: as kubeconform and
    // kubernetes-validate, a missing or empty apiVersion or kind fails it.
    for (const char* key : {"apiVersion", "kind"}) {
      if (!string_field(m.value, key).empty()) continue;
      bool present = has_key(m.value, key);
      r.report("manifest", present ? Path{key} : Path{},
               present ? std::string(key) + " is empty or not a string" : std::string("object has no ") + key, present);
    }
    if (m.api_version().empty() || m.kind().empty()) return;
    if (is_named_kind(options_.reject_kinds, m)) {
      r.report("rejected-kind", {"kind"}, m.api_version() + "/" + m.kind() + " is rejected here (--reject)", true);
      return;
    }
    if (is_named_kind(options_.skip_kinds, m)) {
      ++report_.skipped;
      return;
    }
    bool removed = check_api_version(r, locator_.version());
    if (!removed) check_schema(m, r);
    check_object_name(r);
    check_gpu_rules(r);
  }

  void check_schema(const Manifest& m, RuleReporter& r) {
    if (!r.enabled("schema")) return;
    const CompiledSchema* schema = store_.find(m.api_version(), m.kind());
    if (!schema) {
      report_unknown_kind(m, r);
      return;
    }
    for (const auto& issue : check_against_schema(*schema, m.value))
      r.report("schema", issue.path, issue.message, issue.at_key);
  }

  void report_unknown_kind(const Manifest& m, RuleReporter& r) {
    std::string what = m.kind() + " " + m.api_version();
    std::string version = locator_.version().to_string();
    bool builtin = is_builtin_api_group(m.api_version());
    std::string message = builtin ? "no schema for " + what + " in Kubernetes " + version +
                                        " (misspelt kind or apiVersion?); searched " + locator_.searched()
                                  : "no schema for " + what + " (a custom resource?); skipped";
    // A built-in group without the kind is a typo, not a custom resource.
    bool error = options_.strict_kinds || (builtin && !options_.ignore_missing_schemas);
    r.report("unknown-kind", {"kind"}, message, false, error ? Severity::kError : Severity::kInfo);
    if (!error) ++report_.skipped;
  }

  const ValidateOptions& options_;
  SchemaStore& store_;
  const SchemaLocator& locator_;
  ValidateReport& report_;
};

// "1.33, 1.34, 1.35, 1.36 and 1.37".
std::string embedded_versions_text() {
  std::string text;
  const auto versions = embedded_schema_versions();
  for (std::size_t i = 0; i < versions.size(); ++i)
    text += (i == 0 ? "" : i + 1 == versions.size() ? " and " : ", ") + std::to_string(versions[i].major) + "." +
            std::to_string(versions[i].minor);
  return text.empty() ? std::string("none") : text;
}

}  // namespace

namespace {

// One file's part of the report: its YAML, then each object (a project file as a whole).
ValidateReport validate_file(const std::string& input, const ValidateOptions& options, SchemaStore& store,
                             const SchemaLocator& locator, std::istream& standard_input) {
  ValidateReport report;
  ObjectChecker checker(options, store, locator, report);
  ++report.files;
  std::string name = input == "-" ? "<stdin>" : input;
  report.file_names.push_back(name);
  std::string text = read_input(input, standard_input, options.limits.max_bytes);
  LoadResult loaded = load_manifests(text, name, options.limits);
  if (std::any_of(loaded.findings.begin(), loaded.findings.end(),
                  [](const Finding& f) { return f.rule == "yaml-syntax" || f.rule == "yaml-limits"; }))
    ++report.errors;
  for (auto& finding : loaded.findings)
    if (!options.disabled_rules.count(finding.rule)) report.findings.push_back(std::move(finding));
  bool project_checked = false;
  for (const auto& manifest : loaded.manifests) {
    if (string_field(manifest.value, "apiVersion") != kProjectApiVersion) {
      checker.check(manifest);
      continue;
    }
    ++report.resources;
    checker.check_project_credentials_of(manifest);
    if (project_checked || options.disabled_rules.count("project-file")) continue;
    project_checked = true;  // the loader reads the whole file
    auto findings = check_project_file(text, name, options.project_check);
    if (findings.empty()) report.valid.push_back(name + ":1: gkebuild project " + string_field(manifest.value, "project"));
    else ++report.invalid;
    for (auto& finding : findings) report.findings.push_back(std::move(finding));
  }
  return report;
}

void merge(ValidateReport& into, ValidateReport&& part) {
  std::move(part.findings.begin(), part.findings.end(), std::back_inserter(into.findings));
  std::move(part.file_names.begin(), part.file_names.end(), std::back_inserter(into.file_names));
  std::move(part.valid.begin(), part.valid.end(), std::back_inserter(into.valid));
  into.files += part.files;
  into.resources += part.resources;
  into.skipped += part.skipped;
  into.invalid += part.invalid;
  into.errors += part.errors;
}

bool has_error(const ValidateReport& report) {
  return report.errors > 0 ||
         std::any_of(report.findings.begin(), report.findings.end(),
                     [](const Finding& f) { return f.severity == Severity::kError; });
}

std::vector<std::string> files_to_read(const ValidateOptions& options) {
  std::vector<std::regex> ignored;
  for (const auto& pattern : options.ignore_filename_patterns) {
    try {
      ignored.emplace_back(pattern, std::regex::ECMAScript);
    } catch (const std::regex_error& error) {
      throw Error(ErrorKind::kBadInput, "--ignore-filename-pattern '" + pattern + "' is no regular expression: " + error.what());
    }
  }
  std::vector<std::string> files;
  for (auto& file : expand_inputs(options.inputs))
    if (file == "-" || std::none_of(ignored.begin(), ignored.end(),
                                    [&](const std::regex& re) { return std::regex_search(file, re); }))
      files.push_back(std::move(file));
  return files;
}

}  // namespace

ValidateReport run_validation(const ValidateOptions& options, std::istream& standard_input) {
  SchemaLocator locator({options.schema_locations, options.kubernetes_version, options.strict, options.cache_dir});
  if (options.schema_locations.empty() && !locator.has_bundled_schemas() &&
      !options.disabled_rules.count("schema"))
    throw Error(ErrorKind::kBadInput, 
        "no Kubernetes JSON schemas of " + locator.version().to_string() + " found: gkebuild carries " +
        embedded_versions_text() + "; for other versions install `pip install kubernetes-validate`, pass "
        "--schema-location DIR|URL-TEMPLATE, or turn schema checks off with --disable schema");
  const auto files = files_to_read(options);
  // Each worker thread compiles its own schemas (a SchemaStore is not shared); parts are
  // merged in file order, so the report does not depend on thread timing.
  std::vector<std::optional<ValidateReport>> parts(files.size());
  std::mutex stores_mutex;
  std::map<std::thread::id, std::unique_ptr<SchemaStore>> stores;
  std::atomic<bool> stop{false};
  const int workers = std::max(1, std::min<int>(options.workers, static_cast<int>(files.size())));
  run_parallel(files.size(), workers, [&](std::size_t i) {
    if (options.exit_on_error && stop.load()) return;
    SchemaStore* store;
    {
      std::lock_guard lock(stores_mutex);
      auto& slot = stores[std::this_thread::get_id()];
      if (!slot) slot = std::make_unique<SchemaStore>(locator, options.cache_dir);
      store = slot.get();
    }
    parts[i] = validate_file(files[i], options, *store, locator, standard_input);
    if (options.exit_on_error && has_error(*parts[i])) stop = true;
  });
  ValidateReport report;
  report.kubernetes_version = locator.version();
  for (auto& part : parts) {
    if (!part) break;  // after an error under --exit-on-error
    const bool failed = has_error(*part);
    merge(report, std::move(*part));
    if (options.exit_on_error && failed) break;
  }
  return report;
}

}  // namespace gkebuild::validate
