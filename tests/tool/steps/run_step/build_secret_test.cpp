// Build secrets (RUN --mount=type=secret, gkebuild image --secret) under the real RUN executor:
// the value reaches its RUN as a file or a variable and nothing else — no layer, config,
// history, layer cache entry or RUN cache holds it (layers searched decompressed), a changed
// value does not rerun the step, a missing required secret stops the build at its RUN's line,
// and the image holds the same files as buildah's `bud --secret` makes of the same Dockerfile.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "base/error.h"
#include "busybox_base.h"
#include "images/dockerfile_build/build_secrets.h"
#include "images/dockerfile_build/builder.h"
#include "images/dockerfile/dockerfile_error.h"
#include "rootfs_tree.h"
#include "tests/common/leak_search.h"
#include "tests/common/run.h"
#include "tests/common/temp_dir.h"
#include "tool/steps/run_step/run_step.h"

namespace gkebuild::run_step {
namespace {

namespace fs = std::filesystem;
using gkebuild::testing::files_holding;
using gkebuild::testing::run_command;
using gkebuild::testing::shell_quoted;
using gkebuild::testing::TempDir;

constexpr const char* kToken = "index-token-9f8e7d6c5b4a3210";

std::string sha256_of(const std::string& text) {
  return run_command("printf %s " + shell_quoted(text) + " | sha256sum | cut -c1-64").out.substr(0, 64);
}

class BuildSecretTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "RUN needs root";
    // buildah names an oci: base after its path, which must then be lower case.
    lowercase_ = fs::temp_directory_path() / ("gkebuild-build-secret-" + std::to_string(::getpid()));
    fs::remove(lowercase_);
    fs::create_directory_symlink(dir_.path(), lowercase_);
    layout_ = std::make_shared<oci::Layout>(oci::Layout::open_or_create(dir_ / "oci"));
    const image::Image bare = testing::with_layer({}, testing::busybox_entries(dir_ / "files"), layout_);
    testing::tag_image(*layout_, testing::with_layer(bare, testing::mount_point_entries(dir_ / "files"), layout_), "base");
    secret_file_ = outside_.write("token", kToken);
  }
  void TearDown() override { fs::remove(lowercase_); }

  // Each RUN checks what it was given by its hash, so the Dockerfile holds no value.
  std::string dockerfile() const {
    const std::string hash = sha256_of(kToken);
    return "FROM oci:" + (lowercase_ / "oci").string() + ":base\n"
           "RUN --mount=type=secret,id=pip test \"$(sha256sum < /run/secrets/pip | cut -c1-64)\" = " + hash +
           " && stat -c '%a %u:%g' /run/secrets/pip > /default-file\n"
           "RUN --mount=type=secret,id=pip,target=/etc/pip.conf,mode=0440,uid=1000 "
           "test \"$(sha256sum < /etc/pip.conf | cut -c1-64)\" = " + hash +
           " && stat -c '%a %u:%g' /etc/pip.conf > /target-file\n"
           "RUN --mount=type=secret,id=absent test ! -e /run/secrets/absent && echo skipped > /absent\n";
  }

  build::BuildResult build(const std::string& value, const std::string& text) {
    std::ofstream(dir_ / "context" / "Dockerfile") << text;
    build::BuildOptions options;
    options.dockerfile = dir_ / "context" / "Dockerfile";
    options.context = dir_ / "context";
    options.run = run_step(dir_ / "run-cache");
    options.secrets["pip"] = value;
    options.compression.kind = compression_;
    options.progress = [this](const std::string& line) { progress_ += line + "\n"; };
    return build::build_image(options, layout_);
  }

  std::map<std::string, std::string> unpacked(const fs::path& layout, const std::string& tag) {
    const fs::path bundle = dir_ / ("bundle-" + layout.filename().string());
    const auto result = run_command("umoci unpack --image " + shell_quoted(layout.string() + ":" + tag) + " " +
                                    shell_quoted(bundle.string()));
    EXPECT_EQ(result.exit_code, 0) << result.all();
    return testing::tree_of(bundle / "rootfs");
  }

  TempDir dir_;
  TempDir outside_;  // the secret's own file, which the search must not count
  fs::path lowercase_;
  fs::path secret_file_;
  std::shared_ptr<oci::Layout> layout_;
  layer::Compression compression_ = layer::Compression::kGzip;
  std::string progress_;  // the RUNs' output as the builder passes it on
};

TEST_F(BuildSecretTest, TheSecretReachesItsRunAndNoFileOfTheBuildHoldsIt) {
  fs::create_directories(dir_ / "context");
  const build::BuildResult first = build(kToken, dockerfile());
  EXPECT_EQ(first.layers_built, 3);
  const std::string config = first.image.raw_config();
  EXPECT_EQ(config.find(kToken), std::string::npos) << config;
  // As BuildKit: the cache keys on the mount, not the value, so a new value reruns nothing.
  const build::BuildResult again = build("another-value", dockerfile());
  EXPECT_EQ(again.layers_built, 0);
  EXPECT_EQ(again.layers_cached, 3);
  EXPECT_GT(gkebuild::testing::files_under(dir_.path()), 20u);
  EXPECT_EQ(files_holding(dir_.path(), {kToken, "another-value"}), std::vector<std::string>());
}

TEST_F(BuildSecretTest, TheSameFilesAsBuildahBudSecret) {
  fs::create_directories(dir_ / "context");
  std::ofstream(dir_ / "context" / "Dockerfile") << dockerfile();
  const std::string context = shell_quoted((dir_ / "context").string());
  const auto ours = run_command(gkebuild::testing::gkebuild_binary() + " image --dockerfile " + context +
                                "/Dockerfile --context " + context + " --tag compare:secret --output oci:" +
                                shell_quoted((dir_ / "ours").string()) + " --secret id=pip,src=" +
                                shell_quoted(secret_file_.string()));
  ASSERT_EQ(ours.exit_code, 0) << ours.all();
  EXPECT_EQ(ours.all().find(kToken), std::string::npos);
  const std::string buildah = "buildah --storage-driver vfs --root " + shell_quoted((dir_ / "storage").string()) +
                              " --runroot " + shell_quoted((dir_ / "runroot").string());
  const auto theirs_built = run_command(buildah + " bud --quiet --isolation chroot --secret id=pip,src=" +
                                        shell_quoted(secret_file_.string()) + " -t localhost/compare:secret " + context);
  ASSERT_EQ(theirs_built.exit_code, 0) << theirs_built.all();
  const auto pushed = run_command(buildah + " push --quiet localhost/compare:secret oci:" +
                                  shell_quoted((dir_ / "theirs").string()) + ":secret");
  ASSERT_EQ(pushed.exit_code, 0) << pushed.all();
  const auto mine = unpacked(dir_ / "ours", "compare:secret");
  auto theirs = unpacked(dir_ / "theirs", "secret");
  // The one difference: buildah keeps the empty folder it made for the mount (/run/secrets);
  // the RUN step leaves out every mount point the runtime made, as it does for cache mounts.
  EXPECT_EQ(theirs["run/secrets"], "40755 0:0");
  EXPECT_FALSE(mine.contains("run/secrets"));
  theirs.erase("run/secrets");
  ASSERT_FALSE(theirs.empty());
  for (const auto& [path, description] : theirs)
    EXPECT_EQ(mine.contains(path) ? mine.at(path) : "(missing)", description) << path;
  for (const auto& [path, description] : mine) EXPECT_TRUE(theirs.contains(path)) << path << " only in ours";
  EXPECT_EQ(mine.at("default-file"), "100644 0:0 links=1 400 0:0\n");
  EXPECT_EQ(mine.at("target-file"), "100644 0:0 links=1 440 1000:0\n");
  EXPECT_EQ(files_holding(dir_ / "ours", {kToken}), std::vector<std::string>());
}

TEST_F(BuildSecretTest, AnEnvSecretIsAVariableOfItsRunOnly) {
  fs::create_directories(dir_ / "context");
  compression_ = layer::Compression::kZstd;  // the search reads zstd layers too
  const std::string text = "FROM oci:" + (lowercase_ / "oci").string() + ":base\n" +
                           "RUN --mount=type=secret,id=pip,env=PIP_TOKEN test \"$(printf %s \"$PIP_TOKEN\" | sha256sum "
                           "| cut -c1-64)\" = " + sha256_of(kToken) + " && test ! -e /run/secrets/pip && touch /env-seen\n"
                           "RUN test -z \"$PIP_TOKEN\" && touch /gone-after\n";
  EXPECT_EQ(build(kToken, text).layers_built, 2);
  EXPECT_EQ(files_holding(dir_.path(), {kToken}), std::vector<std::string>());
}

TEST_F(BuildSecretTest, AMissingRequiredSecretStopsTheBuildAtItsRun) {
  fs::create_directories(dir_ / "context");
  const std::string text = "FROM oci:" + (lowercase_ / "oci").string() + ":base\n" +
                           "RUN echo first > /first\nRUN --mount=type=secret,id=npm,required cat /run/secrets/npm\n";
  try {
    build(kToken, text);
    FAIL() << "built without the required secret";
  } catch (const dockerfile::DockerfileError& e) {
    EXPECT_EQ(e.line(), 3);
    EXPECT_EQ(e.column(), 5);
    EXPECT_NE(std::string(e.what()).find("RUN --mount=type=secret,id=npm is required, and the build has no secret 'npm'"),
              std::string::npos)
        << e.what();
    EXPECT_EQ(e.kind(), ErrorKind::kBadInput);
  }
}

// A RUN that prints its secret and fails: the error quotes its last lines with the value masked.
TEST_F(BuildSecretTest, AFailingRunsOutputIsMaskedInTheError) {
  fs::create_directories(dir_ / "context");
  const std::string text = "FROM oci:" + (lowercase_ / "oci").string() + ":base\n" +
                           "RUN --mount=type=secret,id=pip echo \"token is $(cat /run/secrets/pip)\" && exit 3\n";
  try {
    build(kToken, text);
    FAIL() << "the RUN did not fail";
  } catch (const dockerfile::DockerfileError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("token is ***"), std::string::npos) << message;
    EXPECT_EQ(message.find(kToken), std::string::npos) << message;
  }
}

// The error keeps each of the last lines cut to 1000 characters: a value printed across that
// cut is masked first, so no head of it is left for a mask that no longer matches.
TEST_F(BuildSecretTest, AValueAcrossTheCutOfALongLineLeavesNoHead) {
  fs::create_directories(dir_ / "context");
  const std::string text = "FROM oci:" + (lowercase_ / "oci").string() + ":base\n" +
                           "RUN --mount=type=secret,id=pip head -c 990 /dev/zero | tr '\\0' x && "
                           "cat /run/secrets/pip && echo && exit 3\n";
  try {
    build(kToken, text);
    FAIL() << "the RUN did not fail";
  } catch (const dockerfile::DockerfileError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(std::string(990, 'x') + "***"), std::string::npos) << message;
    EXPECT_EQ(message.find(std::string(kToken).substr(0, 6)), std::string::npos) << message;
  }
}

// A multi-line secret (a key file) printed line by line, each behind a prefix, by a RUN that
// then fails: no line of it is in the error or the progress output; a line too short to mask
// ("}") is left.
TEST_F(BuildSecretTest, AMultiLineSecretIsMaskedLineByLine) {
  fs::create_directories(dir_ / "context");
  const std::string key = "-----BEGIN KEY-----\nline-one-aaaa1111\nline-two-bbbb2222\n}\n-----END KEY-----\n";
  const std::string text = "FROM oci:" + (lowercase_ / "oci").string() + ":base\n" +
                           "RUN --mount=type=secret,id=pip sed 's/^/> /' /run/secrets/pip && exit 3\n";
  try {
    build(key, text);
    FAIL() << "the RUN did not fail";
  } catch (const dockerfile::DockerfileError& e) {
    const std::string shown = std::string(e.what()) + "\n" + progress_;
    for (const std::string line : {"BEGIN KEY", "line-one-aaaa1111", "line-two-bbbb2222", "END KEY"})
      EXPECT_EQ(shown.find(line), std::string::npos) << line << " in:\n" << shown;
    EXPECT_NE(shown.find("> ***"), std::string::npos) << shown;
    EXPECT_NE(shown.find("> }"), std::string::npos) << shown;
  }
}

TEST(BuildSecretSyntax, SourcesAndMountsAsBuildKitReadsThem) {
  const auto file = build::parse_secret_source("id=pip,src=/run/token");
  EXPECT_EQ(file.src, "/run/token");
  EXPECT_EQ(build::parse_secret_source("id=GH_TOKEN").env, "GH_TOKEN");  // the variable named by id
  EXPECT_EQ(build::parse_secret_source("id=x,type=env,env=Y").env, "Y");
  const auto env_by_src = build::parse_secret_source("id=x,type=env,src=Z");
  EXPECT_EQ(env_by_src.env, "Z");
  EXPECT_EQ(env_by_src.src, "");
  EXPECT_THROW(build::parse_secret_source("src=/a"), gkebuild::InputError);
  EXPECT_THROW(build::parse_secret_source("id=x,src=/a,env=B"), gkebuild::InputError);
  EXPECT_THROW(build::parse_secret_source("id=x,colour=red"), gkebuild::InputError);
  const auto plain = build::parse_secret_mount("type=secret,id=pip");
  EXPECT_EQ(plain.target, "/run/secrets/pip");
  EXPECT_EQ(plain.mode, 0400u);
  EXPECT_FALSE(plain.required);
  const auto by_target = build::parse_secret_mount("type=secret,target=/etc/netrc,required,mode=0440,uid=7,gid=8");
  EXPECT_EQ(by_target.id, "netrc");
  EXPECT_TRUE(by_target.required);
  EXPECT_EQ(by_target.mode, 0440u);
  EXPECT_EQ(by_target.uid, 7u);
  const auto only_env = build::parse_secret_mount("type=secret,id=t,env=TOKEN");
  EXPECT_EQ(only_env.target, "");  // env only: no file
  EXPECT_THROW(build::parse_secret_mount("type=secret"), gkebuild::InputError);
  EXPECT_THROW(build::parse_secret_mount("type=secret,id=a,target=rel"), gkebuild::InputError);
  EXPECT_THROW(build::parse_secret_mount("type=secret,id=a,required=maybe"), gkebuild::InputError);
  EXPECT_THROW(build::parse_secret_mount("type=secret,id=a,mode=9"), gkebuild::InputError);
  EXPECT_EQ(build::mount_type("id=a,target=/b"), "bind");
}

}  // namespace
}  // namespace gkebuild::run_step
