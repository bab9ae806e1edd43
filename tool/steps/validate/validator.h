// `gkebuild validate` as a library: read the inputs, check every object, collect
// findings. The command line (tool/cli/validate_command.cpp) only parses flags.
#pragma once

#include <filesystem>
#include <istream>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tool/steps/validate/finding.h"
#include "tool/steps/validate/project_file_check.h"
#include "tool/steps/validate/schema_names.h"
#include "tool/steps/validate/yaml_loader.h"

namespace gkebuild::validate {

struct ValidateOptions {
  std::vector<std::string> inputs;            // files, folders, "-" for stdin
  std::vector<std::string> schema_locations;  // --schema-location, in order
  std::optional<KubernetesVersion> kubernetes_version;
  bool strict = true;          // unknown fields are errors
  bool strict_kinds = false;   // kinds without a schema are errors, not skipped
  bool ignore_missing_schemas = false;  // also built-in groups' unknown kinds are skipped (kubeconform)
  // --skip: kinds ("Pod") or apiVersion/kind ("v1/Pod") not checked at all, as kubeconform's -skip.
  std::vector<std::string> skip_kinds;
  // --reject: kinds (same forms) that are an error wherever they appear (kubeconform's -reject).
  std::vector<std::string> reject_kinds;
  // --ignore-filename-pattern: files whose path matches one of these regular expressions (ECMAScript,
  // searched anywhere in the path) are not read (kubeconform's -ignore-filename-pattern).
  std::vector<std::string> ignore_filename_patterns;
  int workers = 1;             // -n: files validated at once, each worker with its own schemas
  bool exit_on_error = false;  // stop after the first file with an error (kubeconform's -exit-on-error)
  std::set<std::string, std::less<>> disabled_rules;
  std::filesystem::path cache_dir;
  LoadLimits limits;
  // More checks of a gkebuild project file once it loads (render's sweep-axis check): given by
  // the CLI, since one step may not include another. Throws SourceError or Error.
  ProjectCheck project_check;
};

struct ValidateReport {
  std::vector<Finding> findings;
  int files = 0;
  std::vector<std::string> file_names;  // as reported ("<stdin>" for -)
  int resources = 0;
  int skipped = 0;  // objects without a schema, not objects, or named by --skip
  int invalid = 0;  // objects with at least one error
  int errors = 0;   // files that could not be read as YAML (kubeconform's "Errors")
  std::vector<std::string> valid;  // "file:line: Kind name" of each object without an error (-v)
  KubernetesVersion kubernetes_version;
};

// Throws std::runtime_error when the tool cannot run (missing input, no schemas at all).
ValidateReport run_validation(const ValidateOptions& options, std::istream& standard_input);

// The files a list of inputs names: folders walked recursively for .yaml .yml .json,
// sorted; files named explicitly are kept whatever their extension.
std::vector<std::string> expand_inputs(const std::vector<std::string>& inputs);

}  // namespace gkebuild::validate
