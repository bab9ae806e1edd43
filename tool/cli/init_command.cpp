// `gkebuild init [--template python|cmake-cuda|dockerfile] [DIR]`: a new project that runs
// with `gkebuild submit EXPERIMENT --local` as it stands (tool/steps/init).
#include <iostream>
#include <memory>

#include "base/exit_codes.h"
#include "base/printable.h"
#include "tool/cli/command.h"
#include "tool/steps/init/init_project.h"

namespace gkebuild::cli {
namespace {

void setup(CLI::App& app, Action& action) {
  auto options = std::make_shared<init::InitOptions>();
  auto* command = app.add_subcommand(
      "init", "Start a project in DIR (default: here): gkebuild.yaml, a Dockerfile or CMake project, a small "
              "program that prints a result line, .dockerignore; never overwrites a file");
  command->add_option("dir", options->dir, "The project folder (created if missing)");
  command->add_option("--template", options->template_name, "python (default), cmake-cuda or dockerfile");
  command->add_option("--from", options->from,
                      "The Dockerfile's base image (python: docker.io/library/python:3.12-slim, dockerfile: "
                      "docker.io/library/debian:bookworm-slim; oci:DIR[:TAG] for a local layout)");
  command->add_option("--name", options->project, "The project's name (default: from the folder's name)");
  command->add_option("--registry", options->registry, "Where `gkebuild submit` pushes the image")
      ->capture_default_str();
  command->callback([&action, options] {
    action = [options] {
      const auto written = init::init_project(*options);
      // The folder is the user's bytes: a control character in its name is shown escaped.
      for (const auto& file : written) std::cout << "wrote " << printable(file.string()) << "\n";
      const std::string experiment = init::experiment_of(options->template_name);
      std::cerr << "next: cd " << printable(options->dir.string()) << " && gkebuild submit " << experiment
                << " --local   (as root: builds the image, runs each sweep point under runc); then gkebuild report "
                << experiment << "\n";
      return kExitSuccess;
    };
  });
}

const CommandRegistration registration(5, "init", setup);

}  // namespace
}  // namespace gkebuild::cli
