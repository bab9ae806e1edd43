// What a user coming from kubectl, ko, skaffold, xpk or kubeconform expects of the command
// line (issue 32): did-you-mean for commands and flags, `help CMD`, `version`, the accelerator
// catalog as a table and JSON, JSON for scripts, the latest run taken where RUN is left out,
// the cost summary before a submit, shell completion driven through bash itself.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "base/atomic_file.h"
#include "tests/common/run.h"
#include "tests/common/temp_dir.h"

namespace gkebuild::testing {
namespace {
namespace fs = std::filesystem;

const std::string kSourceRoot = GKEBUILD_SOURCE_ROOT;
const std::string kPinned =
    "127.0.0.1:5000/gemm@sha256:0000000000000000000000000000000000000000000000000000000000000000";

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The report fixtures' recorded runs beside the gemm-compare project file, run from inside.
class CliUsability : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::copy(kSourceRoot + "/tests/tool/steps/report/fixtures/project", project, fs::copy_options::recursive);
    fs::copy_file(kSourceRoot + "/examples/gemm-compare/gkebuild.yaml", project / "gkebuild.yaml");
  }

  // gkebuild in `dir` (default: the project) with an empty HOME and no kubeconfig.
  CommandResult gkebuild(const std::string& arguments, const fs::path& dir = {}) {
    return run_command("cd " + shell_quoted((dir.empty() ? project : dir).string()) + " && env -u KUBECONFIG HOME=" +
                       shell_quoted(scratch.path().string()) + " " + gkebuild_binary() + " " + arguments);
  }

  // `gkebuild` on PATH (scratch/bin), as an installed one is: completion scripts run the word
  // the user typed. Returns that folder.
  fs::path gkebuild_on_path() {
    const fs::path bin = scratch / "bin";
    if (fs::exists(bin / "gkebuild")) return bin;
    fs::create_directories(bin);
    std::string binary = run_command("readlink -f " + gkebuild_binary()).out;
    binary.pop_back();
    fs::create_symlink(binary, bin / "gkebuild");
    return bin;
  }

  // A TAB in bash on `line` in the project: the script sourced, `complete -p` names its
  // function, which is called with COMP_WORDS; COMPREPLY printed one per line, sorted. `bin`
  // comes first on PATH.
  CommandResult bash_tab(const fs::path& script, const fs::path& bin, const std::string& line) {
    const std::string shell = "cd " + shell_quoted(project.string()) + " && PATH=" + shell_quoted(bin.string()) +
                              ":$PATH HOME=" + shell_quoted(scratch.path().string()) + " bash -c " +
                              shell_quoted("source " + script.string() +
                                           "\nfunction=$(complete -p gkebuild | sed -E 's/.*-F ([^ ]+).*/\\1/')"
                                           "\nCOMP_LINE=" + shell_quoted(line) + "\nCOMP_WORDS=(" + line +
                                           ")\n[[ \"$COMP_LINE\" == *' ' ]] && COMP_WORDS+=('')"
                                           "\nCOMP_CWORD=$((${#COMP_WORDS[@]} - 1))"
                                           "\n$function gkebuild \"${COMP_WORDS[COMP_CWORD]}\" \"${COMP_WORDS[COMP_CWORD-1]}\""
                                           "\nprintf '%s\\n' \"${COMPREPLY[@]}\" | sort");
    return run_command(shell);
  }

  TempDir scratch;
  fs::path project = scratch / "p";
};

TEST_F(CliUsability, MisspeltCommandGetsDidYouMeanAndExit2) {
  const auto typo = gkebuild("rendr");
  EXPECT_EQ(typo.exit_code, 2);
  EXPECT_TRUE(contains(typo.err, "gkebuild: error: unknown command 'rendr' (did you mean 'render'?)")) << typo.err;
  EXPECT_EQ(typo.out, "");
  const auto far = gkebuild("frobnicate");
  EXPECT_EQ(far.exit_code, 2);
  EXPECT_TRUE(contains(far.err, "unknown command 'frobnicate'\n")) << far.err;
}

TEST_F(CliUsability, MisspeltFlagGetsDidYouMeanAndExit2) {
  const auto typo = gkebuild("render --vaues v.yaml");
  EXPECT_EQ(typo.exit_code, 2);
  EXPECT_TRUE(contains(typo.err, "gkebuild render: error: unknown flag '--vaues' (did you mean '--values'?)")) << typo.err;
  const auto with_value = gkebuild("validate --kubernetes-verison=1.35 x.yaml");
  EXPECT_EQ(with_value.exit_code, 2);
  EXPECT_TRUE(contains(with_value.err, "(did you mean '--kubernetes-version'?)")) << with_value.err;
}

TEST_F(CliUsability, HelpCommandIsTheCommandsOwnHelp) {
  const auto help = gkebuild("help render");
  EXPECT_EQ(help.exit_code, 0) << help.err;
  EXPECT_EQ(help.out, gkebuild("render --help").out);
  EXPECT_TRUE(contains(help.out, "--values")) << help.out;
  EXPECT_EQ(gkebuild("help").out, gkebuild("--help").out);
  EXPECT_EQ(gkebuild("help rendr").exit_code, 2);
}

TEST_F(CliUsability, StatusHelpShowsNoParserArtefacts) {
  const auto help = gkebuild("status --help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_TRUE(contains(help.out, "--no-refresh")) << help.out;
  EXPECT_FALSE(contains(help.out, "{false}")) << help.out;
  EXPECT_FALSE(contains(help.out, "{true}")) << help.out;
}

TEST_F(CliUsability, VersionNamesCommitAndBuildType) {
  const auto version = gkebuild("version");
  EXPECT_EQ(version.exit_code, 0);
  // The commit the tree is at (a source tree without git says "unknown").
  std::string head = run_command("git -C " + shell_quoted(kSourceRoot) + " rev-parse HEAD 2>/dev/null").out;
  head = head.empty() ? "unknown" : head.substr(0, head.size() - 1);
  EXPECT_TRUE(contains(version.out, "\ngit commit: " + head)) << version.out;
  EXPECT_TRUE(contains(version.out, "\nbuild type: ")) << version.out;
  EXPECT_EQ(gkebuild("--version").out, version.out);
  const auto json = nlohmann::json::parse(gkebuild("version -o json").out);
  EXPECT_TRUE(json["gitCommit"].get<std::string>().starts_with(head)) << json.dump();
  EXPECT_FALSE(json["buildType"].get<std::string>().empty());
}

TEST_F(CliUsability, AcceleratorsListsTheCatalog) {
  const auto table = gkebuild("accelerators");
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_TRUE(table.out.starts_with("NAME ")) << table.out;
  for (const char* column : {"GPU", "MEMORY", "CC", "MIG PROFILES", "ON-DEMAND $/GPU-H", "SPOT $/GPU-H", "PRICES AS OF"})
    EXPECT_TRUE(contains(table.out, column)) << column;
  EXPECT_TRUE(contains(table.out, "nvidia-a100-80gb")) << table.out;
  EXPECT_TRUE(contains(table.out, "1g.10gb,")) << table.out;  // a MIG profile list
  const auto json = nlohmann::json::parse(gkebuild("accelerators -o json").out);
  const auto& list = json["accelerators"];
  ASSERT_GT(list.size(), 10u);
  bool found = false;
  for (const auto& accelerator : list) {
    if (accelerator["label"] != "nvidia-l4") continue;
    found = true;
    EXPECT_EQ(accelerator["computeCapability"], "8.9");
    EXPECT_EQ(accelerator["memoryGiB"], 24);
    EXPECT_TRUE(accelerator["prices"]["onDemand"]["usdPerGpuHour"].is_number());
    EXPECT_FALSE(accelerator["prices"]["onDemand"]["date"].get<std::string>().empty());
    // Its table row carries the same price.
    char price[32];
    std::snprintf(price, sizeof price, "%.4g", accelerator["prices"]["onDemand"]["usdPerGpuHour"].get<double>());
    EXPECT_TRUE(contains(table.out, price)) << price;
  }
  EXPECT_TRUE(found);
  EXPECT_EQ(gkebuild("accelerators -o yaml").exit_code, 2);
}

TEST_F(CliUsability, RunsHasAHeaderAndJson) {
  const auto table = gkebuild("runs");
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_TRUE(table.out.starts_with("RUN ")) << table.out;
  EXPECT_TRUE(contains(table.out, "EXPERIMENT")) << table.out;
  EXPECT_TRUE(contains(table.out, "\ngemm-20261122-031500      gemm        cluster")) << table.out;
  const auto list = nlohmann::json::parse(gkebuild("runs -o json").out);
  ASSERT_TRUE(list.is_array());
  ASSERT_GE(list.size(), 5u);  // the fixture's runs, by name
  const auto gemm = std::find_if(list.begin(), list.end(), [](const auto& run) { return run["run"] == "gemm-20261122-031500"; });
  ASSERT_NE(gemm, list.end()) << list.dump();
  EXPECT_EQ((*gemm)["experiment"], "gemm");
  EXPECT_EQ((*gemm)["created"], "2026-11-22T03:15:00.000Z");
  EXPECT_TRUE((*gemm)["jobs"]["total"].is_number());
}

TEST_F(CliUsability, RenderFormatJsonPrintsOneList) {
  const auto json = gkebuild("render experiment/gemm --run-id r1 --image gemm=" + kPinned + " --format json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto list = nlohmann::json::parse(json.out);
  ASSERT_TRUE(list.is_array());
  ASSERT_EQ(list.size(), 19u);  // the Namespace, then 3 accelerators x 6 sweep points
  EXPECT_EQ(list[0]["kind"], "Namespace");
  EXPECT_EQ(list[1]["kind"], "Job");
  EXPECT_EQ(list[1]["apiVersion"], "batch/v1");
  EXPECT_EQ(list[1].begin().key(), "apiVersion");  // keys as the YAML has them, in order
  // The same objects as the YAML stream.
  const auto yaml = gkebuild("render experiment/gemm --run-id r1 --image gemm=" + kPinned);
  std::size_t documents = 1;
  for (std::size_t at = 0; (at = yaml.out.find("\n---\n", at)) != std::string::npos; ++at) ++documents;
  EXPECT_EQ(documents, list.size());
  EXPECT_EQ(gkebuild("render experiment/gemm --format json -o out").exit_code, 2);
  EXPECT_EQ(gkebuild("render experiment/gemm --format xml").exit_code, 2);
}

// The latest run is the one created last, whatever its name: a copy of a fixture run, renamed
// to sort first and created later than all the others.
TEST_F(CliUsability, RunCommandsTakeTheLatestRunAndSaySo) {
  const fs::path runs = project / ".gkebuild/runs";
  const fs::path latest = runs / "aaa-20991231-000000";
  fs::copy(runs / "fallback-20261122-070000", latest, fs::copy_options::recursive);
  auto record = nlohmann::json::parse(read_file(latest / "run.json"));
  record["run"] = "aaa-20991231-000000";
  record["created"] = "2099-12-31T00:00:00.000Z";
  write_file_atomically(latest / "run.json", record.dump(2));
  const auto status = gkebuild("status --no-refresh");
  EXPECT_TRUE(contains(status.err, "gkebuild status: the latest run, aaa-20991231-000000")) << status.err;
  EXPECT_TRUE(contains(status.out, "aaa-20991231-000000")) << status.out;
  EXPECT_EQ(status.exit_code, gkebuild("status aaa-20991231-000000 --no-refresh").exit_code);
  const auto quiet = gkebuild("status --no-refresh -q");
  EXPECT_EQ(quiet.err, "");
  const auto logs = gkebuild("logs");
  EXPECT_TRUE(contains(logs.err, "gkebuild logs: the latest run, aaa-20991231-000000")) << logs.err;
  const auto report = gkebuild("report -o json");
  EXPECT_EQ(report.exit_code, 0) << report.err;
  EXPECT_TRUE(contains(report.err, "gkebuild report: the latest run, aaa-20991231-000000")) << report.err;
  EXPECT_TRUE(contains(report.out, "aaa-20991231-000000")) << report.out;
  // delete never guesses.
  EXPECT_EQ(gkebuild("delete").exit_code, 2);
}

TEST_F(CliUsability, RunCommandsWithoutAnyRunSaySoWithExit2) {
  fs::remove_all(project / ".gkebuild");
  for (const std::string command : {"status", "logs", "report"}) {
    const auto result = gkebuild(command);
    EXPECT_EQ(result.exit_code, 2) << command << ": " << result.all();
    EXPECT_TRUE(contains(result.err, "no run recorded in")) << command << ": " << result.err;
    EXPECT_EQ(result.out, "") << command;
  }
}

// The same summary opens a dry run (stderr, before the YAML) and a real submit; -q drops it.
TEST_F(CliUsability, DryRunSaysWhatItWouldCostFirst) {
  const auto catalog = nlohmann::json::parse(gkebuild("accelerators -o json").out);
  // Each pod is a whole node of the first machine type with a GPU: its VM part plus that GPU.
  auto vm_spot = [&](const std::string& machine) {
    for (const auto& row : catalog["machinePrices"])
      if (row["name"] == machine) return row["spot"].get<double>();
    ADD_FAILURE() << "no machine price for " << machine;
    return 0.0;
  };
  double per_hour = 0;
  std::string date;
  for (const auto& accelerator : catalog["accelerators"]) {
    const std::string label = accelerator["label"];
    if (label != "nvidia-l4" && label != "nvidia-tesla-t4" && label != "nvidia-a100-80gb") continue;
    const double node = vm_spot(accelerator["machineTypes"][0]["name"]) +
                        accelerator["prices"]["spot"]["usdPerGpuHour"].get<double>();
    per_hour += 6 * node;  // 6 sweep points, one node each
    date = accelerator["prices"]["spot"]["date"];
  }
  char hour_text[32], bound_text[32];
  std::snprintf(hour_text, sizeof hour_text, "$%.2f", per_hour);
  std::snprintf(bound_text, sizeof bound_text, "$%.2f", per_hour * 0.5);  // timeout: 30m

  const auto dry = gkebuild("submit gemm --dry-run --image gemm=" + kPinned);
  ASSERT_EQ(dry.exit_code, 0) << dry.err;
  EXPECT_TRUE(contains(dry.err, "plan: 18 Jobs, 18 pods, experiment gemm")) << dry.err;
  EXPECT_TRUE(contains(dry.err, "  nvidia-l4 (spot): 6 Jobs, 6 pods, 6 GPUs at once, g2-standard-4 nodes at $"))
      << dry.err;
  EXPECT_TRUE(contains(dry.err, std::string("cost: about ") + hour_text + " per hour with every pod running; at most " +
                                    bound_text + " if every Job runs to its deadline (0.5 h); counts list prices in "
                                    "us-central1 (catalog of " + date))
      << dry.err;
  EXPECT_TRUE(contains(dry.err, ") of whole nodes: vCPUs, memory and every GPU the machine type carries, at the "
                                "provisioning used; not disks, network, committed-use or sustained-use discounts"))
      << dry.err;
  EXPECT_TRUE(dry.out.starts_with("apiVersion: ") || dry.out.starts_with("---")) << dry.out.substr(0, 200);
  const auto quiet = gkebuild("submit gemm --dry-run -q --image gemm=" + kPinned);
  EXPECT_EQ(quiet.exit_code, 0);
  EXPECT_EQ(quiet.err, "");
  EXPECT_TRUE(contains(quiet.out, "kind: Job"));
}

// The dry run prices the project's cluster region (issue 43): gemm-compare moved to
// europe-west4 costs europe-west4's spot prices (an L4 node $0.32 an hour there, $0.28 in
// us-central1), and its A100 80GB, which the catalog prices in us-central1 only, is left
// unpriced with that reason instead of being priced as us-central1.
TEST_F(CliUsability, DryRunPricesTheClustersRegion) {
  const auto central = gkebuild("submit gemm --dry-run --image gemm=" + kPinned);
  ASSERT_EQ(central.exit_code, 0) << central.err;
  EXPECT_TRUE(contains(central.err, "nvidia-l4 (spot): 6 Jobs, 6 pods, 6 GPUs at once, g2-standard-4 nodes at "
                                    "$0.28/node-hour (VM $0.06 + 1 GPU x $0.22)"))
      << central.err;
  EXPECT_TRUE(contains(central.err, "counts list prices in us-central1 (catalog of ")) << central.err;
  std::string yaml = read_file(project / "gkebuild.yaml");
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"location: us-central1 ", "location: europe-west4 "},
                                 {"[us-central1-a, us-central1-c]", "[europe-west4-a, europe-west4-b]"}}) {
    ASSERT_NE(yaml.find(from), std::string::npos) << from;
    yaml.replace(yaml.find(from), from.size(), to);
  }
  write_file_atomically(project / "gkebuild.yaml", yaml);
  const auto europe = gkebuild("submit gemm --dry-run --image gemm=" + kPinned);
  ASSERT_EQ(europe.exit_code, 0) << europe.err;
  // g2-standard-4 spot 0.0715 + one L4 spot 0.2438 (skypilot-catalog v8, europe-west4 rows).
  EXPECT_TRUE(contains(europe.err, "nvidia-l4 (spot): 6 Jobs, 6 pods, 6 GPUs at once, g2-standard-4 nodes at "
                                   "$0.32/node-hour (VM $0.07 + 1 GPU x $0.24)"))
      << europe.err;
  EXPECT_TRUE(contains(europe.err, "nvidia-a100-80gb (spot): 6 Jobs, 6 pods, 6 GPUs at once, the catalog prices "
                                   "nvidia-a100-80gb in us-central1 only\n"))
      << europe.err;
  EXPECT_TRUE(contains(europe.err, "counts list prices in europe-west4 (catalog of ")) << europe.err;
  EXPECT_TRUE(contains(europe.err, "; without 1 unpriced group")) << europe.err;
}

// bash's own completion machinery, as a user's TAB drives it: the script from `completion
// bash` is sourced, `complete -p` names its function, which is called with COMP_WORDS.
TEST_F(CliUsability, BashCompletesCommandsFlagsAndExperiments) {
  const fs::path script = scratch / "gkebuild.bash";
  write_file_atomically(script, gkebuild("completion bash").out);
  EXPECT_EQ(run_command("bash -n " + shell_quoted(script.string())).exit_code, 0);
  const fs::path bin = gkebuild_on_path();
  const auto complete = [&](const std::string& line) { return bash_tab(script, bin, line); };
  EXPECT_EQ(complete("gkebuild sub").out, "submit\n");
  EXPECT_EQ(complete("gkebuild submit ").out, "gemm\n");  // the project's one experiment
  EXPECT_EQ(complete("gkebuild submit --dry").out, "--dry-run\n");
  EXPECT_EQ(complete("gkebuild status fall").out, "fallback-20261122-070000\n");
  EXPECT_TRUE(contains(complete("gkebuild submit gemm --accelerator nvidia-l").out, "nvidia-l4\n"));
  EXPECT_EQ(complete("gkebuild completion ").out, "bash\nfish\nzsh\n");
  EXPECT_EQ(complete("gkebuild __comp").out, "\n");  // hidden
}

// Issue 40: a checkout's run folder named `$(touch PWNED)` ran that command on a TAB in bash
// (`compgen -W` expands its word list). `__complete` offers no name gkebuild could not have
// written, and the scripts of every shell hand each candidate on as it is: a stand-in gkebuild
// that offers such names shows that no shell runs them.
TEST_F(CliUsability, CompletionNeverRunsWhatACandidateSays) {
  const fs::path planted = project / ".gkebuild/runs/$(touch PWNED-BY-NAME)";
  fs::create_directories(planted);
  fs::copy_file(project / ".gkebuild/runs/fallback-20261122-070000/run.json", planted / "run.json");
  const fs::path script = scratch / "gkebuild.bash";
  write_file_atomically(script, gkebuild("completion bash").out);
  EXPECT_EQ(bash_tab(script, gkebuild_on_path(), "gkebuild status ").out.find("PWNED"), std::string::npos);
  EXPECT_EQ(gkebuild("__complete -- status ''").out.find("PWNED"), std::string::npos);
  EXPECT_FALSE(fs::exists(project / "PWNED-BY-NAME"));

  // A gkebuild that offers what a shell would run, in front of the real one on PATH.
  const fs::path stand_in = scratch / "stand-in";
  write_file_atomically(stand_in / "gkebuild", "#!/bin/sh\nprintf '%s\\n' '$(touch PWNED-1)' '`touch PWNED-2`' "
                                               "'${x:=$(touch PWNED-3)}' plain\n");
  fs::permissions(stand_in / "gkebuild", fs::perms::owner_all);
  // Each shell's candidates, in whatever order it sorts them.
  const auto lines = [](const std::string& text) {
    std::multiset<std::string> found;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) found.insert(line);
    return found;
  };
  const std::multiset<std::string> offered = {"$(touch PWNED-1)", "`touch PWNED-2`", "${x:=$(touch PWNED-3)}", "plain"};
  EXPECT_EQ(lines(bash_tab(script, stand_in, "gkebuild status ").out), offered);
  EXPECT_EQ(bash_tab(script, stand_in, "gkebuild status pl").out, "plain\n");
  const std::string env = "cd " + shell_quoted(project.string()) + " && PATH=" + shell_quoted(stand_in.string()) +
                          ":$PATH HOME=" + shell_quoted(scratch.path().string()) + " ";
  const fs::path fish_script = scratch / "gkebuild.fish";
  write_file_atomically(fish_script, gkebuild("completion fish").out);
  EXPECT_EQ(lines(run_command(env + "fish --no-config -c " +
                              shell_quoted("source " + fish_script.string() + "; complete -C 'gkebuild status '"))
                      .out),
            offered);
  const fs::path zsh_script = scratch / "_gkebuild";
  write_file_atomically(zsh_script, gkebuild("completion zsh").out);
  EXPECT_EQ(lines(run_command(env + "zsh -f -c " +
                              shell_quoted("compdef() { :; }; compadd() { [[ $1 == -a ]] && print -rl -- ${(P)2}; }; "
                                           "source " + zsh_script.string() + "; words=(gkebuild status ''); "
                                           "CURRENT=3; _gkebuild"))
                      .out),
            offered);
  for (const auto& entry : fs::recursive_directory_iterator(scratch.path()))
    EXPECT_FALSE(entry.path().filename().string().starts_with("PWNED")) << "a shell ran " << entry.path();
}

// Issue 40: `status` printed the names and reasons of run.json, and `logs` its log lines, with
// their raw escape bytes: a checkout's planted record could drive the terminal. What a record
// says is shown escaped (or the record refused), never as a control sequence.
TEST_F(CliUsability, StatusAndLogsShowARecordsControlCharactersEscaped) {
  const fs::path runs = project / ".gkebuild/runs";
  const auto plant = [&](const std::string& folder, const std::function<void(nlohmann::json&)>& change) {
    auto record = nlohmann::json::parse(read_file(runs / "fallback-20261122-070000/run.json"));
    record["run"] = folder;
    change(record);
    write_file_atomically(runs / folder / "run.json", record.dump());
  };
  const std::string title = "\x1b]0;owned\x07", clear = "\x1b[2J";
  plant("reason-20261122-090000", [&](nlohmann::json& record) {
    record["jobs"][0]["state"] = "failed";
    record["jobs"][0]["reason"] = "exit code 3" + clear;
  });
  write_file_atomically(runs / "reason-20261122-090000/logs/gpu-0.log", "line " + title + "\n");
  plant("names-20261122-090000", [&](nlohmann::json& record) {
    record["experiment"] = "saxpy" + clear;
    record["jobs"][0]["name"] = "gpu-0" + title;
  });
  const auto reason = gkebuild("status reason-20261122-090000 --no-refresh");
  EXPECT_NE(reason.out.find("failed: exit code 3\\x1b[2J\n"), std::string::npos) << reason.out;
  const auto logs = gkebuild("logs reason-20261122-090000");
  EXPECT_NE(logs.out.find("[gpu-0] line \\x1b]0;owned\\x07\n"), std::string::npos) << logs.out;
  const auto names = gkebuild("status names-20261122-090000 --no-refresh");
  for (const auto* result : {&reason, &logs, &names})
    EXPECT_EQ(result->all().find('\x1b'), std::string::npos) << result->all();
}

// fish completes through its own `complete -C` (what a TAB would offer), files only where
// gkebuild offers nothing; zsh checks the script's syntax and runs its function with compadd
// standing in for zsh's completion system. Both shells come from setup.sh.
TEST_F(CliUsability, FishAndZshCompleteToo) {
  const fs::path bin = gkebuild_on_path();
  const std::string env = "cd " + shell_quoted(project.string()) + " && PATH=" + shell_quoted(bin.string()) +
                          ":$PATH HOME=" + shell_quoted(scratch.path().string()) + " ";

  const fs::path fish_script = scratch / "gkebuild.fish";
  write_file_atomically(fish_script, gkebuild("completion fish").out);
  if (run_command("command -v fish").exit_code != 0) {
    ADD_FAILURE() << "fish is not installed (scripts/setup.sh installs it)";
  } else {
    const auto fish = [&](const std::string& line) {
      return run_command(env + "fish --no-config -c " +
                         shell_quoted("source " + fish_script.string() + "; complete -C " + shell_quoted(line)))
          .out;
    };
    EXPECT_EQ(fish("gkebuild sub"), "submit\n");
    EXPECT_EQ(fish("gkebuild submit "), "gemm\n");
    EXPECT_EQ(fish("gkebuild submit --dry"), "--dry-run\n");
    EXPECT_EQ(fish("gkebuild validate gkebuild.y"), "gkebuild.yaml\n");  // files where gkebuild offers none
  }

  const fs::path zsh_script = scratch / "_gkebuild";
  write_file_atomically(zsh_script, gkebuild("completion zsh").out);
  EXPECT_TRUE(read_file(zsh_script).starts_with("#compdef gkebuild\n"));
  if (run_command("command -v zsh").exit_code != 0) {
    ADD_FAILURE() << "zsh is not installed (scripts/setup.sh installs it)";
  } else {
    EXPECT_EQ(run_command("zsh -n " + shell_quoted(zsh_script.string())).exit_code, 0);
    const auto zsh = [&](const std::string& words, int current) {
      return run_command(env + "zsh -f -c " +
                         // compadd as zsh matches: the candidates the word typed so far begins.
                         shell_quoted("compdef() { :; }; compadd() { [[ $1 == -a ]] && "
                                      "print -l -- ${(M)${(P)2}:#${words[CURRENT]}*}; }; "
                                      "_files() { print FILES; }; source " + zsh_script.string() +
                                      "; words=(" + words + "); CURRENT=" + std::to_string(current) + "; _gkebuild"))
          .out;
    };
    EXPECT_EQ(zsh("gkebuild sub", 2), "submit\n");
    EXPECT_EQ(zsh("gkebuild submit ''", 3), "gemm\n");
    EXPECT_EQ(zsh("gkebuild validate ''", 3), "FILES\n");
  }
  EXPECT_EQ(gkebuild("completion tcsh").exit_code, 2);
}

// One meaning for -q and -v: the same help text on every command that has them, and -q on
// every command that writes notes or progress to stderr.
TEST_F(CliUsability, QuietAndVerboseMeanTheSameOnEveryCommand) {
  std::set<std::string> quiet_texts, verbose_texts;
  for (const std::string command : {"render", "image", "push", "pull", "cluster render", "submit", "runs", "status", "logs",
                                    "delete", "validate", "report", "accelerators", "version", "completion"}) {
    const auto help = gkebuild(command + " --help");
    ASSERT_EQ(help.exit_code, 0) << command;
    std::istringstream lines(help.out);
    bool has_quiet = false;
    for (std::string line; std::getline(lines, line);) {
      const auto words = line.find_first_not_of(' ');
      if (words == std::string::npos) continue;
      const std::string rest = line.substr(words);
      if (rest.starts_with("-q,--quiet")) {
        has_quiet = true;
        quiet_texts.insert(rest.substr(rest.find_first_not_of(' ', 10)));
      }
      if (rest.starts_with("-v,--verbose")) verbose_texts.insert(rest.substr(rest.find_first_not_of(' ', 12)));
    }
    const bool writes_notes = command != "cluster render" && command != "accelerators" && command != "version" &&
                              command != "completion";
    if (writes_notes) EXPECT_TRUE(has_quiet) << command << " has no -q:\n" << help.out;
  }
  EXPECT_EQ(quiet_texts.size(), 1u) << ::testing::PrintToString(quiet_texts);
  EXPECT_EQ(verbose_texts.size(), 1u) << ::testing::PrintToString(verbose_texts);
}

// gkebuild prints no colour: nothing but text on a pipe, and with NO_COLOR on a terminal
// (script(1) gives it one) neither, for output, help and errors alike.
TEST_F(CliUsability, NoColourOnAPipeNorWithNoColor) {
  for (const std::string arguments : {"--help", "render --help", "rendr", "runs", "accelerators", "validate nothing.yaml"}) {
    const auto piped = gkebuild(arguments);
    EXPECT_FALSE(contains(piped.all(), "\x1b")) << arguments;
    if (run_command("command -v script").exit_code != 0) continue;
    const auto terminal = run_command("cd " + shell_quoted(project.string()) + " && NO_COLOR=1 HOME=" +
                                      shell_quoted(scratch.path().string()) + " script -qec " +
                                      shell_quoted(gkebuild_binary() + " " + arguments) + " /dev/null");
    EXPECT_FALSE(contains(terminal.all(), "\x1b")) << arguments << ": " << terminal.all();
  }
}

}  // namespace
}  // namespace gkebuild::testing
