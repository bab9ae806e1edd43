// `gkebuild image`: build an OCI image from a Dockerfile and a context without a
// daemon, like `docker build`; prints the image digest on stdout.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "build/builder.h"
#include "cli/command.h"
#include "dockerfile/dockerfile_error.h"
#include "image/docker_archive.h"
#include "image/layout_sink.h"
#include "io/atomic_file.h"
#include "support/exit_codes.h"
#include "support/source_error.h"

namespace gkebuild::cli {
namespace {
namespace fs = std::filesystem;

struct ImageFlags {
  std::string dockerfile;
  std::string context = ".";
  std::string tag;
  std::string output;
  std::string compression = "gzip";
  int level = 0;
  std::vector<std::string> build_args;
  std::vector<std::string> images;
  bool quiet = false;
};

[[noreturn]] void usage(const std::string& message) {
  throw SourceError(SourceLocation{"gkebuild image"}, message);
}

// The project's local layout: .gkebuild/oci beside the nearest gkebuild.yaml, else here.
fs::path default_layout() {
  fs::path dir = fs::current_path();
  for (fs::path d = dir; !d.empty(); d = d.parent_path()) {
    if (fs::exists(d / "gkebuild.yaml")) return d / ".gkebuild" / "oci";
    if (d == d.parent_path()) break;
  }
  return dir / ".gkebuild" / "oci";
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

// The commit the context is checked out at, when it is in a git repository.
std::string git_revision(const fs::path& context) {
  std::string command = "git -C '" + context.string() + "' rev-parse HEAD 2>/dev/null";
  if (context.string().find('\'') != std::string::npos) return "";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return "";
  char buffer[128] = {};
  std::string out = std::fgets(buffer, sizeof buffer, pipe) ? buffer : "";
  if (::pclose(pipe) != 0) return "";
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out.size() == 40 ? out : "";
}

std::string with_default_tag(const std::string& name) {
  auto slash = name.rfind('/');
  auto colon = name.rfind(':');
  bool has_tag = colon != std::string::npos && (slash == std::string::npos || colon > slash);
  return has_tag ? name : name + ":latest";
}

std::map<std::string, std::string> parse_build_args(const std::vector<std::string>& given) {
  std::map<std::string, std::string> args;
  for (const auto& a : given) {
    auto eq = a.find('=');
    if (eq == std::string::npos || eq == 0) usage("--build-arg expects NAME=VALUE, got '" + a + "'");
    args[a.substr(0, eq)] = a.substr(eq + 1);
  }
  return args;
}

// Turns the images library's positioned error into the CLI's diagnostic with a caret.
[[noreturn]] void rethrow_positioned(const dockerfile::DockerfileError& e) {
  std::string source;
  try {
    if (e.line() > 0) source = io::read_file(e.file());
  } catch (const std::exception&) {
  }
  throw SourceError(SourceLocation{e.file(), e.line(), e.column()}, e.message(), source);
}

int build(const ImageFlags& flags) {
  if (!flags.images.empty()) {
    usage("building the images of gkebuild.yaml needs the project build, which this gkebuild "
          "does not have yet; use --dockerfile FILE --context DIR --tag NAME[:TAG]");
  }
  if (flags.tag.empty()) usage("--tag NAME[:TAG] is required with --dockerfile");
  auto kind = layer::parse_compression(flags.compression);
  if (!kind) usage("--compression must be gzip or zstd, got '" + flags.compression + "'");

  build::BuildOptions options;
  options.context = flags.context;
  options.dockerfile = flags.dockerfile.empty() ? fs::path(flags.context) / "Dockerfile"
                                                : fs::path(flags.dockerfile);
  options.build_args = parse_build_args(flags.build_args);
  options.compression = {*kind, flags.level, 0};
  try {
    struct Discard : layer::ByteSink {
      void write(std::string_view) override {}
    } discard;
    layer::make_compressor(options.compression, discard);
  } catch (const std::invalid_argument& e) {
    usage(std::string("--compression-level: ") + e.what());
  }
  options.source_date_epoch = source_date_epoch();
  options.default_labels["org.opencontainers.image.created"] = oci::rfc3339_utc(options.source_date_epoch);
  if (auto revision = git_revision(flags.context); !revision.empty()) {
    options.default_labels["org.opencontainers.image.revision"] = revision;
  }
  if (!flags.quiet && ::isatty(STDERR_FILENO)) {
    options.progress = [](const std::string& line) { std::cerr << line << "\n"; };
  }

  std::string output = flags.output;
  fs::path layout_dir = default_layout();
  std::string archive;
  if (output.starts_with("oci:")) {
    layout_dir = output.substr(4);
  } else if (output.starts_with("docker-archive:")) {
    archive = output.substr(15);
  } else if (!output.empty()) {
    usage("--output must be oci:DIR or docker-archive:FILE, got '" + output + "'");
  }
  if (!output.empty() && layout_dir.empty() && archive.empty()) usage("--output needs a path");
  if (output.starts_with("docker-archive:") && archive.empty()) usage("--output needs a path");

  std::string tag = with_default_tag(flags.tag);
  auto store = std::make_shared<oci::Layout>(oci::Layout::open_or_create(layout_dir));
  build::BuildResult result;
  try {
    result = build::build_image(options, store);
  } catch (const dockerfile::DockerfileError& e) {
    rethrow_positioned(e);
  }
  oci::Descriptor manifest = image::write_to_layout(*store, result.image);
  store->tag(tag, manifest);
  if (!archive.empty()) image::write_docker_archive(archive, result.image, {tag});
  std::cout << manifest.digest.str() << "\n";
  return kExitSuccess;
}

void setup(CLI::App& app, Action& action) {
  auto flags = std::make_shared<ImageFlags>();
  auto* command = app.add_subcommand(
      "image", "Build an OCI image from a Dockerfile without a daemon; prints its digest");
  command->add_option("images", flags->images, "Images of gkebuild.yaml to build");
  command->add_option("--dockerfile,-f", flags->dockerfile, "Dockerfile (default: CONTEXT/Dockerfile)");
  command->add_option("--context", flags->context, "Build context folder")->capture_default_str();
  command->add_option("--tag,-t", flags->tag, "Image name, NAME[:TAG] (TAG defaults to latest)");
  command->add_option("--output,-o", flags->output,
                      "oci:DIR or docker-archive:FILE (default: the project's .gkebuild/oci)");
  command->add_option("--compression", flags->compression, "gzip or zstd")->capture_default_str();
  command->add_option("--compression-level", flags->level,
                      "gzip 1-12 (default 6), zstd 1-19 (default 3)");
  command->add_option("--build-arg", flags->build_args, "NAME=VALUE for an ARG");
  command->add_flag("--quiet,-q", flags->quiet, "No progress on stderr");
  command->callback([flags, &action] { action = [flags] { return build(*flags); }; });
}

const CommandRegistration registration(20, setup);

}  // namespace
}  // namespace gkebuild::cli
