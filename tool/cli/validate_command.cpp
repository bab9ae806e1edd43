// `gkebuild validate`: checks Kubernetes manifests (files, folders, "-" for stdin)
// against the Kubernetes JSON schemas and the GPU and batch rules; see tool/steps/validate.
#include <unistd.h>

#include <cstdlib>
#include <iostream>

#include "tool/cli/command.h"
#include "base/exit_codes.h"
#include "base/printable.h"
#include "base/suggest.h"
#include "tool/cli/output_flags.h"
#include "tool/cli/verbosity_flags.h"
#include "tool/steps/render/variable_check.h"
#include "tool/steps/validate/package_schemas.h"
#include "tool/steps/validate/report_format.h"
#include "tool/steps/validate/rules.h"
#include "tool/steps/validate/validator.h"

namespace gkebuild::cli {
namespace {

struct ValidateFlags {
  std::vector<std::string> inputs;
  std::vector<std::string> schema_locations;
  std::vector<std::string> disabled;
  std::vector<std::string> skip;
  std::vector<std::string> reject;
  std::vector<std::string> ignore_filename_patterns;
  int workers = 1;
  bool exit_on_error = false;
  bool verbose = false;
  std::string kubernetes_version;
  OutputFlags output;  // format empty: text, or github under GitHub Actions
  std::string fail_on = "error";
  bool strict_kinds = false;
  bool ignore_missing_schemas = false;
  bool strict = false;  // kubeconform's -strict: gkebuild's default, accepted for CI scripts
  bool allow_unknown_fields = false;
  bool summary = false;
  bool list_rules = false;
};

int list_rules() {
  for (const auto& rule : validate::all_rules())
    std::cout << rule.id << " (" << validate::to_string(rule.severity) << "): " << rule.summary
              << "\n    fix: " << rule.fix << "\n    example"
              << (rule.example_flags.empty() ? "" : " (" + std::string(rule.example_flags) + ")") << ": "
              << rule.example << "\n";
  return kExitSuccess;
}

validate::OutputFormat choose_format(const std::string& output) {
  if (!output.empty()) return *validate::parse_output_format(output);
  const char* actions = std::getenv("GITHUB_ACTIONS");
  return actions && std::string_view(actions) == "true" ? validate::OutputFormat::kGithub
                                                        : validate::OutputFormat::kText;
}

int run(const ValidateFlags& flags) {
  if (flags.list_rules) return list_rules();
  validate::ValidateOptions options;
  options.inputs = flags.inputs.empty() ? std::vector<std::string>{"-"} : flags.inputs;
  options.schema_locations = flags.schema_locations;
  for (const auto& location : flags.schema_locations) {
    if (auto bad = validate::unknown_template_variable(location); !bad.empty()) {
      std::cerr << "gkebuild validate: --schema-location '" << location << "': unknown template variable " << bad
                << " (known: .NormalizedKubernetesVersion .StrictSuffix .ResourceKind .ResourceAPIVersion .Group "
                   ".KindSuffix)\n";
      return kExitUsage;
    }
  }
  options.strict = !flags.allow_unknown_fields;
  options.strict_kinds = flags.strict_kinds;
  options.ignore_missing_schemas = flags.ignore_missing_schemas;
  options.skip_kinds = flags.skip;
  options.reject_kinds = flags.reject;
  options.ignore_filename_patterns = flags.ignore_filename_patterns;
  options.workers = flags.workers;
  options.exit_on_error = flags.exit_on_error;
  options.cache_dir = validate::default_cache_dir();
  options.project_check = render::check_project_sweep_axes;  // what render refuses, a hook refuses too
  for (const auto& rule : flags.disabled) {
    if (!validate::find_rule(rule)) {
      std::cerr << "gkebuild validate: --disable: unknown rule '" << printable(rule) << "'"
                << did_you_mean(rule, validate::rule_ids()) << " (see --list-rules)\n";
      return kExitUsage;
    }
    options.disabled_rules.insert(rule);
  }
  if (!flags.kubernetes_version.empty()) {
    validate::KubernetesVersion version;
    if (!validate::parse_kubernetes_version(flags.kubernetes_version, version)) {
      std::cerr << "gkebuild validate: --kubernetes-version '" << flags.kubernetes_version
                << "' is not a version like 1.37 or v1.37.0\n";
      return kExitUsage;
    }
    options.kubernetes_version = version;
  }
  auto threshold = validate::parse_severity(flags.fail_on);
  auto report = validate::run_validation(options, std::cin);
  auto format = choose_format(flags.output.format);
  // -v, as kubeconform's -verbose: the objects that passed too, on stderr (the report stays parseable).
  if (flags.verbose && !flags.output.quiet)
    for (const auto& object : report.valid) std::cerr << printable(object) << " is valid\n";
  std::cout << validate::format_report(report, format);
  // The summary is a line of text: the structured formats (JSON, JUnit, SARIF) stay parseable.
  // On a terminal a text report says how much passed: silence there reads as "did it run?". A
  // hook or a pipe keeps kubeconform's silence.
  const bool terminal = ::isatty(STDOUT_FILENO) && format == validate::OutputFormat::kText && !flags.output.quiet;
  if ((flags.summary || terminal) && (format == validate::OutputFormat::kText || format == validate::OutputFormat::kGithub))
    std::cout << validate::format_summary(report);
  else if (flags.summary && format == validate::OutputFormat::kTap)
    std::cout << "# " << validate::format_summary(report);
  if (flags.fail_on == "never") return kExitSuccess;
  for (const auto& finding : report.findings)
    if (finding.severity >= *threshold) return kExitFailure;
  return kExitSuccess;
}

void setup(CLI::App& app, Action& action) {
  auto flags = std::make_shared<ValidateFlags>();
  auto* command = app.add_subcommand("validate", "Check Kubernetes manifests: schema, GPU and batch rules");
  command->add_option("inputs", flags->inputs, "Files or folders (.yaml .yml .json, recursive); - for stdin");
  command->add_option("--kubernetes-version,-k", flags->kubernetes_version,
                      "Target Kubernetes version (default: the newest built in; 1.33 to 1.37 are built in, others come from kubernetes-validate or --schema-location)");
  command->add_option("--schema-location", flags->schema_locations,
                      "Schema folder, one schema .json, or kubeconform URL/path template; tried before the bundled "
                      "schemas")
      ->allow_extra_args(false);
  command->add_option("--disable", flags->disabled, "Turn a rule off for this run (repeatable)")
      ->allow_extra_args(false);
  add_output_flags(*command, flags->output, {"text", "json", "junit", "sarif", "github", "tap"},
                   "Output format (default: text, or github under GitHub Actions)", false);
  command->add_option("--fail-on", flags->fail_on, "Lowest severity that makes the exit status 1")
      ->check(CLI::IsMember({"error", "warning", "info", "never"}));
  auto* strict_kinds = command->add_flag("--strict-kinds", flags->strict_kinds,
                                         "Kinds without a schema, custom resources included, are errors");
  command->add_flag("--ignore-missing-schemas", flags->ignore_missing_schemas,
                    "Kinds of built-in groups without a schema are skipped too (as kubeconform's flag)")
      ->excludes(strict_kinds);
  command->add_option("--skip", flags->skip,
                      "Kinds not to check: Kind or apiVersion/Kind, comma-separated or repeated (kubeconform's -skip)")
      ->delimiter(',')
      ->allow_extra_args(false);
  command->add_option("--reject", flags->reject,
                      "Kinds that are an error wherever they appear: Kind or apiVersion/Kind, comma-separated or "
                      "repeated (kubeconform's -reject)")
      ->delimiter(',')
      ->allow_extra_args(false);
  command->add_option("--ignore-filename-pattern", flags->ignore_filename_patterns,
                      "Files whose path matches this regular expression are not read (repeatable; "
                      "kubeconform's -ignore-filename-pattern)")
      ->allow_extra_args(false);
  command->add_option("-n,--workers", flags->workers, "Files validated at once (kubeconform's -n; default 1)")
      ->check(CLI::Range(1, 256));
  command->add_flag("--exit-on-error", flags->exit_on_error,
                    "Stop after the first file with an error (kubeconform's -exit-on-error)");
  add_verbose_flag(*command, flags->verbose);  // kubeconform's -verbose: the valid objects too
  add_quiet_flag(*command, flags->output.quiet);
  command->add_flag("--summary", flags->summary,
                    "Print a kubeconform-style count of valid, invalid and skipped objects (text and tap output)");
  auto* strict = command->add_flag("--strict", flags->strict,
                                   "Unknown fields and duplicate keys are errors (the default; kubeconform's -strict)");
  command->add_flag("--allow-unknown-fields", flags->allow_unknown_fields,
                    "Use the non-strict schemas (unknown fields pass)")
      ->excludes(strict);
  command->add_flag("--list-rules", flags->list_rules, "List the rules with their severity and fix, then exit");
  command->callback([flags, &action] { action = [flags] { return run(*flags); }; });
}

const CommandRegistration registration(50, "validate", setup);

}  // namespace
}  // namespace gkebuild::cli
