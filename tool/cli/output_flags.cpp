#include "tool/cli/output_flags.h"
#include "tool/cli/verbosity_flags.h"

namespace gkebuild::cli {

void add_output_flags(CLI::App& command, OutputFlags& flags, const std::vector<std::string>& formats,
                      const std::string& description, bool quiet) {
  command.add_option("-o,--output", flags.format, description)->check(CLI::IsMember(formats));
  if (quiet) add_quiet_flag(command, flags.quiet);
}

}  // namespace gkebuild::cli
