// `gkebuild validate`: checks Kubernetes manifests (files, folders, "-" for stdin)
// against the Kubernetes JSON schemas and the GPU and batch rules; see tool/validate.
#include <cstdlib>
#include <iostream>

#include "cli/command.h"
#include "cli/exit_codes.h"
#include "cli/output_flags.h"
#include "validate/package_schemas.h"
#include "validate/report_format.h"
#include "validate/rules.h"
#include "validate/validator.h"

namespace gkebuild::cli {
namespace {

struct ValidateFlags {
  std::vector<std::string> inputs;
  std::vector<std::string> schema_locations;
  std::vector<std::string> disabled;
  std::string kubernetes_version;
  OutputFlags output;  // format empty: text, or github under GitHub Actions
  std::string fail_on = "error";
  bool strict_kinds = false;
  bool allow_unknown_fields = false;
  bool list_rules = false;
};

int list_rules() {
  for (const auto& rule : validate::all_rules())
    std::cout << rule.id << " (" << validate::to_string(rule.severity) << "): " << rule.summary
              << "\n    fix: " << rule.fix << "\n";
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
  options.strict = !flags.allow_unknown_fields;
  options.strict_kinds = flags.strict_kinds;
  options.cache_dir = validate::default_cache_dir();
  for (const auto& rule : flags.disabled) {
    if (!validate::find_rule(rule)) {
      std::cerr << "gkebuild validate: unknown rule '" << rule << "' (see --list-rules)\n";
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
  std::cout << validate::format_report(report, choose_format(flags.output.format));
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
                      "Target Kubernetes version (default: the newest with schemas available)");
  command->add_option("--schema-location", flags->schema_locations,
                      "Schema folder or kubeconform URL/path template, tried before the bundled schemas")
      ->allow_extra_args(false);
  command->add_option("--disable", flags->disabled, "Turn a rule off for this run (repeatable)")
      ->allow_extra_args(false);
  add_output_flags(*command, flags->output, {"text", "json", "junit", "sarif", "github"},
                   "Output format (default: text, or github under GitHub Actions)", false);
  command->add_option("--fail-on", flags->fail_on, "Lowest severity that makes the exit status 1")
      ->check(CLI::IsMember({"error", "warning", "info", "never"}));
  command->add_flag("--strict-kinds", flags->strict_kinds, "Kinds without a schema are errors, not skipped");
  command->add_flag("--allow-unknown-fields", flags->allow_unknown_fields,
                    "Use the non-strict schemas (unknown fields pass)");
  command->add_flag("--list-rules", flags->list_rules, "List the rules with their severity and fix, then exit");
  command->callback([flags, &action] { action = [flags] { return run(*flags); }; });
}

const CommandRegistration registration(50, setup);

}  // namespace
}  // namespace gkebuild::cli
