// In-process half of the render benchmark (bench/render/run.sh):
//   render_bench contexts PROJECT OUT.json   the Job contexts of PROJECT's render, as JSON
//   render_bench time CONTEXTS.json ROUNDS   renders job.yaml.j2 once per context, ROUNDS
//                                            times; prints the best round's time per render
// Python jinja2 renders the same template with the same contexts in jinja2_render.py.
#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>

#include "base/atomic_file.h"
#include "jinja/environment.h"
#include "project/project.h"
#include "render/plan.h"
#include "render/shipped_templates.h"

namespace {

using json = nlohmann::ordered_json;
using namespace gkebuild;

int dump_contexts(const std::string& project_file, const std::string& out) {
  const auto project = project::load_project(project_file);
  jinja::Environment environment;
  render::RenderOptions options;
  options.run_id = "bench";
  options.targets = {"experiment/" + project.experiments.at(0).name};
  const auto items = render::plan_render(
      project, options, catalog::Catalog::builtin(),
      [&environment](const std::string& text, const json& context, const std::string& name) {
        return environment.render_string(text, context, name);
      });
  json contexts = json::array();
  for (const auto& item : items)
    if (item.template_name == "job.yaml.j2") contexts.push_back(item.context);
  write_file_atomically(out, contexts.dump());
  return 0;
}

int time_renders(const std::string& contexts_file, int rounds) {
  const json contexts = json::parse(read_file(contexts_file));
  jinja::Environment environment;
  render::add_project_templates(environment, "/nonexistent");
  std::size_t bytes = 0;
  double best = 1e300;
  for (int round = 0; round < rounds; ++round) {
    const auto start = std::chrono::steady_clock::now();
    for (const auto& context : contexts) bytes += environment.render_file("job.yaml.j2", context).size();
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    best = std::min(best, took.count());
  }
  std::cout << "renders " << contexts.size() << " bytes_per_round " << bytes / static_cast<std::size_t>(rounds)
            << " us_per_render " << best / static_cast<double>(contexts.size()) * 1e6 << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "contexts" && argc == 4) return dump_contexts(argv[2], argv[3]);
    if (mode == "time" && argc == 4) return time_renders(argv[2], std::stoi(argv[3]));
    std::cerr << "usage: render_bench contexts PROJECT OUT.json | time CONTEXTS.json ROUNDS\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 2;
  }
}
