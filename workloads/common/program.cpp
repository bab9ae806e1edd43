#include "workloads/common/program.h"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <vector>
#include <new>

#include "base/exit_codes.h"
#include "workloads/common/errors.h"

namespace gkebuild::workloads {

void add_common_options(CLI::App& app, CommonOptions& options) {
  app.add_option("--device", options.device,
                 "auto (CUDA device 0 when one is visible, else the CPU), cpu, cuda or cuda:N")
      ->capture_default_str();
  app.add_option("--threads", options.threads, "CPU threads (0: every CPU the container may use)")
      ->check(CLI::Range(0, 4096))
      ->capture_default_str();
}

namespace {

// `--args-from FILE`: the arguments are FILE's lines (an Indexed sweep's point, from the
// ConfigMap gkebuild mounts in the pod), read here because images have no shell to do it.
std::optional<std::vector<std::string>> arguments_from_file(int argc, char** argv) {
  if (argc != 3 || std::string(argv[1]) != "--args-from") return std::nullopt;
  std::ifstream in(argv[2]);
  if (!in) throw CLI::ConversionError("--args-from: cannot read " + std::string(argv[2]));
  std::vector<std::string> arguments;
  for (std::string line; std::getline(in, line);) arguments.push_back(line);
  std::reverse(arguments.begin(), arguments.end());  // CLI11 takes a vector back to front
  return arguments;
}

}  // namespace

std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv) {
  try {
    if (auto arguments = arguments_from_file(argc, argv))
      app.parse(*arguments);
    else
      app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << app.get_name() << ": error: " << e.what() << "\n"
              << "run with --help for the options\n";
    return cli::kExitUsage;
  }
  return std::nullopt;
}

int run_guarded(const std::string& program, const std::function<int()>& body) {
  try {
    return body();
  } catch (const Error& e) {
    std::cerr << program << ": error: " << e.what() << "\n";
    return cli::exit_code(e.kind());
  } catch (const std::bad_alloc&) {
    std::cerr << program << ": error: out of host memory; try smaller sizes\n";
    return cli::kExitFailure;
  } catch (const std::exception& e) {
    std::cerr << program << ": error: " << e.what() << "\n";
    return cli::kExitFailure;
  }
}

}  // namespace gkebuild::workloads
