#include <gtest/gtest.h>

#include <fstream>

#include "base/error.h"
#include "base/atomic_file.h"
#include "tests/common/temp_dir.h"
#include "tool/core/runrecord/run_store.h"

namespace gkebuild::runrecord {
namespace {

using testing::TempDir;

RunRecord sample_run() {
  RunRecord run;
  run.run = "gemm-20261122-031500";
  run.project = "gemm-compare";
  run.experiment = "gemm";
  run.context = "gke_acme_us-central1_gpu";
  run.namespace_name = "gemm-compare";
  run.created = *parse_timestamp("2026-11-22T03:15:00.123Z");
  run.images["gemm"] = "us-central1-docker.pkg.dev/acme/exp/gemm@sha256:ab";
  JobRecord job;
  job.name = "gemm-nvidia-l4-n4096-fp32-7f3a";
  job.accelerator = "nvidia-l4";
  job.gpus = 1;
  job.machine_type = "g2-standard-8";
  job.spot = true;
  job.parameters = {{"n", 4096}, {"precision", "fp32"}};
  job.state = JobState::succeeded;
  job.start = *parse_timestamp("2026-11-22T03:16:02.000Z");
  job.end = *parse_timestamp("2026-11-22T03:17:10.500Z");
  job.pods.push_back({"gemm-x7k2p", "gke-node-1", 0, job.start, job.end});
  run.jobs.push_back(job);
  JobRecord local;
  local.name = "gemm-cpu";
  local.machine_type = "local";
  local.state = JobState::failed;
  local.reason = "exit code 2";
  run.jobs.push_back(local);
  return run;
}

TEST(RunJson, TimestampsKeepMilliseconds) {
  auto when = parse_timestamp("2026-11-22T03:15:00.123Z");
  ASSERT_TRUE(when);
  EXPECT_EQ(format_timestamp(*when), "2026-11-22T03:15:00.123Z");
  EXPECT_EQ(format_timestamp(*parse_timestamp("2026-11-22T04:15:00+01:00")), "2026-11-22T03:15:00.000Z");
  EXPECT_FALSE(parse_timestamp("yesterday"));
}

TEST(RunJson, JobStatesByName) {
  EXPECT_EQ(parse_job_state("succeeded"), JobState::succeeded);
  EXPECT_EQ(to_string(JobState::running), "running");
  EXPECT_FALSE(parse_job_state("Succeeded"));
  EXPECT_EQ(parse_job_state("stopped"), JobState::stopped);
  EXPECT_EQ(to_string(JobState::stopped), "stopped");
}

// A local run names the gkebuild process running it until it has finished.
TEST(RunJson, TheRunnerOfALocalRunGoesAndComesBack) {
  TempDir dir;
  auto original = sample_run();
  original.target = "local";
  original.runner = LocalRunner{4242, 18446744073709551615ull};
  save_run(dir.path(), original);
  const auto loaded = load_run(dir.path());
  ASSERT_TRUE(loaded.runner);
  EXPECT_EQ(loaded.runner->pid, 4242);
  EXPECT_EQ(loaded.runner->start_ticks, 18446744073709551615ull);
  EXPECT_TRUE(to_json(sample_run())["runner"].is_null());
  auto document = to_json(original);
  document["runner"]["start_ticks"] = -1;
  EXPECT_THROW(run_from_json(document, "run.json"), SourceError);
}

TEST(RunJson, SaveThenLoadGivesTheSameRecord) {
  TempDir dir;
  auto original = sample_run();
  save_run(dir.path(), original);
  auto loaded = load_run(dir.path());
  EXPECT_EQ(to_json(loaded), to_json(original));
  ASSERT_EQ(loaded.jobs.size(), 2u);
  EXPECT_EQ(loaded.jobs[0].accelerator, "nvidia-l4");
  EXPECT_TRUE(loaded.jobs[0].spot);
  EXPECT_EQ(loaded.jobs[0].end, *parse_timestamp("2026-11-22T03:17:10.500Z"));
  EXPECT_EQ(loaded.jobs[0].pods.at(0).exit_code, 0);
  EXPECT_FALSE(loaded.jobs[1].accelerator);
  EXPECT_FALSE(loaded.jobs[1].start);
  EXPECT_EQ(loaded.jobs[1].state, JobState::failed);
  EXPECT_FALSE(loaded.finished);
}

// The secrets of a run are names only, and appear only in runs that have them.
TEST(RunJson, SecretNamesRoundTripAndOnlyWhenThere) {
  TempDir dir;
  auto original = sample_run();
  EXPECT_FALSE(to_json(original).contains("secrets"));
  original.secret = "demo-run-secret-env";
  original.secret_env = {"WANDB_API_KEY", "HF_TOKEN"};
  original.secret_refs = {"team-s3"};
  save_run(dir.path(), original);
  const auto loaded = load_run(dir.path());
  EXPECT_EQ(loaded.secret, "demo-run-secret-env");
  EXPECT_EQ(loaded.secret_env, original.secret_env);
  EXPECT_EQ(loaded.secret_refs, original.secret_refs);
  EXPECT_EQ(to_json(loaded)["secrets"],
            nlohmann::json({{"secret", "demo-run-secret-env"}, {"env", {"WANDB_API_KEY", "HF_TOKEN"}}, {"refs", {"team-s3"}}}));
  write_file_atomically(dir.path() / "run.json",
                        "{\"schema\": \"gkebuild.run.v1\", \"run\": \"r\", \"target\": \"cluster\", "
                        "\"created\": \"2026-11-22T03:15:00Z\", \"jobs\": [], \"secrets\": {\"env\": [1]}}");
  EXPECT_THROW(load_run(dir.path()), SourceError);
}

// The region a run is priced in (issue 43): written only when known, read back.
TEST(RunJson, RegionRoundTripsAndOnlyWhenThere) {
  TempDir dir;
  auto original = sample_run();
  EXPECT_FALSE(to_json(original).contains("region"));
  original.region = "europe-west4";
  save_run(dir.path(), original);
  EXPECT_EQ(load_run(dir.path()).region, "europe-west4");
  // Report notes name it: anything but a region's shape is refused, not echoed.
  write_file_atomically(dir.path() / "run.json",
                        "{\"schema\": \"gkebuild.run.v1\", \"run\": \"r\", \"target\": \"cluster\", "
                        "\"created\": \"2026-11-22T03:15:00Z\", \"jobs\": [], \"region\": \"eu\\u001b[31m\"}");
  EXPECT_THROW(load_run(dir.path()), SourceError);
}

// A search's algorithm, objective and stopping rule (issue 46), for the report; only in runs that have one.
TEST(RunJson, ASearchRoundTripsAndOnlyWhenThere) {
  TempDir dir;
  auto original = sample_run();
  EXPECT_FALSE(to_json(original).contains("search"));
  original.search = SearchRecord{"halving", "accuracy", false, "halving"};
  save_run(dir.path(), original);
  const auto loaded = load_run(dir.path());
  ASSERT_TRUE(loaded.search);
  EXPECT_EQ(loaded.search->algorithm, "halving");
  EXPECT_EQ(loaded.search->metric, "accuracy");
  EXPECT_FALSE(loaded.search->minimize);
  EXPECT_EQ(loaded.search->stopping, "halving");
  EXPECT_EQ(to_json(loaded)["search"],
            nlohmann::json({{"algorithm", "halving"}, {"objective", {{"metric", "accuracy"}, {"goal", "maximize"}}},
                            {"stopping", "halving"}}));
  original.search = SearchRecord{"random", "", true, ""};
  save_run(dir.path(), original);
  EXPECT_EQ(load_run(dir.path()).search->metric, "");
  EXPECT_TRUE(to_json(original)["search"]["objective"].is_null());
}

TEST(RunJson, WrittenFormatMatchesTheReadme) {
  auto document = to_json(sample_run());
  EXPECT_EQ(document["schema"], "gkebuild.run.v1");
  EXPECT_EQ(document["created"], "2026-11-22T03:15:00.123Z");
  EXPECT_TRUE(document["finished"].is_null());
  EXPECT_TRUE(document["jobs"][1]["accelerator"].is_null());
  EXPECT_EQ(document["jobs"][0]["state"], "succeeded");
  EXPECT_EQ(document["jobs"][0]["machine_type"], "g2-standard-8");
  EXPECT_EQ(document["jobs"][0]["pods"][0]["node"], "gke-node-1");
}

TEST(RunJson, UnknownFieldsAreIgnored) {
  auto document = to_json(sample_run());
  document["added_later"] = {1, 2};
  document["jobs"][0]["queue"] = "fast";
  EXPECT_EQ(run_from_json(document, "run.json").jobs.size(), 2u);
}

std::string load_error(const std::string& text) {
  TempDir dir;
  write_file_atomically(dir.path() / "run.json", text);
  try {
    load_run(dir.path());
  } catch (const SourceError& error) {
    std::string message = error.what();
    // The temporary folder differs per run; keep what follows it.
    return message.substr(message.find("run.json"));
  }
  return "no error";
}

TEST(RunJson, MalformedJsonIsNamedByLineAndColumn) {
  auto message = load_error("{\n  \"schema\": \"gkebuild.run.v1\",\n  \"run\": \"x\",,\n}\n");
  EXPECT_EQ(message.substr(0, message.find(": error")), "run.json:3:14") << message;
  // gkebuild wrote run.json itself: an error names the place, never quotes the line (issue 30).
  EXPECT_EQ(message.find("\"x\",,"), std::string::npos) << message;
  EXPECT_EQ(message.find("last read"), std::string::npos) << message;
}

// Issue 30: a checkout may plant .gkebuild/runs/R/run.json as a symlink to a secret.
TEST(RunJson, ARunJsonSymlinkIsRefusedUnread) {
  TempDir dir;
  dir.write("secret", "hunter2-line\n");
  std::filesystem::create_directories(dir / "run");
  std::filesystem::create_symlink(dir / "secret", dir / "run" / "run.json");
  std::string message = "no error";
  try {
    load_run(dir / "run");
  } catch (const Error& error) {
    message = error.what();
  }
  EXPECT_NE(message.find("run.json: leads outside"), std::string::npos) << message;
  EXPECT_EQ(message.find("hunter2"), std::string::npos) << message;
}

TEST(RunJson, TruncatedFileIsNamedAtItsEnd) {
  auto message = load_error("{\n  \"schema\": \"gkebuild.run.v1\",\n  \"run\": \"x");
  EXPECT_EQ(message.substr(0, message.find(": error")), "run.json:3:12") << message;
}

TEST(RunJson, WrongFieldsAreNamed) {
  auto document = to_json(sample_run());
  document["jobs"][0]["start"] = "soon";
  EXPECT_NE(load_error(document.dump()).find("jobs[0].start: expected an RFC 3339 time, got \"soon\""),
            std::string::npos);
  document = to_json(sample_run());
  document["jobs"][1]["state"] = "done";
  EXPECT_NE(load_error(document.dump()).find("jobs[1].state: expected pending"), std::string::npos);
  document = to_json(sample_run());
  document["schema"] = "gkebuild.run.v9";
  EXPECT_NE(load_error(document.dump()).find("schema: \"gkebuild.run.v9\" is not gkebuild.run.v1"),
            std::string::npos);
  document = to_json(sample_run());
  document["jobs"][0].erase("name");
  EXPECT_NE(load_error(document.dump()).find("jobs[0].name: missing"), std::string::npos);
  document = to_json(sample_run());
  document["jobs"][0]["gpus"] = "one";
  EXPECT_NE(load_error(document.dump()).find("jobs[0].gpus: expected an integer"), std::string::npos);
}

TEST(RunJson, MissingRunJsonIsAFailedOperation) {
  TempDir dir;
  EXPECT_THROW(load_run(dir.path()), gkebuild::Error);
}

}  // namespace
}  // namespace gkebuild::runrecord
