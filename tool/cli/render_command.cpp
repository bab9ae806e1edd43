// `gkebuild render`: the project's Dockerfiles and manifests, or (with --template) any
// Jinja template with a JSON/YAML context, like j2cli. Images pushed with
// `gkebuild image --push` are named by the digest pinned in .gkebuild/images.json.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/confined_path.h"
#include "base/source_error.h"
#include "tool/cli/command.h"
#include "base/exit_codes.h"
#include "tool/cli/held_stdout.h"
#include "tool/cli/name_value.h"
#include "tool/cli/override_flags.h"
#include "tool/cli/project_flags.h"
#include "tool/cli/verbosity_flags.h"
#include "tool/core/project/project.h"
#include "images/image/layout_source.h"
#include "images/oci/layout.h"
#include "images/oci/machine_store.h"
#include "tool/steps/plan/overrides.h"
#include "tool/steps/plan/run_plan.h"
#include "tool/steps/publish/pinned_references.h"
#include "tool/steps/render/parallelism.h"
#include "tool/steps/render/manifest_json.h"
#include "tool/steps/render/render.h"
#include "tool/steps/render/template_file.h"
#include "tool/steps/render/values.h"
#include "tool/steps/workload_images/device_check.h"

namespace gkebuild::cli {
namespace {

struct RenderArguments {
  std::vector<std::string> targets;
  OverrideFlags overrides;  // --accelerator, --sweep, --set, --values, --queue, --parallelism (as submit's)
  std::string output_dir;
  std::string format = "yaml";  // --format: yaml (a stream) or json (one list), on stdout
  bool quiet = false;
  ProjectFlags project;
  std::vector<std::string> images;
  std::string run_id;
  std::string nfs_server;
  std::string template_file;
  std::string undefined = "strict";
  bool trim_blocks = false;
  bool lstrip_blocks = false;
  bool keep_trailing_newline = false;
  bool no_pinned = false;
  int jobs = 0;
};

std::vector<std::filesystem::path> paths(const std::vector<std::string>& names) {
  return {names.begin(), names.end()};
}

// --image NAME=REF first, then the pins of pushed images (unless --no-pinned).
std::map<std::string, std::string> image_references(const std::vector<std::string>& given,
                                                    const project::Project& project, bool pinned) {
  auto out = parse_name_value_map("--image", given, "NAME=REFERENCE, e.g. gemm=repo/gemm@sha256:…");
  if (!pinned) return out;
  const auto warn = [](const std::string& line) { std::cerr << "gkebuild render: warning: " << line << "\n"; };
  out.merge(publish::pinned_references(project, warn));  // keeps the --image entries
  return out;
}

int render_template(const RenderArguments& args) {
  if (!args.targets.empty() || !args.output_dir.empty())
    throw SourceError({"--template"}, "renders one template to stdout; TARGETs and -o belong to project renders");
  const plan::Overrides& overrides = args.overrides.overrides;
  if (!args.overrides.sweeps.empty() || overrides.parallelism > 0 || !overrides.accelerators.empty() ||
      !overrides.queue.empty())
    throw SourceError({"--template"}, "renders one template with --values and --set; --sweep, --parallelism, "
                                      "--accelerator and --queue belong to project renders");
  if (args.format != "yaml")
    throw SourceError({"--template"}, "renders the template's text as it is; --format json belongs to project renders");
  jinja::Options options;
  options.trim_blocks = args.trim_blocks;
  options.lstrip_blocks = args.lstrip_blocks;
  options.keep_trailing_newline = args.keep_trailing_newline;
  options.undefined = args.undefined == "lenient" ? jinja::UndefinedMode::Lenient : jinja::UndefinedMode::Strict;
  // One template over a large values file: its long loops may use several cores.
  options.loop_threads = render::loop_threads(args.jobs);
  // Kept until the process exits: freeing a large context object by object just before exit
  // is work nobody needs (a 10,000-record context is a tenth of the run).
  static const auto* context = new jinja::Value(
      render::load_values(paths(overrides.values_files), set_assignments(args.overrides.sets)));
  // Stdout stays empty on error (see HeldStdout): never the whole output as one string.
  HeldStdout out;
  try {
    render::render_template_file(args.template_file, *context, options,
                                 [&out](std::string&& piece) { out.add(std::move(piece)); });
    out.commit();  // where the last writes fail, the file is cut back too
  } catch (...) {
    out.abandon();
    throw;
  }
  return kExitSuccess;
}

// Where gkebuild staged an image's binary, a warning for each accelerator it cannot run on,
// in validate's format (the render itself still succeeds).
void warn_about_device_code(const project::Project& project, const std::vector<std::string>& accelerators) {
  try {
    for (const auto& finding : workload_images::staged_image_findings(project, accelerators))
      std::cerr << to_string(finding.where) << ": warning: " << finding.message << " (as last staged by gkebuild "
                << "image) [cuda-arch]\n";
  } catch (const Error& e) {
    std::cerr << "gkebuild render: warning: cannot check the staged device code: " << e.what() << "\n";
  }
}

// The config Env of each image last built into the project's layout (.gkebuild/oci, tagged
// with its default reference): the Jobs keep that image's PATH and LD_LIBRARY_PATH. An image
// not built yet is left out (the render assumes what the shipped Dockerfile.j2 sets).
std::map<std::string, std::vector<std::string>> built_image_env(const project::Project& project) {
  std::map<std::string, std::vector<std::string>> env;
  const auto root = project.dir / ".gkebuild" / "oci";
  std::error_code error;
  // A layout reached through a symlink a checkout planted is not the project's: not read.
  if (!confined_path(project.dir, std::filesystem::path(".gkebuild") / "oci" / "index.json") ||
      std::filesystem::is_symlink(project.dir / ".gkebuild", error) || std::filesystem::is_symlink(root, error) ||
      !std::filesystem::exists(root / "index.json", error))
    return env;
  try {
    auto layout = std::make_shared<oci::Layout>(oci::Layout::open(root, oci::machine_blob_home(false)));
    for (const auto& image : project.images)
      if (auto built = layout->resolve(render::default_image_reference(project, image)))
        env[image.name] = image::load_image(layout, *built).config().config.env;
  } catch (const std::exception& e) {
    std::cerr << "gkebuild render: warning: cannot read the built images in " << root.string() << ": " << e.what()
              << "\n";
  }
  return env;
}

// What a project render was made from, kept until the process exits (see render_project).
// Volatile, so that the store is not dropped and the leak checker finds it reachable.
std::shared_ptr<const void>* volatile kept_render_inputs = nullptr;

int render_project(const RenderArguments& args) {
  if (args.trim_blocks || args.lstrip_blocks || args.keep_trailing_newline || args.undefined != "strict")
    throw SourceError({"render"}, "--trim-blocks, --lstrip-blocks, --keep-trailing-newline and --undefined "
                                  "apply to --template renders; project templates use the defaults");
  const auto loaded = project::load_project(project_file(args.project));
  render::RenderOptions options;
  options.targets = args.targets;
  options.run_id = args.run_id;
  options.jobs = args.jobs;
  options.image_references = image_references(args.images, loaded, !args.no_pinned);
  options.image_env = built_image_env(loaded);
  options.nfs_server = args.nfs_server;
  options.all_dockerfiles = !args.output_dir.empty() && args.targets.empty();
  // The experiments as submit plans them for the same flags: the Jobs printed are the ones it creates.
  const auto project = plan::apply_overrides(loaded, parsed_overrides(args.overrides), options);
  std::shared_ptr<const void> made_from;
  auto files = render::render_project(project, options, catalog::Catalog::builtin(), &made_from);
  plan::order_as_applied(files);  // as submit applies them: `render` and `submit --dry-run` print the same
  kept_render_inputs = new std::shared_ptr<const void>(std::move(made_from));
  warn_about_device_code(project, options.accelerators);
  if (args.format == "json" && !args.output_dir.empty())
    throw SourceError({"render"}, "--format json prints one list on stdout; -o DIR writes a YAML file per object");
  if (!args.output_dir.empty()) {
    render::write_files(args.output_dir, files);
    if (!args.quiet && ::isatty(STDERR_FILENO))
      std::cerr << "wrote " << files.size() << " files to " << args.output_dir << "\n";
    return kExitSuccess;
  }
  const auto has_text = [&files](render::OutputKind kind) {
    return std::any_of(files.begin(), files.end(),
                       [kind](const render::RenderedFile& file) { return file.kind == kind && !file.text.empty(); });
  };
  if (has_text(render::OutputKind::Dockerfile) && has_text(render::OutputKind::Manifest))
    throw SourceError({"render"}, "Dockerfiles and manifests together need -o DIR (one file each)");
  if (args.format == "json") {
    if (has_text(render::OutputKind::Dockerfile))
      throw SourceError({"render"}, "--format json prints manifests; a Dockerfile is no object (name the "
                                    "experiments or manifests, or use -o DIR)");
    render::write_manifest_list_json(std::cout, files);
    return kExitSuccess;
  }
  for (const auto& file : files)
    if (file.kind == render::OutputKind::Dockerfile) std::cout << file.text;
  render::write_manifest_stream(std::cout, files);
  return kExitSuccess;
}

void setup(CLI::App& app, Action& action) {
  auto args = std::make_shared<RenderArguments>();
  auto* command = app.add_subcommand(
      "render", "Render the project's Dockerfiles and Kubernetes manifests (or any template with --template)");
  command->add_option("targets", args->targets,
                      "experiment or image names, or experiment/NAME, pod/NAME, image/NAME, namespace, "
                      "driver-installer, storage, kueue, compute-classes (default: every experiment, kueue and compute-classes)");
  command->add_option("-o,--output", args->output_dir, "write one file per object into DIR (atomically)");
  command->add_option("--format", args->format, "on stdout: yaml (a multi-document stream) or json (one list)")
      ->check(CLI::IsMember({"yaml", "json"}))
      ->capture_default_str();
  add_project_flags(*command, args->project);
  add_quiet_flag(*command, args->quiet);
  add_override_flags(*command, args->overrides);
  command->add_option("--image", args->images, "NAME=REFERENCE: the reference manifests use for an image");
  command->add_flag("--no-pinned", args->no_pinned,
                    "name images by tag (<registry>/<project>-<image>:latest), not by the digest their last "
                    "`gkebuild image --push` pinned in .gkebuild/images.json");
  command->add_option("--run-id", args->run_id, "the run id in names and labels (default: EXPERIMENT-YYYYMMDD-HHMMSS now, as submit names the run)");
  command->add_option("--nfs-server", args->nfs_server, "NFS server address for the storage PersistentVolume");
  command->add_option("--template", args->template_file, "render this template to stdout (j2cli mode)");
  command->add_option("--undefined", args->undefined, "undefined variables: strict (error) or lenient")
      ->check(CLI::IsMember({"strict", "lenient"}))
      ->capture_default_str();
  command->add_option("-j,--jobs", args->jobs,
                      "the most threads to render on (default: the cores, up to 4 for a --template loop, "
                      "up to 8 for a project); 1 renders on one thread")
      ->check(CLI::Range(1, 256));
  command->add_flag("--trim-blocks", args->trim_blocks, "Jinja trim_blocks");
  command->add_flag("--lstrip-blocks", args->lstrip_blocks, "Jinja lstrip_blocks");
  command->add_flag("--keep-trailing-newline", args->keep_trailing_newline, "Jinja keep_trailing_newline");
  command->callback([&action, args] {
    action = [args] { return args->template_file.empty() ? render_project(*args) : render_template(*args); };
  });
}

const CommandRegistration registration(10, "render", setup);

}  // namespace
}  // namespace gkebuild::cli
