#include "validate/validator.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>

#include "validate/builtin_groups.h"
#include "validate/gpu_checks.h"
#include "validate/rules.h"
#include "validate/schema_check.h"
#include "validate/schema_store.h"

namespace gkebuild::validate {
namespace fs = std::filesystem;

std::vector<std::string> expand_inputs(const std::vector<std::string>& inputs) {
  std::vector<std::string> files;
  for (const auto& input : inputs) {
    std::error_code ec;
    if (input == "-" || !fs::is_directory(input, ec)) {
      if (input != "-" && !fs::exists(input, ec)) throw std::runtime_error(input + ": no such file or directory");
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
    if (ec) throw std::runtime_error(input + ": " + ec.message());
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

namespace {

std::string read_input(const std::string& name, std::istream& standard_input, std::size_t max_bytes) {
  std::istream* in = &standard_input;
  std::ifstream file;
  if (name != "-") {
    file.open(name, std::ios::binary);
    if (!file) throw std::runtime_error(name + ": cannot open for reading");
    in = &file;
  }
  // Reads one byte past the limit, so the loader can say the file is too large
  // without this process holding all of a huge file.
  std::string text;
  char buffer[1 << 16];
  while (text.size() <= max_bytes && in->read(buffer, sizeof buffer).gcount() > 0)
    text.append(buffer, static_cast<std::size_t>(in->gcount()));
  return text;
}

// kubeconform's -skip: "Pod" skips every Pod, "v1/Pod" only that version's.
bool is_skipped_kind(const std::vector<std::string>& skip, const Manifest& m) {
  return std::any_of(skip.begin(), skip.end(), [&](const std::string& entry) {
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

  void check(const Manifest& m) {
    ++report_.resources;
    size_t before = report_.findings.size();
    check_object(m);
    for (size_t i = before; i < report_.findings.size(); ++i)
      if (report_.findings[i].severity == Severity::kError) {
        ++report_.invalid;
        break;
      }
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
    if (string_field(m.value, "apiVersion") == "gkebuild/v1" && !has_key(m.value, "kind")) {
      // gkebuild.yaml: not a Kubernetes object (skipped, as other YAML), but a file whose env:
      // values end up in Jobs.
      check_project_credentials(r);
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
    if (is_skipped_kind(options_.skip_kinds, m)) {
      ++report_.skipped;
      return;
    }
    bool removed = check_api_version(r, locator_.version());
    if (!removed) check_schema(m, r);
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

}  // namespace

ValidateReport run_validation(const ValidateOptions& options, std::istream& standard_input) {
  SchemaLocator locator({options.schema_locations, options.kubernetes_version, options.strict, options.cache_dir});
  if (options.schema_locations.empty() && !locator.has_bundled_schemas() &&
      !options.disabled_rules.count("schema"))
    throw std::runtime_error(
        "no Kubernetes JSON schemas found: install them with `pip install kubernetes-validate`, pass "
        "--schema-location DIR|URL-TEMPLATE, or turn schema checks off with --disable schema");
  SchemaStore store(locator, options.cache_dir);
  ValidateReport report;
  report.kubernetes_version = locator.version();
  ObjectChecker checker(options, store, locator, report);
  for (const auto& input : expand_inputs(options.inputs)) {
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
    for (const auto& manifest : loaded.manifests) checker.check(manifest);
  }
  return report;
}

}  // namespace gkebuild::validate
