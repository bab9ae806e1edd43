// The secret keys of gkebuild.yaml: an experiment's `secretEnv` and `secretRefs`, an image's
// `secrets`. Only names are written in the file; values are read where they are used (the
// submitter's environment, a file), so the file can be committed.
#include <algorithm>
#include <regex>

#include "base/confined_path.h"
#include "base/printable.h"
#include "tool/core/project/parse_helpers.h"
#include "tool/core/yamlfile/scalars.h"

namespace gkebuild::project::detail {
namespace {

using yamlfile::Document;
using yamlfile::Fields;

bool listed(const std::vector<NameAt>& names, const std::string& name) {
  return std::any_of(names.begin(), names.end(), [&](const NameAt& n) { return n.name == name; });
}

// A list of names, each matching `pattern`, none twice.
std::vector<NameAt> parse_names(const Fields& fields, const std::string& key, const std::regex& pattern,
                                const std::string& expected) {
  std::vector<NameAt> names;
  if (!fields.has(key)) return names;
  const Document& doc = fields.document();
  const YAML::Node list = fields.get(key);
  if (!list.IsSequence()) doc.fail(list, fields.name(key) + ": expected a list of names, got " + yamlfile::describe(list));
  for (const auto& item : list) {
    const std::string name = yamlfile::as_string(doc, item, fields.name(key) + " item");
    if (!std::regex_match(name, pattern) || name.size() > 253)
      doc.fail(item, fields.name(key) + ": '" + printable(name) + "' is not " + expected);
    if (listed(names, name)) doc.fail(item, fields.name(key) + ": '" + name + "' is listed twice");
    names.push_back(NameAt{name, doc.where(item)});
  }
  return names;
}

}  // namespace

void parse_experiment_secrets(const Fields& fields, Experiment& experiment) {
  static const std::regex variable("[A-Za-z_][A-Za-z0-9_]*");
  experiment.secret_env = parse_names(fields, "secretEnv", variable, "an environment variable name (letters, digits, _)");
  const Document& doc = fields.document();
  for (const auto& [name, value] : experiment.env)
    if (listed(experiment.secret_env, name))
      doc.fail(fields.get("secretEnv"), fields.name("secretEnv") + ": " + name +
                                            " is also under env:; a secret variable takes its value from the "
                                            "submitter's environment only");
  for (const auto& secret : experiment.secret_env)
    if (secret.name == "PATH" || secret.name == "LD_LIBRARY_PATH" || secret.name.starts_with("GKEBUILD_"))
      throw SourceError(secret.where, fields.name("secretEnv") + ": " + secret.name + " is set by gkebuild");
  static const std::regex subdomain("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
  experiment.secret_refs = parse_names(fields, "secretRefs", subdomain, "a Secret name (lower-case letters, digits, '-', '.')");
}

std::vector<ImageSecret> parse_image_secrets(const Fields& fields, const std::filesystem::path& project_dir) {
  std::vector<ImageSecret> secrets;
  if (!fields.has("secrets")) return secrets;
  const Document& doc = fields.document();
  const YAML::Node list = fields.get("secrets");
  if (!list.IsSequence())
    doc.fail(list, fields.name("secrets") + ": expected a list of {id, src or env}, got " + yamlfile::describe(list));
  static const std::regex id_pattern("[A-Za-z0-9_][-A-Za-z0-9_.]*");
  static const std::regex variable("[A-Za-z_][A-Za-z0-9_]*");
  for (const auto& item : list) {
    Fields secret(doc, item, fields.name("secrets") + " item", {"id", "src", "env"});
    if (!item.IsMap()) doc.fail(item, secret.what() + ": expected a mapping {id: ID, src: FILE} or {id: ID, env: VAR}");
    ImageSecret out{secret.required_string("id"), secret.string("src", ""), secret.string("env", ""), doc.where(item)};
    if (!std::regex_match(out.id, id_pattern))
      doc.fail(secret.get("id"), secret.name("id") + ": '" + printable(out.id) + "' is not a secret id (letters, digits, _ - .)");
    if (out.src.empty() == out.env.empty())
      doc.fail(item, secret.what() + ": give src (a file in the project folder) or env (a variable), one of them");
    if (!out.env.empty() && !std::regex_match(out.env, variable))
      doc.fail(secret.get("env"), secret.name("env") + ": '" + printable(out.env) + "' is not an environment variable name");
    // A cloned project must not be able to hand a build (and its network) the user's ~/.ssh:
    // files outside the project folder are for `gkebuild image --secret` on the command line.
    if (!out.src.empty() && !confined_path(project_dir, out.src))
      doc.fail(secret.get("src"), secret.name("src") + ": '" + printable(out.src) +
                                      "' leads outside the project folder; name such a file with "
                                      "gkebuild image --secret id=" + out.id + ",src=FILE instead");
    for (const auto& earlier : secrets)
      if (earlier.id == out.id) doc.fail(secret.get("id"), secret.name("id") + ": '" + out.id + "' is listed twice");
    secrets.push_back(std::move(out));
  }
  return secrets;
}

}  // namespace gkebuild::project::detail
