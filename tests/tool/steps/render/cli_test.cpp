// `gkebuild render` as a user runs it: output on stdout or in -o DIR, and every kind of
// bad input ends with a clear message, exit status 2 and no output files.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "base/atomic_file.h"
#include "tests/common/run.h"
#include "tests/common/temp_dir.h"

namespace gkebuild::testing {
namespace {

const std::string kExamples = std::string(GKEBUILD_SOURCE_ROOT) + "/examples";

class RenderCli : public ::testing::Test {
 protected:
  TempDir scratch;
  CommandResult render(const std::string& arguments) { return run_gkebuild("render " + arguments); }
  // A copy of the gemm-compare project with `from` replaced by `to` in its gkebuild.yaml.
  std::string project_with(const std::string& from, const std::string& to) {
    std::ifstream in(kExamples + "/gemm-compare/gkebuild.yaml");
    std::string text((std::istreambuf_iterator<char>(in)), {});
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
    write_file_atomically(scratch / "p/gkebuild.yaml", text);
    return (scratch / "p/gkebuild.yaml").string();
  }
  void expect_usage_error(const CommandResult& result, const std::string& words) {
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_NE(result.err.find(words), std::string::npos) << result.err;
    EXPECT_EQ(result.out, "");
  }
};

TEST_F(RenderCli, StdoutIsOneMultiDocumentStream) {
  const auto result = render("-f " + kExamples + "/gemm-compare/gkebuild.yaml --run-id r1");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  size_t separators = 0;
  for (size_t at = result.out.find("\n---\n"); at != std::string::npos; at = result.out.find("\n---\n", at + 1))
    ++separators;
  EXPECT_EQ(separators, 18u);  // namespace + 18 Jobs
  EXPECT_EQ(result.out.rfind("apiVersion: v1\nkind: Namespace\n", 0), 0u);
}

// A 1,000-point sweep's stream (megabytes, written in pieces) holds every Job once, in the
// order -o DIR names them, with "---" between documents.
TEST_F(RenderCli, ALargeStreamIsWrittenWholeAndInOrder) {
  const std::string project = std::string(GKEBUILD_SOURCE_ROOT) + "/bench/render/sweep-1000.yaml";
  const auto result = render("-f " + project + " --run-id r1");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  ASSERT_GT(result.out.size(), std::size_t{1} << 20);
  std::vector<std::string> documents;
  for (std::size_t start = 0; start < result.out.size();) {
    const std::size_t separator = result.out.find("\n---\n", start);
    const std::size_t end = separator == std::string::npos ? result.out.size() : separator + 1;
    documents.push_back(result.out.substr(start, end - start));
    start = separator == std::string::npos ? end : separator + 5;
  }
  ASSERT_EQ(documents.size(), 1001u);  // the Namespace and 1,000 Jobs
  const auto out = scratch / "out";
  ASSERT_EQ(render("-f " + project + " --run-id r1 -o " + out.string()).exit_code, 0);
  std::size_t jobs = 0;
  for (const auto& document : documents) {
    if (document.find("\nkind: Job\n") == std::string::npos) continue;
    const auto file_name = "job-sweep-nvidia-l4-" + std::to_string(jobs++) + ".yaml";
    std::ifstream file(out / file_name);
    const std::string written((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    EXPECT_EQ(written, document) << file_name;
  }
  EXPECT_EQ(jobs, 1000u);
}

// Dockerfiles and manifests cannot share stdout; nothing is written before that is known.
TEST_F(RenderCli, DockerfilesAndManifestsTogetherNeedAnOutputDir) {
  const auto result = render("-f " + kExamples + "/mnist/gkebuild.yaml --run-id r1 image/trainer namespace");
  EXPECT_NE(result.exit_code, 0);
  EXPECT_EQ(result.out, "");
  EXPECT_NE(result.err.find("Dockerfiles and manifests together need -o DIR"), std::string::npos) << result.err;
}

TEST_F(RenderCli, OutputDirHasOneFilePerObjectAndTheDockerfiles) {
  const auto out = scratch / "out";
  const auto result = render("-f " + kExamples + "/mnist/gkebuild.yaml --run-id r1 -o " + out.string());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(std::filesystem::exists(out / "job-train-nvidia-l4-1.yaml"));
  EXPECT_TRUE(std::filesystem::exists(out / "Dockerfile.trainer"));
  EXPECT_TRUE(std::filesystem::exists(out / "daemonset-nvidia-driver-installer.yaml"));
  EXPECT_TRUE(std::filesystem::exists(out / "deployment-nfs-server.yaml"));
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(scratch.path())) files += entry.path() != out;
  EXPECT_EQ(files, 0u) << "the staging folder was left behind";
  // Dockerfile, Namespace, driver installer, 5 NFS objects, 4 accelerators x 2 learning rates.
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(out), {}), 1 + 1 + 1 + 5 + 8);
}

// Issue 40: a project's own template named an object `a/../../../ESCAPED`, and `render -o DIR`
// wrote its file outside DIR. Names are checked by Kubernetes' rules for their kind (and the
// kind's own name) before any file is named after them; nothing is written.
TEST_F(RenderCli, AnObjectNameThatIsNoKubernetesNameNamesNoFile) {
  const std::string project = project_with("project: ", "project: ");
  std::ifstream in(std::string(GKEBUILD_SOURCE_ROOT) + "/templates/job.yaml.j2");
  const std::string job((std::istreambuf_iterator<char>(in)), {});
  const auto out = scratch / "a/b/out";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"kind: ConfigMap\nmetadata:\n  name: a/../../../ESCAPED-{{ name }}\n",
       "metadata.name 'a/../../../ESCAPED-gemm-"},
      {"kind: ConfigMap\nmetadata:\n  name: a/../../../ESCAPED-{{ name }}\n", "a ConfigMap name is a DNS-1123 subdomain"},
      {"kind: Service\nmetadata:\n  name: has.dot-{{ name }}\n", "a Service name is a DNS-1123 label"},
      {"kind: ../../../ESCAPED\nmetadata:\n  name: x-{{ name }}\n", "kind '../../../ESCAPED' is not a kind's name"},
      {"kind: ConfigMap\nmetadata:\n  name: " + std::string(64, 'j') + "-{{ name }}\n", ""},  // long is fine
      {"kind: Job\nmetadata:\n  name: " + std::string(64, 'j') + "-{{ name }}\n",
       "a Job name is a DNS-1123 subdomain of at most 63"},
  };
  for (const auto& [object, message] : cases) {
    write_file_atomically(scratch / "p/templates/job.yaml.j2", job + "\n---\napiVersion: v1\n" + object);
    const auto result = render("-f " + project + " --run-id r1 -o " + out.string());
    std::filesystem::remove_all(out);
    if (message.empty()) {
      EXPECT_EQ(result.exit_code, 0) << result.err;
      continue;
    }
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_TRUE(result.err.starts_with("job.yaml.j2")) << result.err;  // the template, where it is known
    EXPECT_NE(result.err.find("the rendered object cannot be written"), std::string::npos) << result.err;
    EXPECT_NE(result.err.find(message), std::string::npos) << result.err;
    EXPECT_FALSE(std::filesystem::exists(out));
  }
  for (const auto& entry : std::filesystem::recursive_directory_iterator(scratch.path()))
    EXPECT_EQ(entry.path().string().find("ESCAPED"), std::string::npos) << "written outside -o DIR: " << entry.path();
}

// Rendered files may carry secrets passed with --set: they get the mode the user's umask allows.
TEST_F(RenderCli, OutputFilesHonourTheUmask) {
  const auto out = scratch / "out";
  const auto result = run_command("umask 077; " + gkebuild_binary() + " render -f " + kExamples +
                                  "/mnist/gkebuild.yaml --run-id r1 -o " + shell_quoted(out.string()));
  ASSERT_EQ(result.exit_code, 0) << result.err;
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(out)) {
    struct stat st {};
    ASSERT_EQ(::stat(entry.path().c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u) << entry.path();
    ++files;
  }
  EXPECT_GT(files, 0u);
}

TEST_F(RenderCli, ErrorLeavesNoOutputFiles) {
  const auto project = project_with("\"--reps\", \"20\"", "\"--reps\", \"{{ missing_variable }}\"");
  const auto out = scratch / "out";
  const auto result = render("-f " + project + " -o " + out.string());
  expect_usage_error(result, "missing_variable");
  EXPECT_FALSE(std::filesystem::exists(out));
  for (const auto& entry : std::filesystem::directory_iterator(scratch.path()))
    EXPECT_EQ(entry.path().filename(), "p") << "left behind: " << entry.path();
}

// Issue 30: a checkout under review plants `.gkebuild/images.json -> /proc/self/environ`; the
// read-only render CI runs on it must refuse the file, not print the environment.
TEST_F(RenderCli, APlantedPinFileSymlinkNeverPrintsTheEnvironment) {
  const std::string project = project_with("project: ", "project: ");
  std::filesystem::create_directories(scratch / "p/.gkebuild");
  std::filesystem::create_symlink("/proc/self/environ", scratch / "p/.gkebuild/images.json");
  const auto result = run_command("GKEBUILD_RENDER_TEST_SECRET=hunter2-token " + gkebuild_binary() + " render -f " +
                                  project + " --run-id r1");
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_EQ(result.all().find("hunter2-token"), std::string::npos) << result.all();
  EXPECT_NE(result.err.find("images.json: leads outside"), std::string::npos) << result.err;
}

TEST_F(RenderCli, MissingProjectFile) {
  expect_usage_error(render("-f " + (scratch / "none.yaml").string()), "none.yaml: error: cannot read: no such file");
}

TEST_F(RenderCli, BrokenYaml) {
  expect_usage_error(render("-f " + project_with("    cpu: 4\n", "    cpu: 4\n   oops: 1\n")),
                     "gkebuild.yaml:36:4: error: invalid YAML: end of map not found");
}

TEST_F(RenderCli, UnknownKey) {
  expect_usage_error(render("-f " + project_with("    spot: true", "    spto: true")),
                     "gkebuild.yaml:37:5: error: unknown key 'spto' in experiment 'gemm' (did you mean 'spot'?)");
}

TEST_F(RenderCli, WrongType) {
  expect_usage_error(render("-f " + project_with("gpus: 1", "gpus: one")),
                     "gkebuild.yaml:34:11: error: experiment 'gemm'.gpus: expected an integer");
}

TEST_F(RenderCli, UndefinedVariableInATemplate) {
  write_file_atomically(scratch / "t.j2", "a: {{ defined }}\nb: {{ undefined_name }}\n");
  write_file_atomically(scratch / "v.yaml", "defined: 1\n");
  const auto result = render("--template " + (scratch / "t.j2").string() + " --values " + (scratch / "v.yaml").string());
  expect_usage_error(result, "undefined_name");
  EXPECT_NE(result.err.find("t.j2:2"), std::string::npos) << result.err;
  const auto lenient = render("--template " + (scratch / "t.j2").string() + " --undefined=lenient --set defined=x");
  EXPECT_EQ(lenient.exit_code, 0) << lenient.err;
  EXPECT_EQ(lenient.out, "a: x\nb: ");
}

// Output goes on in 64 KiB pieces while the render runs; stdout still gets nothing when the
// render fails after many pieces, and everything, in order, when it succeeds.
TEST_F(RenderCli, LargeOutputIsWholeOrNothing) {
  write_file_atomically(scratch / "t.j2",
                        "{% for i in range(n) %}line {{ i }} of a long render\n{% endfor %}{{ last }}");
  const std::string t = "--template " + (scratch / "t.j2").string() + " --set n=20000";
  expect_usage_error(render(t), "'last' is undefined");
  const auto ok = render(t + " --set last=end");
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  std::string expected;
  for (int i = 0; i < 20000; ++i) expected += "line " + std::to_string(i) + " of a long render\n";
  EXPECT_EQ(ok.out, expected + "end");
}

// Where stdout is a regular file the pieces go there as they are rendered (cli/held_stdout.h),
// and a render that fails after many pieces cuts the file back to what it held before: empty
// after `>`, the earlier text after `>>` or when writing on after it (`{ echo; gkebuild; } >`).
// 100,000 lines: 3.4 MB, several batches for the writer thread and more than it may queue.
TEST_F(RenderCli, FileOnStdoutIsCutBackWhenTheRenderFails) {
  write_file_atomically(scratch / "t.j2",
                        "{% for i in range(n) %}line {{ i }} of a long render\n{% endfor %}{{ last }}");
  const std::string t = "render --template " + (scratch / "t.j2").string() + " --set n=100000";
  const std::string out = shell_quoted((scratch / "out.txt").string());
  const auto read_out = [&] {
    std::ifstream in(scratch / "out.txt", std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), {});
  };
  for (const std::string& redirect : {" > " + out, " >> " + out}) {
    write_file_atomically(scratch / "out.txt", "before\n");
    const auto failed = run_command(gkebuild_binary() + " " + t + redirect);
    EXPECT_EQ(failed.exit_code, 2) << failed.err;
    EXPECT_NE(failed.err.find("'last' is undefined"), std::string::npos) << failed.err;
    EXPECT_EQ(read_out(), redirect.starts_with(" >>") ? "before\n" : "") << redirect;
  }
  const auto failed_after_text = run_command("{ echo before; " + gkebuild_binary() + " " + t + "; } > " + out);
  EXPECT_EQ(failed_after_text.exit_code, 2) << failed_after_text.err;
  EXPECT_EQ(read_out(), "before\n");
  const auto ok = run_command("{ echo before; " + gkebuild_binary() + " " + t + " --set last=end; } > " + out);
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  std::string expected = "before\n";
  for (int i = 0; i < 100000; ++i) expected += "line " + std::to_string(i) + " of a long render\n";
  EXPECT_EQ(read_out(), expected + "end");
}

// A write that fails on the writer thread (here: the file size limit, with SIGXFSZ ignored so
// that write() says EFBIG) fails the command with the reason, and the file is cut back.
TEST_F(RenderCli, AFailedWriteToTheFileOnStdoutFailsTheRender) {
  write_file_atomically(scratch / "t.j2", "{% for i in range(n) %}line {{ i }} of a long render\n{% endfor %}");
  const std::string out = shell_quoted((scratch / "out.txt").string());
  const auto failed = run_command("trap '' XFSZ; ulimit -f 1024; " + gkebuild_binary() + " render --template " +
                                  shell_quoted((scratch / "t.j2").string()) + " --set n=100000 > " + out);
  EXPECT_EQ(failed.exit_code, 1) << failed.err;
  EXPECT_NE(failed.err.find("cannot write to stdout: File too large"), std::string::npos) << failed.err;
  EXPECT_EQ(std::filesystem::file_size(scratch / "out.txt"), 0u);
}

// --jobs: a long loop rendered on several threads (jinja::Options::loop_threads) gives the same
// bytes as one thread, on a pipe and in a file, and fails the same way where an item fails.
TEST_F(RenderCli, JobsSplitALongLoopWithoutChangingTheOutput) {
  std::string values = "{\"jobs\": [";
  for (int i = 0; i < 5000; ++i)
    values += (i ? "," : "") + std::string("{\"name\": \"job-") + std::to_string(i) + "\", \"gpus\": " +
              std::to_string(1 << (i % 4)) + (i == 4000 ? "" : ", \"zone\": \"z\"") + "}";
  write_file_atomically(scratch / "values.json", values + "]}");
  write_file_atomically(scratch / "t.j2",
                        "{% for job in jobs %}- {{ loop.index }}/{{ loop.length }} {{ job.name }} x{{ job.gpus }}"
                        "{% if zone is defined %} {{ job.zone }}{% endif %}\n{% endfor %}");
  const std::string t = gkebuild_binary() + " render --template " + shell_quoted((scratch / "t.j2").string()) +
                        " --values " + shell_quoted((scratch / "values.json").string());
  const auto read = [&](const char* name) {
    std::ifstream in(scratch / name, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), {});
  };
  const auto one = run_command(t + " -j 1 > " + shell_quoted((scratch / "one.txt").string()));
  const auto file = run_command(t + " -j 3 > " + shell_quoted((scratch / "file.txt").string()));
  const auto pipe = run_command(t + " -j 3 | cat > " + shell_quoted((scratch / "pipe.txt").string()));
  ASSERT_EQ(one.exit_code, 0) << one.err;
  ASSERT_EQ(file.exit_code, 0) << file.err;
  ASSERT_EQ(pipe.exit_code, 0) << pipe.err;
  EXPECT_NE(read("one.txt").find("- 5000/5000 job-4999 x8\n"), std::string::npos);
  EXPECT_TRUE(read("file.txt") == read("one.txt"));
  EXPECT_TRUE(read("pipe.txt") == read("one.txt"));

  const auto failed_one = run_command(t + " --set zone=1 -j 1 > " + shell_quoted((scratch / "one.txt").string()));
  const auto failed_split = run_command(t + " --set zone=1 -j 3 > " + shell_quoted((scratch / "file.txt").string()));
  EXPECT_EQ(failed_one.exit_code, 2);
  EXPECT_EQ(failed_split.exit_code, 2);
  EXPECT_NE(failed_one.err.find("zone"), std::string::npos) << failed_one.err;
  EXPECT_EQ(failed_split.err, failed_one.err);
  EXPECT_EQ(read("file.txt"), "");
  EXPECT_NE(run_command(t + " -j 0").err.find("--jobs"), std::string::npos);
}

// --jobs caps a project render's threads too: the same stream on one thread as on several.
TEST_F(RenderCli, JobsCapAProjectRenderWithoutChangingIt) {
  const std::string project = "-f " + kExamples + "/mnist/gkebuild.yaml --run-id r1";
  const auto all = render(project);
  ASSERT_EQ(all.exit_code, 0) << all.err;
  for (const char* jobs : {" -j 1", " -j 3"}) {
    const auto capped = render(project + jobs);
    ASSERT_EQ(capped.exit_code, 0) << capped.err;
    EXPECT_EQ(capped.out, all.out) << jobs;
  }
}

// A slice of a long list inside a loop over it reads only the items it takes: it copied the
// whole list each time, so 300,000 items took hours (quadratic); now well under a second. The
// 60-second bound is a hang guard, not a timing.
TEST_F(RenderCli, SlicesOfALongListInsideItsLoopDoNotHang) {
  std::string values = "{\"xs\": [";
  for (int i = 0; i < 300000; ++i) values += (i ? "," : "") + std::to_string(i);
  write_file_atomically(scratch / "values.json", values + "]}");
  write_file_atomically(scratch / "t.j2", "{% for x in xs %}{{ xs[1:3] | sum }}{% endfor %}");
  const auto result = run_command("timeout 60 " + gkebuild_binary() + " render --template " +
                                  shell_quoted((scratch / "t.j2").string()) + " --values " +
                                  shell_quoted((scratch / "values.json").string()) + " > " +
                                  shell_quoted((scratch / "out.txt").string()));
  ASSERT_EQ(result.exit_code, 0) << result.err;
  std::ifstream in(scratch / "out.txt", std::ios::binary);
  EXPECT_TRUE(std::string((std::istreambuf_iterator<char>(in)), {}) == std::string(300000, '3'));
}

TEST_F(RenderCli, TemplateSyntaxError) {
  write_file_atomically(scratch / "t.j2", "line one\n{% if %}\n{% endif %}\n");
  const auto result = render("--template " + (scratch / "t.j2").string());
  expect_usage_error(result, "t.j2:2");
}

TEST_F(RenderCli, IncludeCycle) {
  write_file_atomically(scratch / "a.j2", "a {% include 'b.j2' %}");
  write_file_atomically(scratch / "b.j2", "b {% include 'a.j2' %}");
  expect_usage_error(render("--template " + (scratch / "a.j2").string()), "a.j2");
}

TEST_F(RenderCli, FiftyMegabyteValuesFile) {
  const auto big = scratch / "big.yaml";
  std::filesystem::resize_file((std::ofstream(big), big), 50u << 20);
  write_file_atomically(scratch / "t.j2", "x");
  expect_usage_error(render("--template " + (scratch / "t.j2").string() + " --values " + big.string()),
                     "at most 16 MiB");
}

TEST_F(RenderCli, TemplateModeMatchesJ2cliOptions) {
  write_file_atomically(scratch / "t.j2", "{% for x in xs %}\n  {{ x }}\n{% endfor %}\n");
  const auto result = render("--template " + (scratch / "t.j2").string() +
                             " --set xs=1 --trim-blocks --lstrip-blocks --keep-trailing-newline");
  // xs is the scalar 1: iterating over it is a type error, reported like any other.
  EXPECT_EQ(result.exit_code, 2) << result.out;
  write_file_atomically(scratch / "v.json", "{\"xs\": [1, \"two\"]}");
  const auto ok = render("--template " + (scratch / "t.j2").string() + " --values " + (scratch / "v.json").string() +
                         " --trim-blocks --lstrip-blocks --keep-trailing-newline");
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(ok.out, "  1\n  two\n");
}

// Hostile values files (issue 15): a recursive alias crashed the YAML converter, and a
// 600-byte billion-laughs document took gigabytes.
TEST_F(RenderCli, RecursiveAliasInValues) {
  write_file_atomically(scratch / "t.j2", "{{ x }}");
  write_file_atomically(scratch / "v.yaml", "x: &a [*a]\n");
  expect_usage_error(
      render("--template " + (scratch / "t.j2").string() + " --values " + (scratch / "v.yaml").string()),
      "v.yaml:1:8: error: recursive alias *a");
}

TEST_F(RenderCli, BillionLaughsInValues) {
  std::string text = "a0: &a0 [lol]\n";
  for (int level = 1; level <= 9; ++level) {
    text += "a" + std::to_string(level) + ": &a" + std::to_string(level) + " [";
    for (int i = 0; i < 10; ++i) text += (i ? ", *a" : "*a") + std::to_string(level - 1);
    text += "]\n";
  }
  write_file_atomically(scratch / "t.j2", "{{ a9 | tojson }}");
  write_file_atomically(scratch / "v.yaml", text);
  expect_usage_error(render("--template " + (scratch / "t.j2").string() + " --values " + (scratch / "v.yaml").string()),
                     "aliases expand to more than 1000000 nodes");
}

TEST_F(RenderCli, ValuesFilesMergeInOrderThenSets) {
  write_file_atomically(scratch / "t.j2", "{{ a | tojson }} {{ b }}");
  write_file_atomically(scratch / "one.json", "{\"a\": {\"x\": 1, \"y\": [1]}, \"b\": \"one\"}");
  write_file_atomically(scratch / "two.yaml", "a:\n  y: [2]\n  z: true\n");
  const auto result = render("--template " + (scratch / "t.j2").string() + " --values " +
                             (scratch / "one.json").string() + " --values " + (scratch / "two.yaml").string() +
                             " --set a.x=3 --set b=two");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "{\"x\": 3, \"y\": [2], \"z\": true} two");
}

TEST_F(RenderCli, UnknownTargetSuggests) {
  expect_usage_error(render("-f " + kExamples + "/gemm-compare/gkebuild.yaml gmm"), "did you mean 'gemm'");
}

}  // namespace
}  // namespace gkebuild::testing
