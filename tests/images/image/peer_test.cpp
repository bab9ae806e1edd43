// gkebuild image against real peers: umoci + runc run what we build, skopeo and
// oci-image-tool accept our layouts, buildah bud of the same Dockerfile gives the
// same files and config, and the CLI's reproducibility, errors, crash safety and
// locking hold up.
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <random>
#include <thread>

#include <nlohmann/json.hpp>

#include "base/atomic_file.h"
#include "images/image/layout_source.h"
#include "tests/common/run.h"
#include "tests/common/temp_dir.h"
#include "tests/images/unpacked_tree.h"

namespace gkebuild {
namespace {
namespace fs = std::filesystem;
using testing::run_command;
using testing::shell_quoted;
using testing::TempDir;
using testing::describe_tree;

std::string gkebuild_image(const std::string& arguments) {
  return "env SOURCE_DATE_EPOCH=1700000000 " + testing::gkebuild_binary() + " image " + arguments;
}


oci::ImageConfig config_of(const fs::path& layout, const std::string& tag) {
  auto l = std::make_shared<oci::Layout>(oci::Layout::open(layout));
  return image::load_image(l, tag).config();
}

class PeerTest : public ::testing::Test {
 protected:
  void write(const std::string& path, const std::string& content, fs::perms mode = fs::perms(0644)) {
    write_file_atomically(dir / path, content);
    fs::permissions(dir / path, mode);
  }

  fs::path unpack(const fs::path& layout, const std::string& tag, const std::string& name) {
    auto r = run_command("umoci unpack --image " + shell_quoted(layout.string() + ":" + tag) + " " +
                         shell_quoted((dir / name).string()));
    EXPECT_EQ(r.exit_code, 0) << r.all();
    return dir / name;
  }

  TempDir dir;
};

TEST_F(PeerTest, HelloImageRunsUnderRunc) {
  std::string context = (dir / "ctx").string(), layout = (dir / "oci").string();
  auto built = run_command(
      gkebuild_image("--dockerfile " GKEBUILD_SOURCE_ROOT "/examples/hello-image/Dockerfile"
                     " --context " +
                     shell_quoted(context) +
                     " --stage " HELLO_IMAGE_PROGRAM " --tag hello:1 --output oci:" + shell_quoted(layout)));
  ASSERT_EQ(built.exit_code, 0) << built.all();
  EXPECT_TRUE(built.all().starts_with("sha256:")) << built.all();
  fs::path bundle = unpack(layout, "hello:1", "bundle");
  auto config = nlohmann::json::parse(read_file(bundle / "config.json"));
  config["process"]["terminal"] = false;
  write_file_atomically(bundle / "config.json", config.dump());
  std::string id = "gkebuild-test-" + std::to_string(::getpid());
  auto ran = run_command("runc --root " + shell_quoted((dir / "runc").string()) + " run --bundle " +
                         shell_quoted(bundle.string()) + " " + id);
  EXPECT_EQ(ran.exit_code, 0) << ran.all();
  EXPECT_EQ(ran.all(), "hello, world from a gkebuild image\n");
  run_command("runc --root " + shell_quoted((dir / "runc").string()) + " delete --force " + id);
}

TEST_F(PeerTest, LayoutIsValidForOciImageToolAndSkopeo) {
  write("ctx/Dockerfile", "FROM scratch\nCOPY a.txt /a.txt\nLABEL x=y\n");
  write("ctx/a.txt", "a");
  std::string layout = (dir / "oci").string();
  auto built = run_command(gkebuild_image("--context " + shell_quoted((dir / "ctx").string()) +
                                          " --tag app:2 --output oci:" + shell_quoted(layout)));
  ASSERT_EQ(built.exit_code, 0) << built.all();
  // oci-image-tool 1.0.0-rc1 predates tar+zstd layers; skopeo reads them.
  auto zstd = run_command(gkebuild_image("--context " + shell_quoted((dir / "ctx").string()) +
                                         " --tag app:zstd --compression zstd --output oci:" + shell_quoted(layout)));
  ASSERT_EQ(zstd.exit_code, 0) << zstd.all();
  auto copied = run_command("skopeo copy " + shell_quoted("oci:" + layout + ":app:zstd") + " " +
                            shell_quoted("oci:" + (dir / "copy").string() + ":c"));
  EXPECT_EQ(copied.exit_code, 0) << copied.all();
  auto validated = run_command("oci-image-tool validate --type image --ref name=app:2 " + shell_quoted(layout));
  EXPECT_EQ(validated.exit_code, 0) << validated.all();
  auto inspected = run_command("skopeo inspect " + shell_quoted("oci:" + layout + ":app:2"));
  ASSERT_EQ(inspected.exit_code, 0) << inspected.all();
  auto j = nlohmann::json::parse(inspected.all());
  EXPECT_EQ(j["Digest"].get<std::string>() + "\n", built.all());
  EXPECT_EQ(j["Labels"]["x"], "y");
}

TEST_F(PeerTest, DockerArchiveIsReadBySkopeo) {
  write("ctx/Dockerfile", "FROM scratch\nCOPY . /app/\nCMD [\"/app/x\"]\n");
  write("ctx/x", "x", fs::perms(0755));
  std::string archive = (dir / "image.tar").string();
  auto built = run_command(
      "cd " + shell_quoted(dir.path().string()) + " && " +
      gkebuild_image("--context ctx --tag docker.io/team/app:3 --output docker-archive:" + shell_quoted(archive)));
  ASSERT_EQ(built.exit_code, 0) << built.all();
  auto inspected = run_command("skopeo inspect --config " + shell_quoted("docker-archive:" + archive));
  ASSERT_EQ(inspected.exit_code, 0) << inspected.all();
  EXPECT_EQ(nlohmann::json::parse(inspected.all())["config"]["Cmd"][0], "/app/x");
  auto copied = run_command("skopeo copy " + shell_quoted("docker-archive:" + archive) + " " +
                            shell_quoted("oci:" + (dir / "copy").string() + ":c"));
  EXPECT_EQ(copied.exit_code, 0) << copied.all();
  EXPECT_EQ(describe_tree(unpack(dir / "copy", "c", "b1") / "rootfs"),
            describe_tree(unpack(dir / ".gkebuild/oci", "docker.io/team/app:3", "b2") / "rootfs"));
}

TEST_F(PeerTest, SameFilesAndConfigAsBuildahBud) {
  write("ctx/Dockerfile",
        "FROM scratch\n"
        "ARG WHO=researcher\n"
        "ENV PATH=/usr/local/nvidia/bin:/opt/app/bin:/usr/bin:/bin \\\n"
        "    LD_LIBRARY_PATH=/usr/local/nvidia/lib64:/opt/app/lib\n"
        "LABEL org.example.who=$WHO \"org.example.two words\"=\"a b\"\n"
        "COPY lib/ /opt/app/lib/\n"
        "COPY bin/run conf/*.cfg /opt/app/bin/\n"
        "COPY --chown=1000:1000 data /opt/app/data\n"
        "COPY --chmod=0600 conf/secret.cfg /opt/app/secret\n"
        "WORKDIR /opt/app\n"
        "USER 1000:1000\n"
        "ENTRYPOINT [\"/opt/app/bin/run\"]\n"
        "CMD [\"--flag\"]\n");
  write("ctx/lib/libone.so.1", std::string(5000, 'o'), fs::perms(0755));
  write("ctx/lib/sub/two.dat", "two");
  fs::create_symlink("libone.so.1", dir / "ctx/lib/libone.so");
  write("ctx/bin/run", "#!/bin/sh\necho run\n", fs::perms(0755));
  write("ctx/conf/a.cfg", "a");
  write("ctx/conf/b.cfg", "b");
  write("ctx/conf/secret.cfg", "s");
  write("ctx/data/nested/deep.txt", "deep");
  fs::permissions(dir / "ctx/data", fs::perms(0755));
  fs::permissions(dir / "ctx/data/nested", fs::perms(0755));
  fs::permissions(dir / "ctx/lib/sub", fs::perms(0755));

  std::string ours = (dir / "ours").string(), theirs = (dir / "theirs").string();
  auto built = run_command(gkebuild_image("--context " + shell_quoted((dir / "ctx").string()) +
                                          " --tag cmp:1 --output oci:" + shell_quoted(ours)));
  ASSERT_EQ(built.exit_code, 0) << built.all();
  std::string buildah = "buildah --root " + shell_quoted((dir / "b-root").string()) + " --runroot " +
                        shell_quoted((dir / "b-run").string()) + " --storage-driver vfs ";
  auto bud =
      run_command(buildah + "bud --isolation chroot -q -t localhost/cmp:1 " + shell_quoted((dir / "ctx").string()));
  ASSERT_EQ(bud.exit_code, 0) << bud.all();
  auto pushed = run_command(buildah + "push localhost/cmp:1 " + shell_quoted("oci:" + theirs + ":cmp:1"));
  ASSERT_EQ(pushed.exit_code, 0) << pushed.all();

  EXPECT_EQ(describe_tree(unpack(ours, "cmp:1", "u1") / "rootfs"),
            describe_tree(unpack(theirs, "cmp:1", "u2") / "rootfs"));
  auto a = config_of(ours, "cmp:1").config, b = config_of(theirs, "cmp:1").config;
  EXPECT_EQ(a.env, b.env);
  EXPECT_EQ(a.entrypoint, b.entrypoint);
  EXPECT_EQ(a.cmd, b.cmd);
  EXPECT_EQ(a.working_dir, b.working_dir);
  EXPECT_EQ(a.user, b.user);
  b.labels.erase("io.buildah.version");
  EXPECT_EQ(a.labels, b.labels);
  run_command(buildah + "rmi --all --force");
}

// A Dockerfile that asks for no environment and no labels gets what buildah
// gives it (the default PATH) and nothing of gkebuild's own, even in a git
// checkout, where gkebuild once added a revision label.
TEST_F(PeerTest, NoEnvironmentOrLabelsBeyondWhatBuildahGives) {
  write("ctx/Dockerfile", "FROM scratch\nCOPY tool /usr/bin/tool\nENTRYPOINT [\"/usr/bin/tool\"]\n");
  write("ctx/tool", "#!/bin/sh\n", fs::perms(0755));
  const std::string context = shell_quoted((dir / "ctx").string());
  auto git = run_command("git -C " + context + " init -q && git -C " + context + " -c user.name=t -c user.email=t@t " +
                 "commit -q --allow-empty -m one");
  ASSERT_EQ(git.exit_code, 0) << git.all();
  const std::string ours = (dir / "ours").string(), theirs = (dir / "theirs").string();
  auto built = run_command(gkebuild_image("--dockerfile " + shell_quoted((dir / "ctx/Dockerfile").string()) + " --context " +
                                  context + " --tag plain:1 --output oci:" + shell_quoted(ours)));
  ASSERT_EQ(built.exit_code, 0) << built.all();
  const std::string buildah = "buildah --root " + shell_quoted((dir / "b-root").string()) + " --runroot " +
                              shell_quoted((dir / "b-run").string()) + " --storage-driver vfs ";
  auto bud = run_command(buildah + "bud --isolation chroot -q -t localhost/plain:1 " + context);
  ASSERT_EQ(bud.exit_code, 0) << bud.all();
  auto pushed = run_command(buildah + "push localhost/plain:1 " + shell_quoted("oci:" + theirs + ":plain:1"));
  ASSERT_EQ(pushed.exit_code, 0) << pushed.all();

  auto a = config_of(ours, "plain:1").config, b = config_of(theirs, "plain:1").config;
  EXPECT_EQ(a.env, b.env);
  EXPECT_EQ(a.env, std::vector<std::string>{"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"});
  b.labels.erase("io.buildah.version");  // buildah's own
  EXPECT_EQ(a.labels, b.labels);
  EXPECT_TRUE(a.labels.empty());
  EXPECT_EQ(a.entrypoint, b.entrypoint);
  run_command(buildah + "rmi --all --force");
}

TEST_F(PeerTest, SameDigestFromCopiesInOtherFoldersTimesAndUmasks) {
  write("one/Dockerfile", "FROM scratch\nCOPY . /srv/\nENTRYPOINT [\"/srv/tool\"]\n");
  write("one/tool", std::string(200000, 't'), fs::perms(0755));
  write("one/sub/data.txt", "data");
  std::string d = shell_quoted(dir.path().string());
  auto copied = run_command("cd " + d + " && (umask 077 && mkdir two && cp -r one/. two/ && chmod 700 two/tool" +
                            " && touch -d '2001-01-01' two/sub/data.txt)");
  ASSERT_EQ(copied.exit_code, 0) << copied.all();
  auto first = run_command(gkebuild_image("--context " + shell_quoted((dir / "one").string()) +
                                          " --tag r:1 -o oci:" + shell_quoted((dir / "oci1").string())));
  auto second =
      run_command("umask 002 && " + gkebuild_image("--context " + shell_quoted((dir / "two").string()) +
                                                   " --tag r:1 -o oci:" + shell_quoted((dir / "oci2").string())));
  ASSERT_EQ(first.exit_code, 0) << first.all();
  EXPECT_EQ(first.all(), second.all());
}

TEST_F(PeerTest, BadInputExitsTwoNamingFileAndLine) {
  write("ctx/a.txt", "a");
  write("ctx/secret.txt", "s", fs::perms(0));
  fs::create_symlink("/etc/passwd", dir / "ctx/escape");
  std::string context = shell_quoted((dir / "ctx").string());
  struct Case {
    std::string dockerfile, expected;
  } cases[] = {
      {"FROM scratch\nCOPY missing.txt /\n", "Dockerfile:2:6: error: COPY source 'missing.txt' matches nothing"},
      {"FROM scratch\n\nCOPY ../x /\n", "Dockerfile:3:6: error: COPY source '../x' is outside the build context"},
      {"FROM scratch\nCOPY /etc/passwd /\n", "Dockerfile:2:6: error: COPY source '/etc/passwd' is an absolute path"},
      {"FROM scratch\nCOPY escape /\n", "COPY source 'escape' leads outside the build context (through a symlink)"},
      {"FROM scratch\nCOPY secret.txt /\n", "Dockerfile:2:6: error: cannot read COPY source 'secret.txt': Permission denied"},
      {"FROM scratch\nENV \"A=1\n", "Dockerfile:2:5: error: unterminated double quote"},
      {"FROM scratch\nFORM x\n", "Dockerfile:2:1: error: unknown instruction 'FORM'"},
  };
  // As root every file is readable, so the unreadable case runs as nobody.
  fs::permissions(dir.path(), fs::perms(0755));
  for (const auto& c : cases) {
    write("ctx/Dockerfile", c.dockerfile);
    fs::remove_all(dir / "oci");
    fs::create_directories(dir / "oci");
    run_command("chown -R nobody " + shell_quoted((dir / "oci").string()));
    auto r = run_command(
        "setpriv --reuid=nobody --regid=nogroup --clear-groups " +
        gkebuild_image("--context " + context + " --tag bad:1 -o oci:" + shell_quoted((dir / "oci").string())));
    EXPECT_EQ(r.exit_code, 2) << c.dockerfile << r.all();
    EXPECT_NE(r.all().find(c.expected), std::string::npos) << r.all();
  }
}

// OCI's image config has no Healthcheck, Shell or OnBuild: left out with a warning naming the
// line (as buildah warns), kept with --format docker.
TEST_F(PeerTest, DockerOnlyInstructionsWarnInOciFormat) {
  write("ctx/Dockerfile", "FROM scratch\nHEALTHCHECK CMD [\"/bin/true\"]\nSHELL [\"/bin/ash\", \"-c\"]\n");
  std::string context = shell_quoted((dir / "ctx").string()), layout = shell_quoted((dir / "oci").string());
  auto oci = run_command(gkebuild_image("-q --context " + context + " --tag h:1 -o oci:" + layout));
  ASSERT_EQ(oci.exit_code, 0) << oci.all();
  EXPECT_NE(oci.err.find("warning: " + (dir / "ctx/Dockerfile").string() +
                         ":2: HEALTHCHECK is not part of the OCI image format"),
            std::string::npos)
      << oci.err;
  EXPECT_FALSE(config_of(dir / "oci", "h:1").config.other.contains("Healthcheck"));
  auto docker = run_command(gkebuild_image("-q --format docker --context " + context + " --tag h:2 -o oci:" + layout));
  ASSERT_EQ(docker.exit_code, 0) << docker.all();
  EXPECT_EQ(docker.err, "");
  auto config = config_of(dir / "oci", "h:2").config.other;
  EXPECT_EQ(config["Healthcheck"]["Test"], nlohmann::json({"CMD", "/bin/true"}));
  EXPECT_EQ(config["Shell"], nlohmann::json({"/bin/ash", "-c"}));
}

// A RUN that cannot run (here: not root) is a failed build, exit 1, named at its line as a
// compiler names an error, not prefixed like an error without a position.
TEST_F(PeerTest, ARunThatCannotRunNamesItsLine) {
  write("ctx/Dockerfile", "FROM scratch\nCOPY Dockerfile /\nRUN make\n");
  fs::permissions(dir.path(), fs::perms(0755));
  fs::create_directories(dir / "oci");
  run_command("chown -R nobody " + shell_quoted((dir / "oci").string()) + " " + shell_quoted((dir / "ctx").string()));
  auto r = run_command("setpriv --reuid=nobody --regid=nogroup --clear-groups " +
                       gkebuild_image("--context " + shell_quoted((dir / "ctx").string()) + " --tag r:1 -o oci:" +
                                      shell_quoted((dir / "oci").string())));
  EXPECT_EQ(r.exit_code, 1) << r.all();
  EXPECT_TRUE(r.err.starts_with((dir / "ctx/Dockerfile").string() + ":3:5: error: RUN ")) << r.err;
  EXPECT_NE(r.err.find("root"), std::string::npos) << r.err;
}

TEST_F(PeerTest, KilledBuildsLeaveAValidLayout) {
  std::string random_bytes(8 << 20, '\0');
  std::mt19937_64 rng(42);
  for (auto& c : random_bytes) c = static_cast<char>(rng());
  write("ctx/big.bin", random_bytes);
  write("ctx/Dockerfile", "FROM scratch\nCOPY big.bin /big.bin\n");
  std::string layout = shell_quoted((dir / "oci").string());
  std::string command = gkebuild_image("--context " + shell_quoted((dir / "ctx").string()) + " --tag k:1 -o oci:" + layout);
  ASSERT_EQ(run_command(command).exit_code, 0);
  std::uniform_int_distribution<int> delay_ms(0, 120);
  for (int attempt = 0; attempt < 5; ++attempt) {
    write("ctx/big.bin", random_bytes.substr(0, random_bytes.size() - 1 - attempt));  // a new layer each try
    run_command("timeout -s KILL " + std::to_string(delay_ms(rng) / 1000.0) + " sh -c " + shell_quoted(command));
    auto validated = run_command("oci-image-tool validate --type image --ref name=k:1 " + layout);
    EXPECT_EQ(validated.exit_code, 0) << "after kill " << attempt << ": " << validated.all();
  }
  auto finished = run_command(command);
  EXPECT_EQ(finished.exit_code, 0) << finished.all();
  EXPECT_EQ(run_command("oci-image-tool validate --type image --ref name=k:1 " + layout).exit_code, 0);
}

TEST_F(PeerTest, ConcurrentBuildsIntoOneLayoutBothSucceed) {
  write("a/Dockerfile", "FROM scratch\nCOPY f /f\n");
  write("a/f", std::string(3 << 20, 'a'));
  write("b/Dockerfile", "FROM scratch\nCOPY f /f\n");
  write("b/f", std::string(3 << 20, 'b'));
  std::string layout = shell_quoted((dir / "oci").string());
  auto both = run_command(
      "(" + gkebuild_image("--context " + shell_quoted((dir / "a").string()) + " --tag a:1 -o oci:" + layout) + " > " +
      shell_quoted((dir / "a.out").string()) + " & " +
      gkebuild_image("--context " + shell_quoted((dir / "b").string()) + " --tag b:1 -o oci:" + layout) + " > " +
      shell_quoted((dir / "b.out").string()) + " & wait %1 && wait %2)");
  EXPECT_EQ(both.exit_code, 0) << both.all();
  auto l = oci::Layout::open(dir / "oci");
  ASSERT_TRUE(l.resolve("a:1"));
  ASSERT_TRUE(l.resolve("b:1"));
  EXPECT_EQ(l.resolve("a:1")->digest.str() + "\n", read_file(dir / "a.out"));
  EXPECT_EQ(l.resolve("b:1")->digest.str() + "\n", read_file(dir / "b.out"));
}

}  // namespace
}  // namespace gkebuild
