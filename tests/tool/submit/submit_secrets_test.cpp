// Secrets end to end: an experiment's secretEnv (WANDB_API_KEY) and an image's build secret
// (a package index token) go from the submitter's environment to the Job and to one RUN, with
// the user's consent on the command line (--secret-env, --secret) and never without it, and
// afterwards no file the build and the run wrote holds either value: the project folder (its
// OCI layout, the RUN step's cache, the run record), $HOME, $XDG_CACHE_HOME and the registry's
// storage are searched, layer blobs decompressed, and so is what `logs`, `status` and `report`
// print. The image is built by the RUN executor under runc and pushed to a
// real docker-registry; the Jobs run on the Kubernetes test server (a stand-in), whose kubelet
// resolves secretKeyRef from the Secret it stores.
#include <unistd.h>

#include <cstdlib>
#include <map>

#include "base/base64.h"
#include "submit_fixture.h"
#include "tests/common/leak_search.h"
#include "tests/registry/harness.h"
#include "tests/tool/steps/run_step/busybox_base.h"
#include "tool/core/kube/objects.h"

namespace gkebuild::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kWandbKey = "wandb-7c1e0f3a9b2d4e6f8a0b1c2d3e4f5a6b";
constexpr const char* kPipToken = "pip-token-Zq8xW3vR5tY7uI9o";
constexpr const char* kConsent = " --secret-env WANDB_API_KEY --secret id=pip,env=PIP_INDEX_TOKEN";

std::string sha256_of(const std::string& text) {
  return run_command("printf %s " + shell_quoted(text) + " | sha256sum | cut -c1-64").out.substr(0, 64);
}

class SubmitSecretsTest : public SubmitFixture {
 protected:
  void SetUp() override {
    SubmitFixture::SetUp();
    json run = auto_run();
    run["lines"] = {"key=$(WANDB_API_KEY)", "done"};  // the stand-in's kubelet resolves the secretKeyRef
    server.control("config", {{"auto", run}});
    write_base();
    write_project();
    ::setenv("WANDB_API_KEY", kWandbKey, 1);
    ::setenv("PIP_INDEX_TOKEN", kPipToken, 1);
    // gkebuild's own $HOME and $XDG_CACHE_HOME, which the search reads too.
    for (const char* name : {"HOME", "XDG_CACHE_HOME"})
      if (const char* value = std::getenv(name)) saved_[name] = value;
    ::setenv("HOME", home.path().c_str(), 1);
    ::setenv("XDG_CACHE_HOME", cache.path().c_str(), 1);
  }
  void TearDown() override {
    ::unsetenv("WANDB_API_KEY");
    ::unsetenv("PIP_INDEX_TOKEN");
    for (const char* name : {"HOME", "XDG_CACHE_HOME"})
      saved_.count(name) ? ::setenv(name, saved_[name].c_str(), 1) : ::unsetenv(name);
  }

  // A busybox image to build on, outside the project folder.
  void write_base() {
    auto layout = std::make_shared<oci::Layout>(oci::Layout::open_or_create(scratch.path() / "base"));
    const auto image =
        run_step::testing::with_layer({}, run_step::testing::busybox_entries(scratch.path() / "files"), layout);
    run_step::testing::tag_image(*layout, image, "base");
  }

  // Each RUN fails unless the secret arrived: it compares the value's hash, so the Dockerfile
  // holds no value either.
  void write_project() {
    const std::string hash = sha256_of(kPipToken);
    std::ofstream(project.path() / "Dockerfile")
        << "FROM oci:" << (scratch.path() / "base").string() << ":base\n"
        << "RUN --mount=type=secret,id=pip,required test \"$(sha256sum /run/secrets/pip | cut -c1-64)\" = " << hash
        << " && echo checked > /pip-checked\n"
        << "RUN --mount=type=secret,id=pip,env=PIP_SECRET test \"$(printf %s \"$PIP_SECRET\" | sha256sum | cut -c1-64)\" = "
        << hash << " && test ! -e /run/secrets/pip\n";
    std::ofstream(project.path() / "gkebuild.yaml")
        << "apiVersion: gkebuild/v1\nproject: tracked\nregistry: " << registry.host() << "/exp\n"
        << "cluster: {namespace: tracked}\n"
        << "images:\n  trainer:\n    dockerfile: Dockerfile\n    secrets:\n      - {id: pip, env: PIP_INDEX_TOKEN}\n"
        << "experiments:\n  train:\n    image: trainer\n    command: [/bin/true, \"{{ n | default(0) }}\"]\n    accelerators: [nvidia-l4]\n"
        << "    secretEnv: [WANDB_API_KEY]\n    secretRefs: [team-s3]\n";
  }

  json secrets() { return server_list("/api/v1/namespaces/tracked/secrets")["items"]; }

  std::vector<std::string> leaks() {
    const std::vector<std::string> needles = {kWandbKey, kPipToken, base64_encode(kWandbKey), base64_encode(kPipToken)};
    auto found = files_holding(project.path(), needles);
    for (const auto& root : {scratch.path() / "reg", home.path(), cache.path()})
      for (const auto& more : files_holding(root, needles)) found.push_back(more);
    const std::string kube = "KUBECONFIG=" + shell_quoted(kubeconfig.string());
    for (const auto& more : shown_holding(project.path(), kube, needles)) found.push_back(more);
    return found;
  }

  TempDir scratch;
  TempDir home;
  TempDir cache;
  std::map<std::string, std::string> saved_;
  Registry registry{scratch.path() / "reg", {}};
};

TEST_F(SubmitSecretsTest, AMissingSecretIsRefusedBeforeAnythingStarts) {
  // Without consent the project file's names take nothing from this environment.
  const auto no_consent = gkebuild("submit train");
  EXPECT_EQ(no_consent.exit_code, 2) << no_consent.err;
  EXPECT_NE(no_consent.err.find("gkebuild.yaml:15:17: error: experiment 'train'.secretEnv: WANDB_API_KEY: gkebuild "
                                "passes a variable of this environment to the Jobs only when the command line names it"),
            std::string::npos)
      << no_consent.err;
  const auto no_build_consent = gkebuild("submit train --secret-env WANDB_API_KEY");
  EXPECT_EQ(no_build_consent.exit_code, 2) << no_build_consent.err;
  EXPECT_NE(no_build_consent.err.find("image 'trainer'.secrets: 'pip' comes from the variable PIP_INDEX_TOKEN, which "
                                      "gkebuild reads only when the command line names it; add --secret "
                                      "id=pip,env=PIP_INDEX_TOKEN"),
            std::string::npos)
      << no_build_consent.err;
  ::unsetenv("WANDB_API_KEY");
  const auto no_run_secret = gkebuild(std::string("submit train") + kConsent);
  EXPECT_EQ(no_run_secret.exit_code, 2) << no_run_secret.err;
  EXPECT_NE(no_run_secret.err.find("gkebuild.yaml:15:17: error: experiment 'train'.secretEnv: WANDB_API_KEY is not set"),
            std::string::npos)
      << no_run_secret.err;
  ::setenv("WANDB_API_KEY", kWandbKey, 1);
  ::unsetenv("PIP_INDEX_TOKEN");
  const auto no_build_secret = gkebuild(std::string("submit train") + kConsent);
  EXPECT_EQ(no_build_secret.exit_code, 2) << no_build_secret.err;
  EXPECT_NE(no_build_secret.err.find("--secret id=pip: the variable PIP_INDEX_TOKEN is not set"),
            std::string::npos)
      << no_build_secret.err;
  ::setenv("PIP_INDEX_TOKEN", kPipToken, 1);  // --secret is read first, in the command line's own step
  const auto flag = gkebuild(std::string("submit train --secret-env HF_TOKEN") + kConsent);
  EXPECT_EQ(flag.exit_code, 2) << flag.err;
  EXPECT_NE(flag.err.find("--secret-env HF_TOKEN is not set"), std::string::npos) << flag.err;
  // Nothing was built, recorded, created or applied.
  EXPECT_FALSE(fs::exists(project.path() / ".gkebuild" / "oci"));
  EXPECT_FALSE(fs::exists(project.path() / ".gkebuild" / "runs"));
  EXPECT_TRUE(job_names("tracked").empty());
  EXPECT_TRUE(secrets().empty());
}

// Every Job owns the run's Secret, so a run with secretEnv is held to kMostSecretOwners Jobs:
// a bigger sweep is refused before anything is built, pointing at Indexed Jobs.
TEST_F(SubmitSecretsTest, TooManyJobsForTheSecretsOwnersIsRefusedFirst) {
  std::string points;
  for (int n = 0; n <= 2000; ++n) points += (n ? "," : "") + std::to_string(n);
  const auto outcome = gkebuild("submit train --no-check --sweep n=" + points + kConsent);
  EXPECT_EQ(outcome.exit_code, 2) << outcome.err;
  EXPECT_NE(outcome.err.find("a run with secretEnv has at most 2000 Jobs (each owns the run's Secret), and this one "
                             "has 2001; run the sweep as Indexed Jobs"),
            std::string::npos)
      << outcome.err;
  EXPECT_FALSE(fs::exists(project.path() / ".gkebuild" / "oci"));
  EXPECT_TRUE(secrets().empty());
}

TEST_F(SubmitSecretsTest, TheValuesReachTheRunAndTheRunAndNoFileHoldsThem) {
  // The refusals above come before any RUN and need no root; this build does.
  if (::geteuid() != 0) GTEST_SKIP() << "the image's RUN steps need root (runc, overlayfs)";
  const auto outcome = gkebuild(std::string("submit train") + kConsent);
  ASSERT_EQ(outcome.exit_code, 0) << outcome.out << outcome.err;
  // The container printed exactly the value (the stand-in resolved $(WANDB_API_KEY) from the
  // Secret); gkebuild shows and keeps it masked.
  EXPECT_NE(outcome.out.find("key=***"), std::string::npos) << outcome.out;
  const fs::path run = only_run();
  const std::string log = KubeTestServer::read(run / "logs" / (job_names("tracked").at(0) + ".log"));
  EXPECT_NE(log.find("key=***"), std::string::npos) << log;

  const json items = secrets();
  ASSERT_EQ(items.size(), 1u);
  const json& secret = items[0];
  const std::string run_id = secret["metadata"]["labels"]["gkebuild.io/run"];
  EXPECT_EQ(secret["type"], "Opaque");
  EXPECT_EQ(secret["data"]["WANDB_API_KEY"], base64_encode(kWandbKey));
  EXPECT_EQ(secret["metadata"]["labels"]["gkebuild.io/project"], "tracked");
  const json jobs = server_list("/apis/batch/v1/namespaces/tracked/jobs")["items"];
  ASSERT_EQ(jobs.size(), 1u);
  ASSERT_EQ(secret["metadata"]["ownerReferences"].size(), 1u);
  EXPECT_EQ(secret["metadata"]["ownerReferences"][0]["uid"], jobs[0]["metadata"]["uid"]);
  EXPECT_EQ(secret["metadata"]["ownerReferences"][0]["kind"], "Job");
  const json env = jobs[0]["spec"]["template"]["spec"]["containers"][0]["env"];
  const json& reference = env.back();
  EXPECT_EQ(reference["name"], "WANDB_API_KEY");
  EXPECT_EQ(reference["valueFrom"]["secretKeyRef"]["name"], secret["metadata"]["name"]);
  EXPECT_FALSE(reference.contains("value"));
  EXPECT_EQ(jobs[0]["spec"]["template"]["spec"]["containers"][0]["envFrom"],
            json::parse(R"([{"secretRef": {"name": "team-s3"}}])"));
  const json record = run_json(run);
  EXPECT_EQ(record["secrets"]["secret"], secret["metadata"]["name"]);
  EXPECT_EQ(record["secrets"]["env"], json::array({"WANDB_API_KEY"}));

  // No value in any file of the project (layout, RUN cache, run record) or the registry.
  EXPECT_GT(files_under(project.path() / ".gkebuild"), 10u);
  EXPECT_GT(files_under(scratch.path() / "reg"), 3u);
  EXPECT_EQ(leaks(), std::vector<std::string>());
  for (const std::string value : {kWandbKey, kPipToken})
    EXPECT_EQ((outcome.out + outcome.err).find(value), std::string::npos);

  // --dry-run prints the reference and names the Secret; the server checks it with dryRun=All.
  const auto dry = gkebuild("submit train --dry-run --no-build --secret-env WANDB_API_KEY");
  EXPECT_EQ(dry.exit_code, 0) << dry.err;
  EXPECT_NE(dry.out.find("secretKeyRef:"), std::string::npos) << dry.out;
  EXPECT_NE(dry.err.find("keys WANDB_API_KEY, from this environment) would be applied before the Jobs; its values are "
                         "not shown"),
            std::string::npos)
      << dry.err;
  EXPECT_EQ((dry.out + dry.err).find(kWandbKey), std::string::npos);
  EXPECT_EQ((dry.out + dry.err).find(base64_encode(kWandbKey)), std::string::npos);
  ASSERT_EQ(secrets().size(), 1u);  // the dry run stored nothing

  // The Secret goes with its last Job (the garbage collector, by ownerReferences)...
  kube::Client client(server.access("    client-certificate: client.crt\n    client-key: client.key\n"));
  kube::remove(client, kube::resource_type("batch/v1", "Job"), "tracked", jobs[0]["metadata"]["name"].get<std::string>());
  EXPECT_TRUE(secrets().empty());
  // ...and with `gkebuild delete RUN`, whatever its Jobs' state.
  const auto detached = gkebuild("submit train --no-build --detach --secret-env WANDB_API_KEY");
  ASSERT_EQ(detached.exit_code, 0) << detached.err;
  ASSERT_EQ(secrets().size(), 1u);
  std::string second;
  for (const auto& entry : fs::directory_iterator(project.path() / ".gkebuild" / "runs"))
    if (entry.path() != run) second = entry.path().filename().string();
  const auto deleted = gkebuild("delete " + second);
  EXPECT_EQ(deleted.exit_code, 0) << deleted.err;
  EXPECT_TRUE(secrets().empty());
  EXPECT_EQ(leaks(), std::vector<std::string>());
}

}  // namespace
}  // namespace gkebuild::testing
