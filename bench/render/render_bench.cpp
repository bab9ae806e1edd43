// In-process half of the render benchmark (bench/render/run.sh):
//   render_bench contexts PROJECT OUT.json   the Job contexts of PROJECT's render, as JSON
//   render_bench time CONTEXTS.json ROUNDS   renders job.yaml.j2 once per context, ROUNDS
//                                            times; prints the median round's seconds (wall
//                                            and CPU)
//   render_bench template T VALUES ROUNDS    renders template T over the values file VALUES
//                                            (trim and lstrip blocks), the median of ROUNDS
//                                            (wall and CPU)
// Python jinja2 renders the same template with the same contexts in jinja2_render.py.
#include <time.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <vector>

#include "base/atomic_file.h"
#include "tool/core/jinja/environment.h"
#include "tool/core/project/project.h"
#include "tool/steps/render/plan.h"
#include "tool/steps/render/shipped_templates.h"
#include "tool/steps/render/values.h"

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
    if (item.template_name == "job.yaml.j2") contexts.push_back(item.full_context());
  write_file_atomically(out, contexts.dump());
  return 0;
}

double cpu_now() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// The median of `rounds` timings of `round`, in seconds: wall, and CPU (the process's, which a
// loaded machine's waits for a core leave out; the engine renders on one thread).
struct Timing {
  double wall = 0, cpu = 0;
};
template <class F>
Timing median_seconds(int rounds, F&& round) {
  std::vector<double> walls, cpus;
  for (int i = 0; i < rounds; ++i) {
    const auto start = std::chrono::steady_clock::now();
    const double start_cpu = cpu_now();
    round();
    cpus.push_back(cpu_now() - start_cpu);
    walls.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return {median(walls), median(cpus)};
}

int time_renders(const std::string& contexts_file, int rounds) {
  const json contexts = json::parse(read_file(contexts_file));
  jinja::Environment environment;
  render::add_project_templates(environment, "/nonexistent");
  std::size_t bytes = 0;
  const Timing took = median_seconds(rounds, [&] {
    for (const auto& context : contexts) bytes += environment.render_file("job.yaml.j2", context).size();
  });
  std::cout << "renders " << contexts.size() << " bytes_per_round " << bytes / static_cast<std::size_t>(rounds)
            << " seconds " << took.wall << " cpu_seconds " << took.cpu << "\n";
  return 0;
}

// One template over one values file, as `gkebuild render --template T --values V
// --trim-blocks --lstrip-blocks` renders it, timing only the render (values read once).
int time_template(const std::string& template_file, const std::string& values_file, int rounds) {
  const jinja::Value values = render::load_values({values_file}, {});
  jinja::Options options;
  options.trim_blocks = options.lstrip_blocks = true;
  jinja::Environment environment(options);
  environment.add_template(template_file, read_file(template_file));
  std::size_t bytes = 0;
  const Timing took =
      median_seconds(rounds, [&] { bytes += environment.render_file(template_file, values).size(); });
  std::cout << "renders 1 bytes_per_round " << bytes / static_cast<std::size_t>(rounds) << " seconds " << took.wall
            << " cpu_seconds " << took.cpu << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "contexts" && argc == 4) return dump_contexts(argv[2], argv[3]);
    if (mode == "time" && argc == 4) return time_renders(argv[2], std::stoi(argv[3]));
    if (mode == "template" && argc == 5) return time_template(argv[2], argv[3], std::stoi(argv[4]));
    std::cerr << "usage: render_bench contexts PROJECT OUT.json | time CONTEXTS.json ROUNDS |"
                 " template TEMPLATE VALUES ROUNDS\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 2;
  }
}
