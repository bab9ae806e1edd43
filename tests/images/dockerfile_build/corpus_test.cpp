// The differential corpus (tests/images/dockerfile_build/corpus/, one folder per case): each Dockerfile is
// built by gkebuild and by `buildah bud --isolation chroot` (vfs storage) FROM a busybox
// base image that the test builds and pushes to a loopback docker-registry; both images
// are unpacked with umoci and their files (paths, types, modes, owners, contents, symlink
// targets, whiteouts applied) and config compared; images with an ENTRYPOINT are run
// under runc and their output compared. Cases named run-* need RUN (a container runtime);
// they are a ctest entry of their own (images_corpus_run).
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <memory>
#include <sstream>

#include <nlohmann/json.hpp>

#include "base/atomic_file.h"
#include "images/image/layout_source.h"
#include "tests/common/run.h"
#include "tests/common/temp_dir.h"
#include "tests/common/test_tar.h"
#include "tests/images/tar_image.h"
#include "tests/images/unpacked_tree.h"
#include "tests/registry/harness.h"

namespace gkebuild {
namespace {
namespace fs = std::filesystem;
using testing::run_command;
using testing::shell_quoted;
using testing::TempDir;
using testing::describe_tree;

const fs::path kCorpus = fs::path(GKEBUILD_SOURCE_ROOT) / "tests/images/dockerfile_build/corpus";


std::string expect_ok(const testing::CommandResult& r, const std::string& what) {
  EXPECT_EQ(r.exit_code, 0) << what << ":\n" << r.all();
  return r.out;
}

// The busybox base: the static busybox, its applets as symlinks, passwd and group.
class Base {
 public:
  Base() : registry_(dir_ / "registry", {}) {
    registry_.start();
    fs::path root = dir_ / "base/rootfs";
    fs::create_directories(root / "bin");
    fs::create_directories(root / "home");
    fs::create_directories(root / "tmp");
    fs::create_directories(root / "usr/lib");
    fs::create_symlink("usr/lib", root / "lib");  // as in merged-/usr distributions
    fs::copy_file("/usr/bin/busybox", root / "bin/busybox");
    for (const char* applet : {"sh", "echo", "cat", "ls", "id", "mkdir", "rm", "touch", "env", "pwd", "printf",
                               "chmod", "chown", "ln", "true", "whoami", "sleep", "test"}) {
      fs::create_symlink("busybox", root / "bin" / applet);
    }
    write_file_atomically(root / "etc/passwd",
                          "root:x:0:0:root:/root:/bin/sh\nalice:x:1000:1000:alice:/home/alice:/bin/sh\n"
                          "nobody:x:65534:65534:nobody:/nonexistent:/bin/false\n");
    write_file_atomically(root / "etc/group", "root:x:0:\nusers:x:100:alice\nalice:x:1000:\nnogroup:x:65534:\n");
    write_file_atomically(dir_ / "base/Dockerfile", "FROM scratch\nCOPY rootfs/ /\nCMD [\"/bin/sh\"]\n");
    reference = registry_.host() + "/corpus/busybox:1";
    std::string layout = shell_quoted("oci:" + (dir_ / "base-oci").string());
    expect_ok(run_command(testing::gkebuild_binary() + " image -q --context " + shell_quoted((dir_ / "base").string()) +
                          " --tag busybox:1 -o " + layout),
              "base image");
    layout = shell_quoted("oci:" + (dir_ / "base-oci").string() + ":busybox:1");
    expect_ok(run_command(testing::gkebuild_binary() + " push -q --insecure-registry " + registry_.host() + " " +
                          layout + " " + reference),
              "push of the base image");
  }
  std::string host() const { return registry_.host(); }
  std::string reference;

 private:
  TempDir dir_;
  testing::Registry registry_;
};

// One registry and base image for the whole run, made when a test first asks and stopped
// and removed when the run ends (tests/images/dockerfile_build/stops_its_registry.sh checks that).
class BaseEnvironment : public ::testing::Environment {
 public:
  static Base& get() {
    if (!base_) base_ = std::make_unique<Base>();
    return *base_;
  }
  void TearDown() override { base_.reset(); }

 private:
  static inline std::unique_ptr<Base> base_;
};
[[maybe_unused]] ::testing::Environment* const kBaseEnvironment =
    ::testing::AddGlobalTestEnvironment(new BaseEnvironment);

Base& base() { return BaseEnvironment::get(); }

struct Built {
  fs::path layout;
  nlohmann::json config;  // the image config's "config"
};

class CorpusTest : public ::testing::TestWithParam<std::string> {
 protected:
  fs::path case_dir() const { return kCorpus / GetParam(); }

  std::string extra_args() const {
    std::error_code error;
    if (!fs::exists(case_dir() / "args", error)) return "";
    std::string args = read_file(case_dir() / "args");
    while (!args.empty() && args.back() == '\n') args.pop_back();
    return " " + args;
  }

  // The case's context/ copied (symlinks as symlinks), then its setup.sh run inside it.
  fs::path prepare_context() {
    fs::path context = dir / "context";
    fs::create_directories(context);
    if (fs::exists(case_dir() / "context")) {
      expect_ok(run_command("cp -a " + shell_quoted((case_dir() / "context").string()) + "/. " +
                            shell_quoted(context.string())),
                "copy of the context");
    }
    if (fs::exists(case_dir() / "setup.sh")) {
      expect_ok(run_command("cd " + shell_quoted(context.string()) + " && sh " +
                            shell_quoted((case_dir() / "setup.sh").string())),
                "setup.sh");
    }
    return context;
  }

  Built ours(const fs::path& context) {
    Built b{dir / "ours", {}};
    auto r = run_command("env SOURCE_DATE_EPOCH=1700000000 " + testing::gkebuild_binary() + " image -q --dockerfile " +
                         shell_quoted(with_base(case_dir() / "Dockerfile", "ours").string()) + " --context " +
                         shell_quoted(context.string()) + " --tag c:1 -o oci:" + shell_quoted(b.layout.string()) +
                         " --insecure-registry " + base().host() + " --build-arg BASE=" + base().reference +
                         extra_args());
    if (r.exit_code != 0) return {{}, r.all()};
    auto layout = std::make_shared<oci::Layout>(oci::Layout::open(b.layout));
    b.config = nlohmann::json::parse(image::load_image(layout, "c:1").raw_config())["config"];
    return b;
  }

  // buildah 1.28 lacks heredocs and COPY --link: such a case gives it Dockerfile.buildah, the
  // same build written without them.
  fs::path buildah_dockerfile() {
    std::error_code error;
    return with_base(fs::exists(case_dir() / "Dockerfile.buildah", error) ? case_dir() / "Dockerfile.buildah"
                                                                           : case_dir() / "Dockerfile",
                     "theirs");
  }

  // buildah 1.28 does not expand ARGs in COPY --from: "@BASE@" in a Dockerfile is replaced
  // with the base image's reference before either builder reads it.
  fs::path with_base(const fs::path& dockerfile, const std::string& name) {
    std::string text = read_file(dockerfile);
    if (text.find("@BASE@") == std::string::npos) return dockerfile;
    for (size_t at; (at = text.find("@BASE@")) != std::string::npos;) text.replace(at, 6, base().reference);
    write_file_atomically(dir / ("Dockerfile." + name), text);
    return dir / ("Dockerfile." + name);
  }

  Built theirs(const fs::path& context) {
    std::string buildah = "buildah --root " + shell_quoted((dir / "b-root").string()) + " --runroot " +
                          shell_quoted((dir / "b-run").string()) + " --storage-driver vfs ";
    std::string args = extra_args();
    auto bud = run_command(buildah + "bud --isolation chroot -q --tls-verify=false --build-arg BASE=" +
                           base().reference + args + " -f " + shell_quoted(buildah_dockerfile().string()) +
                           " -t localhost/c:1 " + shell_quoted(context.string()));
    if (bud.exit_code != 0) return {{}, bud.all()};
    Built b{dir / "theirs", {}};
    expect_ok(run_command(buildah + "push localhost/c:1 " + shell_quoted("oci:" + b.layout.string() + ":c:1")),
              "buildah push");
    auto inspected = nlohmann::json::parse(expect_ok(run_command(buildah + "inspect --type image localhost/c:1"), "inspect"));
    bool docker = args.find("--format docker") != std::string::npos;
    b.config = docker ? inspected["Docker"]["config"] : inspected["OCIv1"]["config"];
    run_command(buildah + "rmi --all --force");
    return b;
  }

  fs::path unpack(const fs::path& layout, const std::string& name) {
    expect_ok(run_command("umoci unpack --image " + shell_quoted(layout.string() + ":c:1") + " " +
                          shell_quoted((dir / name).string())),
              "umoci unpack");
    return dir / name;
  }

  std::string run_under_runc(const fs::path& bundle) {
    auto config = nlohmann::json::parse(read_file(bundle / "config.json"));
    config["process"]["terminal"] = false;
    write_file_atomically(bundle / "config.json", config.dump());
    std::string id = "gkebuild-corpus-" + std::to_string(::getpid()) + "-" + bundle.filename().string();
    std::string root = shell_quoted((dir / "runc").string());
    auto ran = run_command("timeout 20 runc --root " + root + " run --bundle " + shell_quoted(bundle.string()) + " " + id);
    run_command("runc --root " + root + " delete --force " + id);
    std::string output = std::to_string(ran.exit_code) + "\n";
    std::istringstream lines(ran.all());
    for (std::string line; std::getline(lines, line);) {
      if (line.find("level=warning") == std::string::npos) output += line + "\n";  // runc's, with times
    }
    return output;
  }

  TempDir dir;
};

// The config keys the comparison covers; buildah's own label and its empty defaults aside.
nlohmann::json comparable(nlohmann::json config, bool with_healthcheck) {
  nlohmann::json out = nlohmann::json::object();
  for (const char* key : {"Entrypoint", "Cmd", "Env", "WorkingDir", "User", "ExposedPorts", "Volumes", "Labels",
                          "StopSignal", "Healthcheck", "Shell", "OnBuild"}) {
    const auto& value = config.contains(key) ? config[key] : nlohmann::json();
    if (value.is_null() || value.empty() || (value.is_string() && value.get<std::string>().empty())) continue;
    if (!with_healthcheck && (std::string(key) == "Healthcheck" || std::string(key) == "Shell" ||
                              std::string(key) == "OnBuild")) {
      continue;
    }
    out[key] = config[key];
  }
  if (out.contains("Labels")) {
    out["Labels"].erase("io.buildah.version");
    if (out["Labels"].empty()) out.erase("Labels");
  }
  return out;
}

// What `buildah bud --isolation chroot` leaves behind after a RUN that BuildKit does not: the
// empty mount points of /dev, /proc, /sys, /run and the empty files it binds /etc/hosts,
// /etc/hostname and /etc/resolv.conf onto. Dropped from buildah's tree when ours lacks them.
std::map<std::string, std::string> without_run_mount_points(std::map<std::string, std::string> theirs,
                                                            const std::map<std::string, std::string>& ours) {
  const std::string empty_hash = oci::sha256_of("").hex.substr(0, 12);
  for (const char* dir : {"dev", "proc", "sys", "run"}) {
    auto it = theirs.find(dir);
    if (it != theirs.end() && !ours.contains(dir) && it->second.starts_with("dir ")) theirs.erase(it);
  }
  for (const char* file : {"etc/hosts", "etc/hostname", "etc/resolv.conf"}) {
    auto it = theirs.find(file);
    if (it != theirs.end() && !ours.contains(file) && it->second.ends_with(" " + empty_hash)) theirs.erase(it);
  }
  return theirs;
}

TEST_P(CorpusTest, SameAsBuildah) {
  fs::path context = prepare_context();
  Built a = ours(context);
  ASSERT_FALSE(a.layout.empty()) << "gkebuild image failed:\n" << a.config.get<std::string>();
  Built b = theirs(context);
  ASSERT_FALSE(b.layout.empty()) << "buildah bud failed:\n" << b.config.get<std::string>();
  fs::path ours_bundle = unpack(a.layout, "u-ours"), theirs_bundle = unpack(b.layout, "u-theirs");
  auto our_tree = describe_tree(ours_bundle / "rootfs");
  EXPECT_EQ(our_tree, without_run_mount_points(describe_tree(theirs_bundle / "rootfs"), our_tree));
  bool docker = extra_args().find("--format docker") != std::string::npos;
  EXPECT_EQ(comparable(a.config, docker).dump(1), comparable(b.config, docker).dump(1));
  if (a.config.contains("Entrypoint") && !a.config["Entrypoint"].empty()) {
    EXPECT_EQ(run_under_runc(ours_bundle), run_under_runc(theirs_bundle));
  }
}

// A project image (gkebuild.yaml naming the user's Dockerfile): gkebuild builds it with the
// project folder as context under its .dockerignore, buildah bud gets the same folder and
// Dockerfile; both images hold the same files. buildah builds first, before gkebuild's
// .gkebuild/ folder exists (which gkebuild leaves out of any project context anyway).
TEST(ProjectImage, SameFilesAsBuildahFromTheProjectFolder) {
  TempDir dir;
  const fs::path project = dir / "project";
  write_file_atomically(project / "gkebuild.yaml",
                        "apiVersion: gkebuild/v1\nproject: peer\nregistry: registry.test/exp\n"
                        "images:\n  trainer:\n    dockerfile: docker/Dockerfile\n");
  write_file_atomically(project / "docker/Dockerfile",
                        "FROM " + base().reference + "\nWORKDIR /app\nCOPY . /app/\nCOPY src/*.py /lib/py/\n"
                        "COPY --chmod=0755 run.sh /usr/local/bin/run\n");
  write_file_atomically(project / ".dockerignore", "# not for the image\n*.log\ndata/\n!data/keep.txt\nsecrets\n");
  write_file_atomically(project / "train.py", "print('train')\n");
  write_file_atomically(project / "src/model.py", "model = 1\n");
  write_file_atomically(project / "src/util.py", "util = 2\n");
  write_file_atomically(project / "run.sh", "#!/bin/sh\nexec python /app/train.py\n");
  write_file_atomically(project / "run.log", "ignored\n");
  write_file_atomically(project / "data/big.bin", "ignored\n");
  write_file_atomically(project / "data/keep.txt", "re-included\n");
  write_file_atomically(project / "secrets", "hunter2\n");
  const std::string buildah = "buildah --root " + shell_quoted((dir / "b-root").string()) + " --runroot " +
                              shell_quoted((dir / "b-run").string()) + " --storage-driver vfs ";
  expect_ok(run_command(buildah + "bud --isolation chroot -q --tls-verify=false -f " +
                        shell_quoted((project / "docker/Dockerfile").string()) + " -t localhost/c:1 " +
                        shell_quoted(project.string())),
            "buildah bud");
  expect_ok(run_command(buildah + "push localhost/c:1 " + shell_quoted("oci:" + (dir / "theirs").string() + ":c:1")),
            "buildah push");
  run_command(buildah + "rmi --all --force");
  expect_ok(run_command("cd " + shell_quoted(project.string()) + " && " + testing::gkebuild_binary() +
                        " image -q --insecure-registry " + base().host() + " -o docker-archive:" +
                        shell_quoted((dir / "ours.tar").string())),
            "gkebuild image");
  expect_ok(run_command("skopeo copy -q docker-archive:" + shell_quoted((dir / "ours.tar").string()) + " " +
                        shell_quoted("oci:" + (dir / "ours").string() + ":c:1")),
            "skopeo copy");
  for (const char* side : {"ours", "theirs"})
    expect_ok(run_command("umoci unpack --image " + shell_quoted((dir / side).string() + ":c:1") + " " +
                          shell_quoted((dir / (std::string("u-") + side)).string())),
              "umoci unpack");
  const auto ours = describe_tree(dir / "u-ours/rootfs");
  EXPECT_EQ(ours, describe_tree(dir / "u-theirs/rootfs"));
  EXPECT_TRUE(ours.contains("app/data/keep.txt"));
  EXPECT_FALSE(ours.contains("app/secrets"));
  EXPECT_FALSE(ours.contains("app/run.log"));
  EXPECT_TRUE(ours.contains("usr/lib/py/model.py"));  // the base's /lib is a symlink to usr/lib
}

// examples/sweep-script (FROM a base, RUN, COPY of a project file) built FROM the busybox base and
// run under `submit --local`: both sweep points train and report.
TEST(RunExample, SweepScriptProjectUnderSubmitLocal) {
  if (::geteuid() != 0) GTEST_SKIP() << "RUN and runc need root";
  TempDir dir;
  fs::path project = dir / "sweep-script";
  expect_ok(run_command("cp -a " + shell_quoted(GKEBUILD_SOURCE_ROOT "/examples/sweep-script") + " " +
                        shell_quoted(project.string())),
            "copy of the example");
  std::string yaml = read_file(project / "gkebuild.yaml");
  size_t from = yaml.find("from: ");
  yaml.replace(from, yaml.find('\n', from) - from, "from: " + base().reference);
  write_file_atomically(project / "gkebuild.yaml", yaml);
  auto r = run_command("cd " + shell_quoted(project.string()) + " && " + testing::gkebuild_binary() +
                       " submit sweep --local --insecure-registry " + base().host() + " 2>&1");
  EXPECT_EQ(r.exit_code, 0) << r.all();
  EXPECT_NE(r.out.find("training on sweep-script/trainer with lr=0.1 for 2 epochs"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("training on sweep-script/trainer with lr=0.01 for 2 epochs"), std::string::npos) << r.out;
}

// examples/search/halving (issue 46), as its README runs it: a halving search of 16 trials of a shell
// script with a known optimum, FROM the busybox base, under `submit --local`; some trials stopped at
// a rung, the run not failed for them, and `report` shows the search with its best trial.
TEST(RunExample, HalvingSearchUnderSubmitLocal) {
  if (::geteuid() != 0) GTEST_SKIP() << "runc needs root";
  TempDir dir;
  fs::path project = dir / "halving";
  expect_ok(run_command("cp -a " + shell_quoted(GKEBUILD_SOURCE_ROOT "/examples/search/halving") + " " +
                        shell_quoted(project.string())),
            "copy of the example");
  std::string dockerfile = read_file(project / "Dockerfile");
  dockerfile.replace(0, dockerfile.find('\n'), "FROM " + base().reference);
  write_file_atomically(project / "Dockerfile", dockerfile);
  const std::string in_project = "cd " + shell_quoted(project.string()) + " && " + testing::gkebuild_binary();
  auto r = run_command(in_project + " submit halving --local --max-in-flight 1 --insecure-registry " + base().host() +
                       " 2>&1");
  EXPECT_EQ(r.exit_code, 0) << r.all();
  EXPECT_NE(r.out.find("stopped early"), std::string::npos) << r.out;
  r = run_command(in_project + " report halving -o md 2>&1");
  EXPECT_EQ(r.exit_code, 0) << r.all();
  EXPECT_NE(r.out.find("## Search: run halving-"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("* best trial"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("early stopping (halving): rung 0 (step 1) reached"), std::string::npos) << r.out;
  std::cout << r.out;
}

// ADD URL: downloaded only with --checksum, verified, kept as a 0600 file (as BuildKit does;
// buildah 1.28 has no --checksum to compare with), and refused clearly otherwise.
TEST(AddChecksum, DownloadsOnlyWhatItCanVerify) {
  TempDir dir;
  const std::string content = "weights\n";
  write_file_atomically(dir / "served/model.bin", content);
  int port = testing::free_port();
  auto server = testing::Child::start({"python3", "-m", "http.server", "--bind", "127.0.0.1", "--directory",
                                       (dir / "served").string(), std::to_string(port)},
                                      dir / "server.log");
  testing::wait_for_port(port);
  const std::string url = "http://127.0.0.1:" + std::to_string(port) + "/model.bin";
  auto build = [&](const std::string& line) {
    write_file_atomically(dir / "ctx/Dockerfile", "FROM scratch\n" + line + "\n");
    return run_command(testing::gkebuild_binary() + " image -q --context " + shell_quoted((dir / "ctx").string()) +
                       " --tag add:1 -o oci:" + shell_quoted((dir / "oci").string()));
  };
  const std::string sum = "sha256:" + oci::sha256_of(content).hex;
  auto ok = build("ADD --checksum=" + sum + " " + url + " /models/");
  ASSERT_EQ(ok.exit_code, 0) << ok.all();
  fs::path bundle = dir / "bundle";
  expect_ok(run_command("umoci unpack --image " + shell_quoted((dir / "oci").string() + ":add:1") + " " +
                        shell_quoted(bundle.string())),
            "umoci unpack");
  EXPECT_EQ(describe_tree(bundle / "rootfs").at("models/model.bin"),
            "file 384 0:0 " + oci::sha256_of(content).hex.substr(0, 12));
  auto unverified = build("ADD " + url + " /models/");
  EXPECT_EQ(unverified.exit_code, 2);
  EXPECT_NE(unverified.err.find("Dockerfile:2:5: error: ADD " + url + ": gkebuild downloads a URL only with "
                                "--checksum=sha256:"),
            std::string::npos)
      << unverified.err;
  auto wrong = build("ADD --checksum=sha256:" + std::string(64, '0') + " " + url + " /models/");
  EXPECT_NE(wrong.err.find("has checksum " + sum + ", not sha256:000"), std::string::npos) << wrong.err;
  auto missing = build("ADD --checksum=" + sum + "0 " + url + "x /m");
  EXPECT_NE(missing.err.find("expected sha256:<64 hex digits>"), std::string::npos) << missing.err;
  auto gone = build("ADD --checksum=sha256:" + std::string(64, '1') + " " + url + "x /m");
  EXPECT_NE(gone.err.find("the server answered 404"), std::string::npos) << gone.err;
}

// Issue 30: an image in a registry whose layer names climb out with `..`, go through a symlink
// out, hard-link a file outside or hold devices: building FROM it and copying one file from it
// changes nothing outside the build (the folder "outside" beside the output layout).
TEST(HostileImage, FromARegistryWritesNothingOutside) {
  TempDir dir;
  const fs::path outside = dir / "outside";
  write_file_atomically(outside / "victim", "victim");
  const auto before = describe_tree(outside);
  const std::string host = base().host();
  for (auto [name, entries] : testing::hostile_tars(outside)) {
    entries.push_back({"keep", 'f', "kept"});
    testing::write_test_tar(dir / "evil.tar", entries);
    testing::image_of_tar(dir / "evil-oci", name, dir / "evil.tar");
    const std::string reference = host + "/hostile/" + name + ":1";
    expect_ok(run_command(testing::gkebuild_binary() + " push -q --insecure-registry " + host + " " +
                          shell_quoted("oci:" + (dir / "evil-oci").string() + ":" + name) + " " + reference),
              "push of " + name);
    write_file_atomically(dir / "ctx/Dockerfile", "FROM " + reference + " AS a\nFROM scratch\nCOPY --from=a /keep /keep\n");
    auto built = run_command(testing::gkebuild_binary() + " image -q --insecure-registry " + host + " --context " +
                             shell_quoted((dir / "ctx").string()) + " --tag t:1 -o oci:" +
                             shell_quoted((dir / "oci").string()));
    EXPECT_EQ(describe_tree(outside), before) << name << ": " << built.all();
    if (name == "dotdot") {
      EXPECT_EQ(built.exit_code, 2) << built.all();
      EXPECT_NE(built.err.find("Dockerfile:3:15: error: COPY --from=a: layer sha256:"), std::string::npos) << built.err;
      EXPECT_NE(built.err.find("entry '../../"), std::string::npos) << built.err;
    }
  }
}

std::vector<std::string> cases() {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(kCorpus)) {
    if (e.is_directory()) out.push_back(e.path().filename().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusTest, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

}  // namespace
}  // namespace gkebuild
