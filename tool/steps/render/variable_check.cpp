#include "tool/steps/render/variable_check.h"

#include <algorithm>
#include <optional>

#include "base/printable.h"
#include "base/source_error.h"
#include "base/suggest.h"
#include "tool/core/project/reserved_variables.h"
#include "tool/steps/render/dockerfile_template.h"
#include "tool/steps/render/plan.h"
#include "tool/steps/render/shipped_templates.h"

namespace gkebuild::render {
namespace {

// Variables gkebuild gives the experiment's strings itself (tool/core/project/reserved_variables.h;
// `seed` is checked on its own: it is read only where seeds are swept).
bool set_by_gkebuild(const std::string& name) { return name != "seed" && project::is_reserved_variable(name); }

// What the experiment's command, args and env values read.
jinja::ContextReads field_reads(const project::Experiment& experiment, jinja::Environment& environment) {
  jinja::ContextReads reads;
  auto add = [&](const std::string& text) {
    if (has_template_syntax(text)) reads.merge(environment.context_reads_of_string(text, experiment.where.file));
  };
  for (const auto& text : experiment.command) add(text);
  for (const auto& text : experiment.args) add(text);
  for (const auto& [name, value] : experiment.env) add(value);
  return reads;
}

// The project's own workload templates, where it has any: what they read (the shipped ones
// read `point` only to record it in an annotation).
jinja::ContextReads own_workload_template_reads(const project::Project& project, jinja::Environment& environment) {
  jinja::ContextReads reads;
  bool own = false;
  for (const char* name : {"job.yaml.j2", "pod.yaml.j2", "pod-spec.yaml.j2"})
    own = own || template_source(project.dir, name) != std::optional<std::string>(shipped_template(name));
  if (!own) return reads;
  reads.merge(environment.context_reads("job.yaml.j2"));
  reads.merge(environment.context_reads("pod.yaml.j2"));
  return reads;
}

// The variables the experiment's strings read that a sweep could give, for messages.
std::vector<std::string> sweepable(const jinja::ContextReads& reads) {
  std::vector<std::string> out;
  for (const auto& name : reads.names)
    if (!set_by_gkebuild(name)) out.push_back(name);
  return out;
}

// Which field of the experiment reads `name`, with its verb: "args read", "env NAME reads".
std::string field_reading(const project::Experiment& experiment, jinja::Environment& environment,
                          const std::string& name) {
  auto reads = [&](const std::string& text) {
    return has_template_syntax(text) &&
           environment.context_reads_of_string(text, experiment.where.file).names.count(name) > 0;
  };
  for (const auto& text : experiment.command)
    if (reads(text)) return "command reads";
  for (const auto& text : experiment.args)
    if (reads(text)) return "args read";
  for (const auto& [variable, value] : experiment.env)
    if (reads(value)) return "env " + printable(variable) + " reads";
  return "strings read";
}

// The variables the experiment reads that nothing gives: no sweep axis, not `seed` of
// `seeds:`, not gkebuild's own. A misspelt {{ hiden }} is one.
std::vector<std::string> ungiven(const project::Experiment& experiment, const std::vector<std::string>& variables) {
  std::vector<std::string> out;
  for (const auto& name : variables) {
    const bool axis = std::any_of(experiment.sweep.begin(), experiment.sweep.end(),
                                  [&](const auto& each) { return each.name == name; });
    const bool searched = experiment.search && std::any_of(experiment.search->variables.begin(),
                                                           experiment.search->variables.end(),
                                                           [&](const auto& each) { return each.name == name; });
    if (!axis && !searched && name != "seed") out.push_back(name);
  }
  return out;
}

// When the axis and a variable that nothing gives differ by a typo ({{ hiden }} in args for
// the axis `hidden`, or the axis `hiden` for {{ hidden }}), either may be the misspelt one: the
// fix of the variable first (the axis is what the user swept), then the other.
std::optional<std::string> typo_between(const project::Experiment& experiment, jinja::Environment& environment,
                                        const std::string& axis, const std::vector<std::string>& variables) {
  if (set_by_gkebuild(axis)) return std::nullopt;
  const auto typo = closest_match(axis, ungiven(experiment, variables));
  if (!typo) return std::nullopt;
  return ", but its " + field_reading(experiment, environment, *typo) + " {{ " + printable(*typo) +
         " }}, which no sweep axis gives (did you mean {{ " + printable(axis) + " }}?); if '" + printable(*typo) +
         "' is the name you meant, rename the axis to it";
}

std::string listed(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "" : ", ") + printable(name);
  return out;
}

}  // namespace

void check_sweep_axes(const project::Project& project, const project::Experiment& experiment,
                      jinja::Environment& environment) {
  if (experiment.sweep.empty() && !experiment.search) return;
  const jinja::ContextReads fields = field_reads(experiment, environment);
  const jinja::ContextReads templates = own_workload_template_reads(project, environment);
  const auto variables = sweepable(fields);
  // A sweep axis or a search variable: its name, where it is, and what it is called in messages.
  auto check = [&](const std::string& name, const SourceLocation& where, const std::string& kind,
                   const std::string& repeats) {
    const bool read = set_by_gkebuild(name) ? false : fields.reads(name) || templates.reads_key("point", name);
    if (read) return;
    std::string message = kind + " '" + printable(name) + "': no field of experiment '" + printable(experiment.name) +
                          "' reads it";
    if (auto typo = typo_between(experiment, environment, name, variables)) throw SourceError(where, message + *typo);
    message += did_you_mean(name, variables) + "; ";
    message += variables.empty() ? std::string("its command, args and env read no variable")
                                 : "its command, args and env read " + listed(variables);
    if (set_by_gkebuild(name)) message += " ('" + name + "' is set by gkebuild itself)";
    throw SourceError(where, message + ". " + repeats);
  };
  for (const auto& axis : experiment.sweep)
    check(axis.name, axis.where, "sweep axis",
          "Each value would run the same Jobs again; for repeated runs of one point use seeds: N "
          "(an Indexed Job, seed 0..N-1 as {{ seed }})");
  if (experiment.search)
    for (const auto& variable : experiment.search->variables)
      check(variable.name, variable.where, "search variable",
            "Its sampled values would change nothing the Jobs run; read it as {{ " + printable(variable.name) +
                " }} or drop it");
}

void check_project_sweep_axes(const project::Project& project) {
  jinja::Environment environment;
  add_project_templates(environment, project.dir);
  for (const auto& image : project.images) add_dockerfile_template(environment, project, image);
  for (const auto& experiment : project.experiments) check_sweep_axes(project, experiment, environment);
}

void check_set_keys(const project::Project& project, const project::Experiment& experiment,
                    jinja::Environment& environment, const std::vector<std::pair<std::string, std::string>>& sets) {
  if (sets.empty()) return;
  const jinja::ContextReads fields = field_reads(experiment, environment);
  jinja::ContextReads reads = fields;
  for (const auto& name : shipped_template_names())
    if (name.ends_with(".yaml.j2")) reads.merge(environment.context_reads(name));
  // A plain Dockerfile (`dockerfile: Dockerfile`) is used as written: it reads no values.
  if (const auto* image = project.find_image(experiment.image); image && dockerfile_is_template(*image))
    reads.merge(environment.context_reads(dockerfile_template_name(*image)));
  for (const auto& [key, value] : sets) {
    const std::string first = key.substr(0, key.find('.'));
    if (reads.reads_key("values", first)) continue;
    std::string message = "no template and no field of experiment '" + printable(experiment.name) +
                          "' reads values." + printable(first);
    std::vector<std::string> keys;
    if (const auto found = reads.keys.find("values"); found != reads.keys.end())
      keys.assign(found->second.begin(), found->second.end());
    message += did_you_mean(first, keys);
    if (fields.reads(first) && !set_by_gkebuild(first))
      message += "; '" + printable(first) + "' is a variable of its command, args or env: give it with --sweep " +
                 printable(first) + "=VALUE";
    else if (!keys.empty())
      message += "; it reads values." + listed(keys);
    throw SourceError({"--set " + printable(key) + "=" + printable(value)}, message);
  }
}

}  // namespace gkebuild::render
