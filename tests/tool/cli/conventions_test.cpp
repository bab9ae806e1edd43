// What every command has in common, as a user meets it: the exit-code table (bad input 2,
// a registry's refusal 1), the project file found upwards or named by -f/--file
// (only --file for logs, where -f is --follow), and the version CMake's project() sets.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <utility>
#include <sstream>
#include <string>
#include <vector>

#include "base/atomic_file.h"
#include "tests/common/run.h"
#include "tests/common/temp_dir.h"

namespace gkebuild::testing {
namespace {
namespace fs = std::filesystem;

const std::string kSourceRoot = GKEBUILD_SOURCE_ROOT;
const std::string kCatalog = kSourceRoot + "/tests/tool/steps/report/fixtures/catalog.yaml";
const std::string kPinned =
    "127.0.0.1:5000/gemm@sha256:0000000000000000000000000000000000000000000000000000000000000000";

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A project with recorded runs (the report fixtures) and the gemm-compare project file,
// and a folder two levels below it to run commands from.
class CliConventions : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::copy(kSourceRoot + "/tests/tool/steps/report/fixtures/project", project, fs::copy_options::recursive);
    fs::copy_file(kSourceRoot + "/examples/gemm-compare/gkebuild.yaml", project / "gkebuild.yaml");
    fs::create_directories(below);
  }

  // Runs gkebuild in `dir` with no kubeconfig, so nothing reaches a cluster.
  CommandResult gkebuild(const std::string& arguments, const fs::path& dir) {
    return run_command("cd " + shell_quoted(dir.string()) + " && env -u KUBECONFIG HOME=" +
                       shell_quoted(scratch.path().string()) + " " + gkebuild_binary() + " " + arguments);
  }
  CommandResult from_below(const std::string& arguments) { return gkebuild(arguments, below); }
  CommandResult from_outside(const std::string& arguments) { return gkebuild(arguments, scratch.path()); }

  TempDir scratch;
  fs::path project = scratch / "p";
  fs::path below = scratch / "p/sub/deeper";
  std::string file = " -f p/gkebuild.yaml";
};

TEST_F(CliConventions, BadProjectFileIsBadInputExit2) {
  write_file_atomically(project / "gkebuild.yaml", "apiVersion: gkebuild/v1\nproject: [\n");
  const auto result = from_below("render");
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_TRUE(contains(result.err, "gkebuild.yaml:")) << result.err;
  EXPECT_EQ(result.out, "");
}

TEST_F(CliConventions, BadFlagValueIsBadInputExit2) {
  const auto result = from_outside("render" + file + " --set =1");
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_TRUE(contains(result.err, "--set =1: error: expected key=value")) << result.err;
}

// tests/tool/cli/refusing_registry.py on a free port, stopped on destruction. Its output goes
// nowhere, so that nothing waits on it.
class RefusingRegistry {
 public:
  explicit RefusingRegistry(const fs::path& dir) : dir_(dir) {
    const std::string port = (dir_ / "port").string();
    // `echo $!` is the server's process id, on stdout.
    pid_ = run_command("python3 " + kSourceRoot + "/tests/tool/cli/refusing_registry.py " + shell_quoted(port) +
                       " </dev/null >/dev/null 2>&1 & echo $!")
               .out;
    for (int i = 0; i < 1000 && !fs::exists(port); ++i) ::usleep(10000);
  }
  ~RefusingRegistry() { run_command("kill " + pid_); }
  std::string address() const { return fs::exists(dir_ / "port") ? "127.0.0.1:" + read_file(dir_ / "port") : ""; }

 private:
  fs::path dir_;
  std::string pid_;
};

TEST_F(CliConventions, RegistryThatRefusesIsAFailedOperationExit1) {
  write_file_atomically(scratch / "ctx/Dockerfile", "FROM scratch\nCOPY hello /hello\n");
  write_file_atomically(scratch / "ctx/hello", "hello\n");
  const auto built = from_outside("image --dockerfile ctx/Dockerfile --context ctx --tag app:1 -o oci:layout");
  ASSERT_EQ(built.exit_code, 0) << built.err;
  const RefusingRegistry registry(scratch.path());
  ASSERT_NE(registry.address(), "");
  const auto pushed = from_outside("push oci:layout:app:1 " + registry.address() + "/team/app:1 -q");
  EXPECT_EQ(pushed.exit_code, 1) << pushed.err;
  EXPECT_TRUE(contains(pushed.err, "gkebuild push: error: " + registry.address())) << pushed.err;
}

TEST_F(CliConventions, ProjectIsFoundUpwardsFromASubfolder) {
  const auto rendered = from_below("render job/gemm --run-id r1");
  EXPECT_EQ(rendered.exit_code, 0) << rendered.err;
  EXPECT_TRUE(contains(rendered.out, "kind: Job")) << rendered.out;
  const auto runs = from_below("runs");
  EXPECT_EQ(runs.exit_code, 0) << runs.err;
  EXPECT_TRUE(contains(runs.out, "gemm-20261122-031500")) << runs.out;
  const auto report = from_below("report gemm-20261122-031500 -o json --catalog " + kCatalog);
  EXPECT_EQ(report.exit_code, 0) << report.err;
}

TEST_F(CliConventions, FileFlagNamesTheProjectForEveryProjectCommand) {
  const auto rendered = from_outside("render job/gemm --run-id r1" + file);
  EXPECT_EQ(rendered.exit_code, 0) << rendered.err;
  EXPECT_TRUE(contains(rendered.out, "kind: Job")) << rendered.out;

  const auto submitted = from_outside("submit gemm --dry-run --image gemm=" + kPinned + file);
  EXPECT_EQ(submitted.exit_code, 0) << submitted.err;
  EXPECT_TRUE(contains(submitted.out, kPinned)) << submitted.out;
  EXPECT_TRUE(contains(submitted.err, "no kubeconfig")) << submitted.err;

  const auto image = from_outside("image no-such-image" + file);
  EXPECT_EQ(image.exit_code, 2) << image.err;
  EXPECT_TRUE(contains(image.err, "no-such-image")) << image.err;

  const auto runs = from_outside("runs" + file);
  EXPECT_EQ(runs.exit_code, 0) << runs.err;
  EXPECT_TRUE(contains(runs.out, "gemm-20261122-031500")) << runs.out;

  const auto status = from_outside("status gemm-20261122 --no-refresh" + file);
  EXPECT_TRUE(contains(status.out, "run gemm-20261122-031500: experiment")) << status.out << status.err;

  const auto report = from_outside("report gemm-20261122-031500 -o json --catalog " + kCatalog + file);
  EXPECT_EQ(report.exit_code, 0) << report.err;

  // A finished local run: nothing of it to stop, found through -f.
  const auto deleted = from_outside("delete mnist-20261122-040000" + file);
  EXPECT_EQ(deleted.exit_code, 0) << deleted.err;
  EXPECT_TRUE(contains(deleted.out, "run mnist-20261122-040000 ran locally: nothing of it runs any more")) << deleted.out;
}

TEST_F(CliConventions, WithoutAProjectFileCommandsSaySoOrLookHere) {
  const auto rendered = from_outside("render");
  EXPECT_EQ(rendered.exit_code, 2);
  EXPECT_TRUE(contains(rendered.err, "gkebuild.yaml")) << rendered.err;
  const auto runs = from_outside("runs");
  EXPECT_EQ(runs.exit_code, 0) << runs.err;
  EXPECT_EQ(runs.out, "");
}

TEST_F(CliConventions, LogsTakesFileLongOnlyBecauseDashFIsFollow) {
  const auto logs = from_outside("logs gemm-20261122-031500 --file p/gkebuild.yaml");
  EXPECT_EQ(logs.exit_code, 0) << logs.err;
  // -f is --follow (a flag): the project file after it is an unexpected argument.
  const auto dash_f = from_outside("logs gemm-20261122-031500 -f p/gkebuild.yaml");
  EXPECT_EQ(dash_f.exit_code, 2) << dash_f.err;
  // A finished run has nothing to follow: -f returns at once.
  const auto follow = from_outside("logs gemm-20261122-031500 -f --file p/gkebuild.yaml");
  EXPECT_EQ(follow.exit_code, 0) << follow.err;
}

TEST_F(CliConventions, ImageTakesTheDockerfileAsDockerfileOnly) {
  write_file_atomically(scratch / "ctx/Dockerfile", "FROM scratch\nCOPY nothing /x\n");
  const auto result = from_outside("image --dockerfile ctx/Dockerfile --context ctx --tag app:1 -o oci:layout");
  EXPECT_EQ(result.exit_code, 2) << result.err;
  // A positioned error with the offending line and a caret, without per-command conversion.
  EXPECT_TRUE(contains(result.err, "ctx/Dockerfile:2:")) << result.err;
  EXPECT_TRUE(contains(result.err, "\n  COPY nothing /x\n")) << result.err;
}

// Issue 40: a FIFO (or a character device) as the Dockerfile stopped `gkebuild image` for ever.
// Every input file a user names is read only when it is a regular file (or a symlink to one);
// anything else is refused at once (exit 2), naming it. `timeout` ends a command that waits. The
// one exception is a values file, a pipe when bash hands one over (`--values <(…)`): it is read
// (ValuesJson.ANamedPipeIsRead, and the process substitution below); a device never is.
TEST_F(CliConventions, InputFilesThatAreNoRegularFilesAreRefusedWithoutWaiting) {
  fs::create_directories(scratch / "ctx");
  ASSERT_EQ(::mkfifo((scratch / "fifo").c_str(), 0600), 0);
  ASSERT_EQ(::mkfifo((scratch / "ctx/Dockerfile").c_str(), 0600), 0);
  write_file_atomically(scratch / "t.j2", "x: 1\n");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"image --context ctx --tag app:1 -o oci:layout",
       "ctx/Dockerfile: error: cannot read the Dockerfile: is not a regular file"},
      {"image --dockerfile /dev/zero --context ctx --tag app:1 -o oci:layout",
       "cannot read the Dockerfile: is not a regular"},
      {"render -f fifo", "fifo: error: cannot read: is not a regular file (a FIFO, a device or a socket)"},
      {"render --template t.j2 --values /dev/zero", "/dev/zero: error: cannot read: is not a regular file"},
      {"render --template fifo", "fifo: error: cannot read: is not a regular file"},
      {"validate fifo", "fifo: is not a regular file"},
  };
  const auto without_waiting = [&](const std::string& arguments) {
    return run_command("cd " + shell_quoted(scratch.path().string()) + " && timeout 20 " + gkebuild_binary() + " " +
                       arguments + " </dev/null");
  };
  for (const auto& [arguments, message] : cases) {
    const auto result = without_waiting(arguments);
    EXPECT_EQ(result.exit_code, 2) << arguments << "\n" << result.err;
    EXPECT_TRUE(contains(result.err, message)) << arguments << "\n" << result.err;
  }
  // The project's .dockerignore, too.
  fs::remove(scratch / "ctx/Dockerfile");
  write_file_atomically(scratch / "ctx/Dockerfile", "FROM scratch\n");
  ASSERT_EQ(::mkfifo((scratch / "ctx/.dockerignore").c_str(), 0600), 0);
  const auto ignored = without_waiting("image --context ctx --tag app:1 -o oci:layout");
  EXPECT_EQ(ignored.exit_code, 2) << ignored.err;
  EXPECT_TRUE(contains(ignored.err, "ctx/.dockerignore: is not a regular file")) << ignored.err;
  // A values file from bash's process substitution is a pipe, and is read.
  const auto substituted = run_command("cd " + shell_quoted(scratch.path().string()) + " && timeout 20 bash -c " +
                                       shell_quoted(gkebuild_binary() + " render --template t.j2 --values <(echo 'a: 1')"));
  EXPECT_EQ(substituted.exit_code, 0) << substituted.err;
  EXPECT_EQ(substituted.out, "x: 1") << substituted.err;  // Jinja2 drops the last newline
}

// Issue 40: a file name is the user's bytes: a newline or an escape in a -f name is shown
// escaped in the message, never as a line of its own or a control sequence.
TEST_F(CliConventions, AFileNameWithControlCharactersIsEscapedInMessages) {
  const auto result = from_outside("render -f " + shell_quoted("bad\nname\x1b[2J.yaml"));
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_TRUE(contains(result.err, "bad\\x0aname\\x1b[2J.yaml: error: cannot read: no such file")) << result.err;
  EXPECT_FALSE(contains(result.err, "\x1b")) << result.err;
  EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
}

TEST_F(CliConventions, VersionIsCMakesProjectVersion) {
  const auto version = from_outside("version");
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_TRUE(version.out.starts_with(std::string("gkebuild ") + GKEBUILD_PROJECT_VERSION + "\n")) << version.out;
  const auto flag = from_outside("--version");
  EXPECT_EQ(flag.out, version.out);
}

// A command named on the command line is the only one gkebuild sets up (start-up time): each
// must answer to the name it is listed under (a registration under another name is an internal
// error that --help reports), and an unknown name still gets the full list.
TEST_F(CliConventions, EveryListedCommandAnswersToItsName) {
  const auto help = from_outside("--help");
  ASSERT_EQ(help.exit_code, 0);
  const auto list = help.out.find("Subcommands:\n");
  ASSERT_NE(list, std::string::npos) << help.out;
  std::istringstream lines(help.out.substr(list + 13));
  std::vector<std::string> names;
  for (std::string line; std::getline(lines, line) && line.starts_with("  ");) {
    std::istringstream words(line);
    names.emplace_back();
    words >> names.back();
  }
  EXPECT_EQ(names.size(), 17u) << help.out;  // init, pull, prune and the one main added
  for (const auto& name : names) {
    const auto own = from_outside(name + " --help");
    EXPECT_EQ(own.exit_code, 0) << name << ": " << own.all();
    EXPECT_TRUE(contains(own.out, " " + name + " [OPTIONS]")) << name << ": " << own.out;
  }
  const auto typo = from_outside("rendr");
  EXPECT_EQ(typo.exit_code, 2);
  EXPECT_TRUE(contains(typo.err, "unknown command 'rendr' (did you mean 'render'?)")) << typo.all();
}

// -o is one flag group: each data command checks the format against its own list the same way,
// and status prints run.json with -o json (--json stays as a hidden old spelling).
TEST_F(CliConventions, OutputFormatsAreOneFlagGroup) {
  for (const std::string& command :
       std::vector<std::string>{"validate x.yaml", "report gemm-20261122" + file, "status gemm-20261122" + file,
                                "push oci:x h/r"}) {
    const auto refused = from_outside(command + " -o yaml");
    EXPECT_EQ(refused.exit_code, 2) << command << ": " << refused.err;
    EXPECT_TRUE(contains(refused.err, "yaml")) << command << ": " << refused.err;
  }
  const auto json = from_outside("status gemm-20261122 --no-refresh -o json" + file);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(json.out.front(), '{') << json.out;
  EXPECT_EQ(from_outside("status gemm-20261122 --no-refresh --json" + file).out, json.out);
}

}  // namespace
}  // namespace gkebuild::testing
