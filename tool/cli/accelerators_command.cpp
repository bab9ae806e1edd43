// `gkebuild accelerators`: the built-in accelerator catalog (tool/core/catalog/accelerators.yaml)
// as a table or JSON: what each GPU is, where it runs and what it costs per GPU-hour.
#include <iostream>
#include <memory>

#include "base/exit_codes.h"
#include "tool/cli/command.h"
#include "tool/cli/output_flags.h"
#include "tool/core/catalog/catalog.h"
#include "tool/core/catalog/catalog_listing.h"

namespace gkebuild::cli {
namespace {

void setup(CLI::App& app, Action& action) {
  auto flags = std::make_shared<OutputFlags>(OutputFlags{"text"});
  auto* command = app.add_subcommand(
      "accelerators", "List the GPUs gkebuild knows: memory, compute capability, machine types, MIG, prices");
  add_output_flags(*command, *flags, {"text", "json"}, "text (a table), or json", false);
  command->callback([&action, flags] {
    action = [flags] {
      const auto& catalog = catalog::Catalog::builtin();
      if (flags->format == "json")
        std::cout << catalog::catalog_to_json(catalog).dump(2) << "\n";
      else
        catalog::print_catalog_table(catalog, std::cout);
      return kExitSuccess;
    };
  });
}

const CommandRegistration registration(70, "accelerators", setup);

}  // namespace
}  // namespace gkebuild::cli
