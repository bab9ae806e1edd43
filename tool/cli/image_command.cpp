// `gkebuild image`: build an OCI image from a Dockerfile and a context without a
// daemon, like `docker build`; prints the image digest on stdout. With --push
// the image goes on to its registry and the digest reference is printed
// (host/repo@sha256:…); a project's pushes are pinned for `gkebuild render`.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "base/confined_path.h"
#include "base/atomic_file.h"
#include "base/exit_codes.h"
#include "base/printable.h"
#include "base/quantity.h"
#include "base/source_error.h"
#include "images/dockerfile_build/builder.h"
#include "images/elf/stage.h"
#include "images/image/docker_archive.h"
#include "images/image/layout_sink.h"
#include "images/image/layout_source.h"
#include "images/oci/machine_store.h"
#include "tool/cli/command.h"
#include "tool/cli/image_output.h"
#include "tool/cli/name_value.h"
#include "tool/cli/project_flags.h"
#include "tool/cli/registry_flags.h"
#include "tool/cli/secret_flags.h"
#include "tool/cli/verbosity_flags.h"
#include "tool/core/project/project.h"
#include "tool/steps/project_images/project_images.h"
#include "tool/steps/publish/publish.h"
#include "tool/steps/publish/registry_pull.h"
#include "tool/steps/run_step/run_step.h"

namespace gkebuild::cli {
namespace {
namespace fs = std::filesystem;

struct ImageFlags {
  std::string dockerfile;
  std::string context;  // empty: "." for --dockerfile builds; refused for a project
  std::string tag;
  std::vector<std::string> outputs;  // -o: oci:DIR, docker-archive:FILE, text or json
  std::string compression = "gzip";
  int level = 0;
  std::vector<std::string> build_args;
  std::vector<std::string> secrets;  // --secret id=ID,src=FILE|env=VAR
  std::string target;
  std::vector<std::string> stage;
  RegistryFlags registry;
  bool push = false;
  std::string workloads_build;
  std::vector<std::string> images;
  ProjectFlags project;
  bool quiet = false;
  std::string max_add_size;  // a Kubernetes quantity of bytes: "64Gi"
};

[[noreturn]] void usage(const std::string& message) {
  throw SourceError(SourceLocation{"gkebuild image"}, message);
}

// The project's local layout: .gkebuild/oci beside the project file, else here.
fs::path default_layout(const ProjectFlags& project) {
  return confined_folder(project_dir(project), fs::path(".gkebuild") / "oci");  // never through a planted symlink
}

// The project's own layout keeps its blobs in the machine's store (one copy per machine); a
// layout named with -o oci:DIR is written whole, for any OCI tool to read.
oci::BlobHome blob_home(const Output& output, const ProjectFlags& project) {
  return output.archive.empty() && output.layout == default_layout(project) ? oci::machine_blob_home(true)
                                                                              : oci::BlobHome{};
}

int64_t source_date_epoch() {
  const char* value = std::getenv("SOURCE_DATE_EPOCH");
  if (value == nullptr || *value == '\0') return 0;
  char* end = nullptr;
  long long seconds = std::strtoll(value, &end, 10);
  if (*end != '\0' || seconds < 0) {
    usage(std::string("SOURCE_DATE_EPOCH must be a number of seconds, got '") + value + "'");
  }
  return seconds;
}

std::string with_default_tag(const std::string& name) {
  auto slash = name.rfind('/');
  auto colon = name.rfind(':');
  bool has_tag = colon != std::string::npos && (slash == std::string::npos || colon > slash);
  return has_tag ? name : name + ":latest";
}

// --stage: binaries and the libraries they need go into CONTEXT/bin and CONTEXT/lib.
void stage_binaries(const std::vector<std::string>& binaries, const fs::path& context) {
  std::vector<fs::path> paths(binaries.begin(), binaries.end());
  try {
    auto staged = elf::stage_context(paths, context);
    if (::isatty(STDERR_FILENO)) {
      std::cerr << "staged " << staged.binaries.size() << " binaries and " << staged.libraries.size()
                << " libraries into " << context.string() << "\n";
    }
  } catch (const elf::ElfError& e) {
    usage(std::string("--stage: ") + e.what());
  }
}

// --max-add-size: bytes, as a Kubernetes quantity ("64Gi", "500Mi", "1000000").
int64_t max_add_bytes(const std::string& text) {
  if (text.empty()) return build::kDefaultMaxAddBytes;
  const auto value = parse_quantity(text);
  if (!value || *value < 1 || *value > 9.0e18 || *value != static_cast<double>(static_cast<int64_t>(*value))) {
    usage("--max-add-size must be a whole number of bytes such as 64Gi, 500Mi or 1000000, not " + in_quotes(text));
  }
  return static_cast<int64_t>(*value);
}

// What every build shares: compression, times, progress, limits.
build::BuildOptions common_options(const ImageFlags& flags) {
  auto kind = layer::parse_compression(flags.compression);
  if (!kind) usage("--compression must be gzip or zstd, got " + in_quotes(flags.compression));
  build::BuildOptions options;
  options.context = flags.context.empty() ? "." : flags.context;
  options.build_args = parse_name_value_map("--build-arg", flags.build_args, "NAME=VALUE for an ARG",
                                           EmptyValue::kAllowed);
  options.secrets = read_secret_flags(flags.secrets, "gkebuild image");
  options.compression = {*kind, flags.level, 0};
  try {
    struct Discard : layer::ByteSink {
      void write(std::string_view) override {}
    } discard;
    layer::make_compressor(options.compression, discard);
  } catch (const InputError& e) {
    usage(std::string("--compression-level: ") + e.what());
  }
  options.source_date_epoch = source_date_epoch();
  options.max_add_bytes = max_add_bytes(flags.max_add_size);
  options.target = flags.target;
  const std::string& format = flags.registry.format;
  if (!format.empty() && format != "oci" && format != "docker") usage("--format must be oci or docker, not " + in_quotes(format));
  options.docker_format = format == "docker";
  options.warning = [](const std::string& line) { std::cerr << "warning: " << line << "\n"; };
  if (!flags.quiet && ::isatty(STDERR_FILENO)) {
    options.progress = [](const std::string& line) { std::cerr << line << "\n"; };
  }
  return options;
}

// Writes the image, tags it, exports it when asked; returns the manifest digest.
std::string publish(oci::Layout& store, const image::Image& image, const std::string& tag, const Output& output) {
  oci::Descriptor manifest = image::write_to_layout(store, image);
  store.tag(tag, manifest);
  if (!output.archive.empty()) image::write_docker_archive(output.archive, image, {tag});
  return manifest.digest.str();
}

int build_dockerfile(const ImageFlags& flags) {
  if (flags.tag.empty()) usage("--tag NAME[:TAG] is required with --dockerfile");
  build::BuildOptions options = common_options(flags);
  options.dockerfile = flags.dockerfile.empty() ? options.context / "Dockerfile"
                                                : fs::path(flags.dockerfile);
  Output output = parse_output(flags.outputs, flags.push, default_layout(flags.project));
  std::string tag = with_default_tag(flags.tag);
  auto destination = flags.push ? std::optional(registry::parse_reference(tag)) : std::nullopt;
  if (!flags.stage.empty()) stage_binaries(flags.stage, options.context);
  auto store = std::make_shared<oci::Layout>(oci::Layout::open_or_create(output.layout, blob_home(output, flags.project)));
  options.pull = publish::registry_pull(store, session_options(flags.registry));
  options.run = run_step::run_step(store->root());
  build::BuildResult result = build::build_image(options, store);
  std::string digest = publish(*store, result.image, tag, output);
  if (!destination) {
    std::cout << digest << "\n";
    return kExitSuccess;
  }
  auto push = push_options(flags.registry);
  PushProgress progress(flags.quiet, output.format);
  progress.attach(push);
  auto pushed = registry::push_image(*store, tag, *destination, push);
  progress.finish();
  print_pushed({{"", std::move(pushed)}}, output);
  return kExitSuccess;
}

// Pushes and pins each built image (tool/steps/publish); prints the digest references.
int push_project(const project::Project& project, oci::Layout& store,
                 const std::vector<project_images::ProjectImage>& built, const ImageFlags& flags, const Output& output) {
  auto options = push_options(flags.registry);
  PushProgress progress(flags.quiet, output.format);
  progress.attach(options);
  auto published = publish::publish_images(project, store, built, options);
  progress.finish();
  std::vector<std::pair<std::string, registry::PushResult>> pushed;
  for (auto& image : published) pushed.emplace_back(image.name, std::move(image.push));
  print_pushed(pushed, output);
  return kExitSuccess;
}

int build_project(const ImageFlags& flags) {
  fs::path project_file =
      cli::project_file(flags.project, "give --dockerfile FILE --context DIR --tag NAME to build any Dockerfile");
  if (!fs::exists(project_file)) {
    usage("no " + project_file.string() + "; give --dockerfile FILE --context DIR --tag NAME "
          "to build any Dockerfile");
  }
  if (!flags.stage.empty()) usage("--stage is for --dockerfile builds; a project stages its workloads");
  if (!flags.context.empty())
    usage("--context is for --dockerfile builds; a project image's build context is the folder of gkebuild.yaml, "
          "or the image's `context: DIR` in gkebuild.yaml");
  Output output = parse_output(flags.outputs, flags.push, default_layout(flags.project));
  const project::Project project = project::load_project(project_file);
  project_images::ProjectImageOptions options;
  options.images = flags.images;
  options.workloads_build = flags.workloads_build;
  options.build = common_options(flags);
  auto store = std::make_shared<oci::Layout>(oci::Layout::open_or_create(output.layout, blob_home(output, flags.project)));
  options.build.pull = publish::registry_pull(store, session_options(flags.registry));
  options.build.run = run_step::run_step(store->root());
  auto built = project_images::build_project_images(project, options, store);
  if (flags.push) return push_project(project, *store, built, flags, output);
  if (!output.archive.empty() && built.size() != 1) {
    usage("docker-archive output holds one image; name the image to build");
  }
  for (const auto& b : built) {
    if (!output.archive.empty()) image::write_docker_archive(output.archive, b.result.image, {b.reference});
    const std::string digest = b.manifest.digest.str();
    std::cout << (built.size() == 1 ? digest : b.name + " " + digest) << "\n";
  }
  return kExitSuccess;
}

int build(const ImageFlags& flags) {
  bool dockerfile_mode = !flags.dockerfile.empty() || !flags.tag.empty();
  if (dockerfile_mode && !flags.images.empty()) {
    usage("give either image names of gkebuild.yaml or --dockerfile/--tag, not both");
  }
  return dockerfile_mode ? build_dockerfile(flags) : build_project(flags);
}

void setup(CLI::App& app, Action& action) {
  auto flags = std::make_shared<ImageFlags>();
  auto* command = app.add_subcommand(
      "image", "Build an OCI image from a Dockerfile without a daemon; prints its digest (or, with --push, "
               "its digest reference in the registry)");
  command->add_option("images", flags->images, "Images of gkebuild.yaml to build");
  command->add_option("--dockerfile", flags->dockerfile, "Dockerfile (default: CONTEXT/Dockerfile)");
  add_project_flags(*command, flags->project);
  command->add_option("--context", flags->context, "Build context folder of --dockerfile (default: .)");
  command->add_option("--tag,-t", flags->tag, "Image name, NAME[:TAG] (TAG defaults to latest)");
  command->add_option("--output,-o", flags->outputs,
                      "oci:DIR or docker-archive:FILE (default: the project's .gkebuild/oci); with --push "
                      "also text or json, the format of what it prints")
      ->allow_extra_args(false);  // one value each time: `-o json IMAGE` leaves IMAGE alone
  command->add_flag("--push", flags->push,
                    "Push to the registry and print host/repo@sha256:…; a project's images go to "
                    "<registry>/<project>-<image>:latest and are pinned in .gkebuild/images.json");
  command->add_option("--compression", flags->compression, "gzip or zstd")->capture_default_str();
  command->add_option("--compression-level", flags->level,
                      "gzip 1-12 (default 1), zstd 1-19 (default 3)");
  command->add_option("--build-arg", flags->build_args, "NAME=VALUE for an ARG");
  command->add_option("--secret", flags->secrets,
                      "id=ID,src=FILE or id=ID,env=VAR: a build secret for RUN --mount=type=secret,id=ID "
                      "(read now, kept in memory, in no layer or cache; repeatable); also the consent an "
                      "image's secrets: entry with env: needs");
  command->add_option("--target", flags->target, "The stage of a multi-stage Dockerfile to build (default: the last)");
  command->add_option("--stage", flags->stage,
                      "Copy this ELF binary to CONTEXT/bin and the libraries it needs to CONTEXT/lib");
  command->add_option("--workloads-build", flags->workloads_build,
                      "Folder with prebuilt workload binaries (default: gkebuild builds the CMake target of the "
                      "project's CMakeLists.txt or `source:`, else looks in the project's build/)");
  command->add_option("--max-add-size", flags->max_add_size,
                      "What one ADD of a local tar may unpack, in bytes (64Gi, 500Mi, …; default 64Gi)");
  add_quiet_flag(*command, flags->quiet);
  add_registry_flags(*command, flags->registry);
  command->callback([flags, &action] {
    action = [flags] { return build(*flags); };
  });
}

const CommandRegistration registration(20, "image", setup);

}  // namespace
}  // namespace gkebuild::cli
