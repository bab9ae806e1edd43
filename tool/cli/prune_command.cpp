// `gkebuild prune`: what the machine-wide store holds (image blobs, unpacked layers, cache mounts, bundles
// that runs left) and the removal of what no running run uses (tool/steps/prune).
#include <iostream>
#include <memory>
#include <optional>

#include "base/error.h"
#include "base/exit_codes.h"
#include "base/printable.h"
#include "base/private_dirs.h"
#include "tool/cli/command.h"
#include "tool/cli/output_flags.h"
#include "tool/core/project/quantities.h"
#include "tool/steps/prune/prune.h"
#include "tool/steps/prune/report.h"
#include "tool/submit/local_run_process.h"

namespace gkebuild::cli {
namespace {

struct PruneFlags {
  OutputFlags output{"text"};
  std::string older_than;
  prune::PruneOptions options;
};

int run_prune(const PruneFlags& flags) {
  prune::PruneOptions options = flags.options;
  if (!flags.older_than.empty()) {
    const auto seconds = project::parse_duration(flags.older_than);
    if (!seconds)
      throw Error(ErrorKind::kBadInput, "--older-than " + in_quotes(flags.older_than) + " is not a duration (7d, 12h, 90m)");
    options.older_than = std::chrono::seconds(*seconds);
  }
  options.now = std::chrono::system_clock::now();
  const prune::StoreDirs dirs{machine_cache_dir(), runtime_dir()};
  const auto items = prune::list_store(dirs, submit::runner_alive, prune::read_mountinfo());
  const auto decisions = prune::prune_store(items, options);
  if (flags.output.format == "json")
    std::cout << prune::prune_json(decisions, dirs, options).dump(2) << "\n";
  else
    prune::print_prune_table(decisions, options, std::cout);
  return kExitSuccess;
}

void setup(CLI::App& app, Action& action) {
  auto flags = std::make_shared<PruneFlags>();
  auto* command = app.add_subcommand(
      "prune", "Show the machine's store (image blobs by project, unpacked layers, cache mounts, runs' bundles) and "
               "remove what runs left and blobs no project's tag reaches; with --older-than or --all also blobs, "
               "layers and cache mounts no running run uses");
  command->add_flag("--dry-run", flags->options.dry_run, "say what would go and the bytes it would free; remove nothing");
  command->add_option("--older-than", flags->older_than,
                      "also remove blobs, unpacked layers and cache mounts not used for DURATION (7d, 12h, 90m)")
      ->type_name("DURATION");
  command->add_flag("--all", flags->options.all, "remove everything that no running run uses");
  add_output_flags(*command, flags->output, {"text", "json"}, "text (a table with a header), or json", false);
  command->callback([&action, flags] { action = [flags] { return run_prune(*flags); }; });
}

const CommandRegistration registration(45, "prune", setup);

}  // namespace
}  // namespace gkebuild::cli
