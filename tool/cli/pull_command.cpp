// `gkebuild pull REF [-o oci:DIR[:TAG]|docker-archive:FILE]`: the other half of push (as crane
// pull or skopeo copy): the image's manifest, config and layers into an OCI layout, every blob
// verified against its digest. Blobs the layout already holds are not fetched again, so a pull
// cut short resumes; a docker archive is written from a layout kept beside it (FILE.layout)
// until it is complete. Prints where it came from, as `registry/repo@sha256:…`.
#include <filesystem>
#include <iostream>
#include <set>

#include "base/exit_codes.h"
#include "base/printable.h"
#include "base/source_error.h"
#include "images/image/docker_archive.h"
#include "images/image/layout_source.h"
#include "images/oci/layout.h"
#include "registry/remote/progress.h"
#include "registry/remote/pull.h"
#include "registry/transport/reference.h"
#include "tool/cli/command.h"
#include "tool/cli/registry_flags.h"
#include "tool/cli/verbosity_flags.h"

namespace gkebuild::cli {
namespace {
namespace fs = std::filesystem;

struct PullFlags {
  std::string reference;
  std::string output;  // empty: oci:NAME:TAG here
  std::string platform = "linux/amd64";
  bool quiet = false;
  RegistryFlags registry;
};

// Where the pulled image goes: a layout folder and the name it is tagged under there, or a
// docker archive (staged in a layout of its own).
struct Destination {
  fs::path layout;
  std::string tag;
  fs::path archive;
};

[[noreturn]] void usage(const std::string& message) { throw SourceError(SourceLocation{"gkebuild pull"}, message); }

// The tag the layout names the image by when -o does not say: the reference's tag, else latest.
std::string default_tag(const registry::Reference& reference) {
  return reference.tag.empty() ? "latest" : reference.tag;
}

Destination destination(const std::string& output, const registry::Reference& reference) {
  if (output.empty()) {  // like docker pull: the repository's last name, here
    const auto slash = reference.repository.rfind('/');
    return {reference.repository.substr(slash == std::string::npos ? 0 : slash + 1), default_tag(reference), {}};
  }
  if (output.starts_with("docker-archive:")) {
    const fs::path file = output.substr(15);
    if (file.empty() || file.filename().empty()) usage("--output docker-archive: needs a file");
    return {fs::path(file) += ".layout", default_tag(reference), file};
  }
  if (!output.starts_with("oci:") || output.size() == 4)
    usage("--output must be oci:DIR[:TAG] or docker-archive:FILE, got " + in_quotes(output));
  const std::string rest = output.substr(4);  // DIR ends at the first ':', as skopeo reads it
  const auto colon = rest.find(':');
  if (colon == std::string::npos) return {rest, default_tag(reference), {}};
  if (colon == 0 || colon + 1 == rest.size() || !registry::is_valid_tag(rest.substr(colon + 1)))
    usage("--output " + in_quotes(output) + " must be oci:DIR[:TAG], TAG a valid tag");
  return {rest.substr(0, colon), rest.substr(colon + 1), {}};
}

oci::Platform parse_platform(const std::string& text) {
  oci::Platform platform;
  const auto first = text.find('/');
  const auto second = first == std::string::npos ? first : text.find('/', first + 1);
  if (first == std::string::npos || first == 0 || first + 1 == text.size() || second + 1 == text.size())
    usage("--platform must be OS/ARCH[/VARIANT], e.g. linux/amd64, got " + in_quotes(text));
  platform.os = text.substr(0, first);
  platform.architecture = text.substr(first + 1, second == std::string::npos ? second : second - first - 1);
  if (second != std::string::npos) platform.variant = text.substr(second + 1);
  return platform;
}

// The blobs a layout holds now: what a pull into it need not fetch.
std::set<std::string> blobs_in(const fs::path& layout) {
  std::set<std::string> blobs;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(layout / "blobs" / "sha256", error))
    blobs.insert("sha256:" + entry.path().filename().string());
  return blobs;
}

// "pulled N blobs (SIZE) into DIR; M were there already" on stderr.
void summary(const registry::PullResult& pulled, const std::set<std::string>& before, const fs::path& where) {
  int fetched = 0, present = 0;
  double bytes = 0;
  std::vector<oci::Descriptor> blobs{pulled.manifest.config};
  blobs.insert(blobs.end(), pulled.manifest.layers.begin(), pulled.manifest.layers.end());
  for (const auto& blob : blobs) {
    if (before.contains(blob.digest.str())) {
      ++present;
    } else {
      ++fetched;
      bytes += static_cast<double>(blob.size);
    }
  }
  std::cerr << "pulled " << fetched << " blob" << (fetched == 1 ? "" : "s") << " (" << registry::human_bytes(bytes)
            << ") into " << where.string() << (present ? "; " + std::to_string(present) + " were there already" : "")
            << "\n";
}

int run(const PullFlags& flags) {
  const auto reference = registry::parse_reference(flags.reference);
  const Destination to = destination(flags.output, reference);
  registry::PullOptions options;
  options.session = session_options(flags.registry);
  options.platform = parse_platform(flags.platform);
  options.jobs = flags.registry.jobs;
  options.tag = to.tag;
  auto layout = std::make_shared<oci::Layout>(oci::Layout::open_or_create(to.layout));
  const auto before = blobs_in(to.layout);
  const auto pulled = registry::pull_image(reference, *layout, options);
  if (!to.archive.empty()) {
    const std::vector<std::string> repo_tags;
    image::write_docker_archive(to.archive, image::load_image(layout, pulled.descriptor),
                                reference.tag.empty() ? repo_tags : std::vector{reference.name() + ":" + reference.tag});
    fs::remove_all(to.layout);  // kept only for a pull cut short
  }
  if (!flags.quiet) summary(pulled, before, to.archive.empty() ? to.layout : to.archive);
  std::cout << pulled.resolved.str() << "\n";
  return kExitSuccess;
}

void setup(CLI::App& app, Action& action) {
  auto flags = std::make_shared<PullFlags>();
  auto* command = app.add_subcommand("pull", "Pull an image from a registry into an OCI layout or a docker archive");
  command->add_option("reference", flags->reference, "[HOST[:PORT]/]REPO[:TAG][@DIGEST] (no host: Docker Hub)")
      ->required();
  command->add_option("-o,--output", flags->output,
                      "oci:DIR[:TAG] or docker-archive:FILE (default: oci:NAME:TAG here, NAME the repository's "
                      "last part, TAG the reference's tag or latest)");
  command->add_option("--platform", flags->platform, "OS/ARCH[/VARIANT] picked from a multi-platform image")
      ->capture_default_str();
  add_quiet_flag(*command, flags->quiet);
  add_registry_connection_flags(*command, flags->registry);
  command->add_option("-j,--jobs", flags->registry.jobs, "Blobs in flight at once")->check(CLI::Range(1, 64));
  add_verbose_flag(*command, flags->registry.verbose);
  command->callback([flags, &action] {
    action = [flags] { return run(*flags); };
  });
}

const CommandRegistration registration(31, "pull", setup);

}  // namespace
}  // namespace gkebuild::cli
