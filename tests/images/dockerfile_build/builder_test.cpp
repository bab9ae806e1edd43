#include "images/dockerfile_build/builder.h"

#include <sys/stat.h>

#include <functional>

#include <gtest/gtest.h>

#include "base/atomic_file.h"
#include "images/dockerfile_build/image_files.h"
#include "images/dockerfile_build/copy_sources.h"
#include "images/dockerfile/dockerfile_error.h"
#include "images/image/layout_sink.h"
#include "tests/common/run.h"
#include "tests/common/temp_dir.h"
#include "tests/common/test_tar.h"
#include "tests/images/unpacked_tree.h"
#include "tests/images/tar_image.h"
#include "images/layer/layer_writer.h"

namespace gkebuild::build {
namespace {
namespace fs = std::filesystem;
using gkebuild::testing::TempDir;

constexpr const char* kStandardPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

class BuilderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    write("ctx/lib/libx.so", std::string(100000, 'l'));
    write("ctx/bin/app", "#!/bin/true\n");
    fs::permissions(dir / "ctx/bin/app", fs::perms::owner_all | fs::perms::group_read);
    dockerfile("FROM scratch\nCOPY lib/ /opt/gkebuild/lib/\nCOPY bin/ /opt/gkebuild/bin/\n"
               "ENTRYPOINT [\"/opt/gkebuild/bin/app\"]\n");
    store = std::make_shared<oci::Layout>(oci::Layout::open_or_create(dir / "oci"));
  }

  void write(const std::string& path, const std::string& content) {
    write_file_atomically(dir / path, content);
  }
  void dockerfile(const std::string& text) { write("ctx/Dockerfile", text); }

  BuildResult build(const std::string& context = "ctx") {
    options.dockerfile = dir / context / "Dockerfile";
    options.context = dir / context;
    return build_image(options, store);
  }

  // "path type mode uid:gid [-> target | content]" for every entry of the built image.
  std::map<std::string, std::string> files_of(const image::Image& image) {
    LayerListings listings;
    std::map<std::string, std::string> out;
    for (const auto& [path, e] : ImageFiles(image, dir / "scratch", listings).all()) {
      std::string what = std::to_string(static_cast<int>(e.type)) + " " + std::to_string(e.mode) + " " +
                         std::to_string(e.uid) + ":" + std::to_string(e.gid);
      if (e.type == layer::EntryType::kSymlink) what += " -> " + e.link_target;
      if (e.type == layer::EntryType::kFile) what += " " + read_file(e.source);
      out[path] = what;
    }
    return out;
  }

  std::string error_of(const std::string& text) {
    dockerfile(text);
    try {
      build();
    } catch (const dockerfile::DockerfileError& e) {
      return std::to_string(e.line()) + ": " + e.message();
    }
    return "no error";
  }

  TempDir dir;
  std::shared_ptr<oci::Layout> store;
  BuildOptions options;
};

TEST_F(BuilderTest, OneLayerPerCopyAndTheConfig) {
  BuildResult r = build();
  EXPECT_EQ(r.layers_built, 2);
  const auto& config = r.image.config();
  EXPECT_EQ(config.diff_ids.size(), 2u);
  EXPECT_EQ(config.history.size(), 4u);
  EXPECT_EQ(config.created, "1970-01-01T00:00:00Z");
  EXPECT_EQ(*config.config.entrypoint, std::vector<std::string>{"/opt/gkebuild/bin/app"});
  // What buildah and Docker give FROM scratch, and nothing more.
  EXPECT_EQ(config.config.env, std::vector<std::string>{"PATH=" + std::string(kStandardPath)});
  EXPECT_TRUE(config.config.labels.empty());
}

TEST_F(BuilderTest, TheDefaultPathIsSetAtFromAndOnlyWhenTheBaseHasNone) {
  const std::string path = kStandardPath;
  dockerfile("FROM scratch\nENV P=$PATH:/x\n");
  EXPECT_EQ(build().image.config().config.env, (std::vector<std::string>{"PATH=" + path, "P=" + path + ":/x"}));
  dockerfile("FROM scratch\nENV PATH=/opt/bin A=1\n");
  store->tag("base:1", image::write_to_layout(*store, build().image));
  dockerfile("FROM oci:" + (dir / "oci").string() + ":base:1\nENV B=2\n");
  EXPECT_EQ(build().image.config().config.env, (std::vector<std::string>{"PATH=/opt/bin", "A=1", "B=2"}));
}

TEST_F(BuilderTest, UnchangedLayersComeFromTheCacheWithoutRebuilding) {
  BuildResult first = build();
  BuildResult second = build();
  EXPECT_EQ(second.layers_built, 0);
  EXPECT_EQ(second.layers_cached, 2);
  EXPECT_EQ(first.image.digest(), second.image.digest());
  write("ctx/bin/app", "#!/bin/false\n");  // same size, new content
  BuildResult third = build();
  EXPECT_EQ(third.layers_cached, 1);
  EXPECT_EQ(third.layers_built, 1);
  EXPECT_NE(third.image.digest(), first.image.digest());
}

TEST_F(BuilderTest, TouchedFilesHitTheContentCache) {
  BuildResult first = build();
  fs::last_write_time(dir / "ctx/lib/libx.so", fs::file_time_type::clock::now() + std::chrono::hours(1));
  BuildResult second = build();
  EXPECT_EQ(second.layers_built, 0);
  EXPECT_EQ(first.image.digest(), second.image.digest());
}

TEST_F(BuilderTest, SameDigestFromACopyOfTheContextWithAnotherUmask) {
  BuildResult first = build();
  mode_t old = ::umask(0002);
  fs::copy(dir / "ctx", dir / "elsewhere", fs::copy_options::recursive);
  fs::permissions(dir / "elsewhere/lib/libx.so", fs::perms::owner_read | fs::perms::owner_write |
                                                     fs::perms::group_read | fs::perms::group_write);
  ::umask(old);
  auto other = std::make_shared<oci::Layout>(oci::Layout::open_or_create(dir / "oci2"));
  store = other;
  BuildResult second = build("elsewhere");
  EXPECT_EQ(second.layers_built, 2);
  EXPECT_EQ(first.image.digest(), second.image.digest());
}

TEST_F(BuilderTest, ConfigInstructions) {
  dockerfile(
      "ARG V=1\nFROM scratch\nARG V\nARG W=2\nENV A=$V B=\"x $W\"\nENV C legacy form\n"
      "LABEL l=$A\nWORKDIR /w\nWORKDIR sub\nUSER 10:20\nEXPOSE 80 53/udp\nVOLUME /data\n"
      "STOPSIGNAL SIGTERM\nCMD echo hi\n");
  auto c = build().image.config().config;
  EXPECT_EQ(c.env, (std::vector<std::string>{"PATH=" + std::string(kStandardPath), "A=1", "B=x 2",
                                             "C=legacy form"}));
  EXPECT_EQ(c.labels.at("l"), "1");
  EXPECT_EQ(c.working_dir, "/w/sub");
  EXPECT_EQ(c.user, "10:20");
  EXPECT_EQ(c.exposed_ports, (std::set<std::string>{"53/udp", "80/tcp"}));
  EXPECT_EQ(c.volumes, std::set<std::string>{"/data"});
  EXPECT_EQ(c.stop_signal, "SIGTERM");
  EXPECT_EQ(*c.cmd, (std::vector<std::string>{"/bin/sh", "-c", "echo hi"}));
}

TEST_F(BuilderTest, BadCopySourcesNameTheLine) {
  EXPECT_NE(error_of("FROM scratch\nCOPY missing /x").find("2: COPY source 'missing' matches nothing"),
            std::string::npos);
  EXPECT_NE(error_of("FROM scratch\n\nCOPY ../ctx /x").find("3: COPY source '../ctx' is outside"),
            std::string::npos);
  EXPECT_NE(error_of("FROM scratch\nCOPY /etc/passwd /x").find("2: COPY source '/etc/passwd' is an absolute"),
            std::string::npos);
  fs::create_symlink("/etc", dir / "ctx/escape");
  EXPECT_NE(error_of("FROM scratch\nCOPY escape/passwd /x").find("outside the build context"),
            std::string::npos);
  EXPECT_EQ(error_of("FROM scratch\nCOPY escape/nothing-here /x"),
            "2: COPY source 'escape/nothing-here' leads outside the build context (through a symlink)");
  EXPECT_NE(error_of("FROM scratch\nCOPY lib/libx.so bin/app /x").find("ending in '/'"),
            std::string::npos);
  EXPECT_NE(error_of("FROM scratch\nCOPY --chown=root lib/ /x/").find("no user 'root' in the image's /etc/passwd"),
            std::string::npos);
  EXPECT_NE(error_of("FROM registry.example/base:1\n").find("registry client"), std::string::npos);
}

// Issue 30: a tar ADDed in one stage, or the layer of an `oci:` image, whose entries climb with
// `..`, are absolute, go through a symlink out, hard-link a file outside or are devices: the
// tree that COPY --from materialises must not change anything outside the build (here the
// folder "outside", beside the store that holds the build's scratch folders).
class HostileTreeTest : public BuilderTest {
 protected:
  // The build's error message, or "" when it built.
  std::string build_error() {
    try {
      build();
    } catch (const std::exception& e) {
      return e.what();
    }
    return "";
  }
  // Builds the Dockerfile `dockerfile_for(name, tar)` gives for each hostile tar (with a file
  // "keep" added) and checks that "outside" is as it was; returns the error of the "dotdot" tar.
  std::string build_each_hostile_tar(const std::function<std::string(const std::string&, const fs::path&)>& dockerfile_for) {
    write_file_atomically(outside / "victim", "victim");
    const auto before = testing::describe_tree(outside);
    std::string dotdot_error;
    for (auto [name, entries] : testing::hostile_tars(outside)) {
      entries.push_back({"keep", 'f', "kept"});
      testing::write_test_tar(dir / "evil.tar", entries);
      dockerfile(dockerfile_for(name, dir / "evil.tar"));
      const std::string error = build_error();
      EXPECT_EQ(testing::describe_tree(outside), before) << name << ": " << error;
      if (name == "dotdot") dotdot_error = error;
    }
    return dotdot_error;
  }
  const fs::path outside = dir / "outside";
};

TEST_F(HostileTreeTest, AddedTarsCopiedFromAStageWriteNothingOutside) {
  const std::string dotdot_error = build_each_hostile_tar([&](const std::string&, const fs::path& tar) {
    fs::rename(tar, dir / "ctx/evil.tar");
    return "FROM scratch AS a\nADD evil.tar /app/\nFROM scratch\nCOPY --from=a /app/keep /keep\n";
  });
  EXPECT_NE(dotdot_error.find("Dockerfile:2"), std::string::npos) << dotdot_error;
  EXPECT_NE(dotdot_error.find("ADD evil.tar: entry '../../"), std::string::npos) << dotdot_error;
  EXPECT_NE(dotdot_error.find("leads outside the folder it is unpacked into"), std::string::npos) << dotdot_error;
}

TEST_F(HostileTreeTest, ImagesFromAnOciLayoutWriteNothingOutside) {
  const std::string dotdot_error = build_each_hostile_tar([&](const std::string& name, const fs::path& tar) {
    testing::image_of_tar(dir / "evil-oci", name, tar);
    return "FROM oci:" + (dir / "evil-oci").string() + ":" + name + " AS a\nFROM scratch\nCOPY --from=a /keep /keep\n";
  });
  EXPECT_NE(dotdot_error.find("Dockerfile:3"), std::string::npos) << dotdot_error;
  EXPECT_NE(dotdot_error.find("COPY --from=a: layer sha256:"), std::string::npos) << dotdot_error;
  EXPECT_NE(dotdot_error.find("entry '../../"), std::string::npos) << dotdot_error;
}

// A base layer that climbs out is refused at the first instruction that reads it, with its line.
TEST_F(HostileTreeTest, ABaseLayerThatClimbsOutIsRefusedAtTheLineThatReadsIt) {
  testing::write_test_tar(dir / "evil.tar", {{"../../x", 'f', "x"}});
  testing::image_of_tar(dir / "evil-oci", "evil", dir / "evil.tar");
  const std::string error = error_of("FROM oci:" + (dir / "evil-oci").string() + ":evil\nWORKDIR /w\n");
  EXPECT_TRUE(error.starts_with("2: layer sha256:")) << error;
  EXPECT_NE(error.find("entry '../../x' leads outside the folder it is unpacked into"), std::string::npos) << error;
}

// Symlinks of the image stay symlinks in the tree COPY --from reads, their targets as they were:
// a path through one lands where the container would see it, inside the tree.
TEST_F(HostileTreeTest, SymlinksStaySymlinksAndPathsThroughThemStayInside) {
  write_file_atomically(outside / "victim", "victim");
  testing::write_test_tar(dir / "ctx/t.tar", {{"link", 'l', outside.string()}, {"link/file", 'f', "x"},
                                               {"rel", 'l', "sub"}, {"sub/", 'd', ""}, {"rel/y", 'f', "y"}});
  dockerfile("FROM scratch AS a\nADD t.tar /app/\nFROM scratch\nCOPY --from=a /app/ /x/\n");
  auto files = files_of(build().image);
  EXPECT_TRUE(files.at("x/link").starts_with("2 ")) << files.at("x/link");  // a symlink
  EXPECT_TRUE(files.at("x/link").ends_with(" -> " + outside.string())) << files.at("x/link");
  EXPECT_TRUE(files.at("x/rel").starts_with("2 ")) << files.at("x/rel");
  EXPECT_TRUE(files.at("x/rel").ends_with(" -> sub")) << files.at("x/rel");
  EXPECT_EQ(files.at("x/sub/y"), "0 420 0:0 y");
  EXPECT_EQ(testing::describe_tree(outside).size(), 1u);
}

// Issue 30: a small compressed tar that unpacks to more than one ADD may write is refused at
// its line before its bytes are written (hard links count again: a layer holds them again).
TEST_F(BuilderTest, AnAddThatUnpacksPastItsLimitIsRefused) {
  options.max_add_bytes = 1 << 20;
  testing::write_test_tar(dir / "ctx/bomb.tar.gz", {{"zeros", 'f', std::string(64 << 20, '\0')}},
                          testing::TarFilter::kGzip);
  EXPECT_LT(fs::file_size(dir / "ctx/bomb.tar.gz"), 1u << 20);
  EXPECT_EQ(error_of("FROM scratch\nADD bomb.tar.gz /data/\n"),
            "2: ADD bomb.tar.gz: the archive unpacks to more than 1048576 bytes (at entry 'zeros'); one ADD "
            "may write at most 1048576 bytes (gkebuild image --max-add-size)");
  EXPECT_FALSE(fs::exists(store->scratch_dir()) && !fs::is_empty(store->scratch_dir()));
  testing::write_test_tar(dir / "ctx/links.tar", {{"a", 'f', std::string(400 << 10, 'a')}, {"b", 'h', "a"},
                                                   {"c", 'h', "a"}});
  EXPECT_EQ(error_of("FROM scratch\nADD links.tar /data/\n"),
            "2: ADD links.tar: the archive unpacks to more than 1048576 bytes (at entry 'c'); one ADD "
            "may write at most 1048576 bytes (gkebuild image --max-add-size)");
  options.max_add_bytes = 2 << 20;
  dockerfile("FROM scratch\nADD links.tar /data/\n");
  EXPECT_EQ(build().image.layers().size(), 1u);
  // The limit is on the whole ADD, not on each of its archives.
  EXPECT_EQ(error_of("FROM scratch\nADD links.tar links.tar /data/\n"),
            "2: ADD links.tar: the archive unpacks to more than 868352 bytes (at entry 'c') after the 1228800 "
            "bytes of the archives before it; one ADD may write at most 2097152 bytes (gkebuild image --max-add-size)");
}

TEST_F(BuilderTest, MaxAddSizeIsAFlagOfGkebuildImage) {
  testing::write_test_tar(dir / "ctx/bomb.tar.gz", {{"zeros", 'f', std::string(4 << 20, '\0')}},
                          testing::TarFilter::kGzip);
  dockerfile("FROM scratch\nADD bomb.tar.gz /data/\n");
  const std::string image = "image -q --context " + testing::shell_quoted((dir / "ctx").string()) +
                            " --tag t:1 -o oci:" + testing::shell_quoted((dir / "out").string());
  auto refused = testing::run_gkebuild(image + " --max-add-size 1Mi");
  EXPECT_EQ(refused.exit_code, 2) << refused.all();
  EXPECT_NE(refused.err.find("Dockerfile:2:5: error: ADD bomb.tar.gz: the archive unpacks to more than 1048576 bytes"),
            std::string::npos) << refused.err;
  auto built = testing::run_gkebuild(image + " --max-add-size 5Mi");
  EXPECT_EQ(built.exit_code, 0) << built.all();
  auto bad = testing::run_gkebuild(image + " --max-add-size 1.5x");
  EXPECT_EQ(bad.exit_code, 2) << bad.all();
  EXPECT_NE(bad.err.find("--max-add-size must be a whole number of bytes such as 64Gi"), std::string::npos) << bad.err;
}

// A symlink in the context that leads out (here to /etc) is never listed or resolved in a
// message: the error names the source as written and nothing that is outside.
TEST_F(BuilderTest, GlobsThroughASymlinkOutOfTheContextRevealNothing) {
  fs::create_symlink("/etc", dir / "ctx/etclink");
  for (const std::string source : {"etclink/*", "etclink/pass*", "etc*/passwd", "*/passwd"}) {
    const std::string error = error_of("FROM scratch\nCOPY " + source + " /x/\n");
    EXPECT_EQ(error, "2: COPY source '" + source + "' leads outside the build context (through a symlink)");
  }
}

// Issue 40: through a symlink out of the context, COPY said "leads outside" when the target
// existed and "matches nothing" when it did not, telling whether a path outside exists. A
// symlink is followed whether or not its target exists: one answer for both.
TEST_F(BuilderTest, ASymlinkOutOfTheContextGetsOneAnswerWhetherItsTargetExistsOrNot) {
  fs::create_directories(dir / "outside/present");
  fs::create_symlink(dir / "outside/present", dir / "ctx/there");
  fs::create_symlink(dir / "outside/absent", dir / "ctx/gone");
  fs::create_symlink("../../outside/absent", dir / "ctx/lib/gone-relative");
  for (const std::string source : {"there", "gone", "there/x", "gone/x", "lib/gone-relative", "lib/gone-relative/x",
                                   "gone/*", "there/*"}) {
    EXPECT_EQ(error_of("FROM scratch\nCOPY " + source + " /x/\n"),
              "2: COPY source '" + source + "' leads outside the build context (through a symlink)")
        << source;
  }
}

// The COPY race: a file is listed, then swapped for a symlink to a host file (or for another
// file) before the layer is written. The writer must refuse instead of packing host bytes.
TEST_F(BuilderTest, AFileSwappedAfterListingIsRefusedByTheLayerWriter) {
  write("secret", std::string(100000, 's'));  // outside the context, the size of lib/libx.so
  const CopyLayer copy = collect_copy({dir / "ctx", {"lib/libx.so"}, "/x"});
  fs::rename(dir / "ctx/lib/libx.so", dir / "listed");  // kept, so that its inode is not reused
  fs::create_symlink(dir / "secret", dir / "ctx/lib/libx.so");
  try {
    layer::write_layer(*store, copy.entries, {});
    FAIL() << "the layer was written through the symlink";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("libx.so was replaced by a symlink after it was listed"), std::string::npos)
        << e.what();
  }
  fs::remove(dir / "ctx/lib/libx.so");
  fs::copy_file(dir / "secret", dir / "ctx/lib/libx.so");  // a regular file again, but another one
  try {
    layer::write_layer(*store, copy.entries, {});
    FAIL() << "the layer was written from another file";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("libx.so changed after it was listed"), std::string::npos) << e.what();
  }
}

TEST_F(BuilderTest, BaseImageFromAnOciLayout) {
  BuildResult base = build();
  store->tag("base:1", image::write_to_layout(*store, base.image));
  dockerfile("FROM oci:" + (dir / "oci").string() + ":base:1\nCOPY --chmod=600 lib/libx.so /extra\n");
  BuildResult derived = build();
  EXPECT_EQ(derived.image.layers().size(), 3u);
  EXPECT_EQ(*derived.image.config().config.entrypoint, std::vector<std::string>{"/opt/gkebuild/bin/app"});
}

// A base layer is listed once (to know what WORKDIR and COPY's parents find), then from the cache.
TEST_F(BuilderTest, BaseLayerListingsAreKeptInTheStore) {
  BuildResult base = build();
  store->tag("base:1", image::write_to_layout(*store, base.image));
  dockerfile("FROM oci:" + (dir / "oci").string() + ":base:1\nWORKDIR /opt/gkebuild/bin\nWORKDIR /new\n");
  BuildResult derived = build();
  EXPECT_EQ(derived.image.layers().size(), 3u);  // only /new is created
  for (const auto& layer : base.image.layers()) {
    EXPECT_TRUE(fs::exists(store->cache_dir() / "listing" / (layer.diff_id.hex + ".json"))) << layer.diff_id.str();
  }
  write_file_atomically(store->cache_dir() / "listing" / (base.image.layers()[1].diff_id.hex + ".json"),
                        R"([["opt/gkebuild/bin/elsewhere",1,493,0,0,""]])");
  EXPECT_EQ(build().image.layers().size(), 4u);  // the listing came from the cache, which lacks opt/gkebuild/bin
}

// COPY and WORKDIR follow the image's symlinked folders (merged /usr: lib -> usr/lib), so the
// layer holds usr/lib/x, not a lib/x that a runtime would have to resolve through the link.
TEST_F(BuilderTest, SymlinkedFoldersOfTheImageAreFollowed) {
  fs::create_directories(dir / "base/usr/lib");
  fs::create_symlink("usr/lib", dir / "base/lib");
  write("base/Dockerfile", "FROM scratch\nCOPY . /\n");
  BuildResult base = build("base");
  store->tag("base:1", image::write_to_layout(*store, base.image));
  dockerfile("FROM oci:" + (dir / "oci").string() + ":base:1\nCOPY bin/app /lib/app\nWORKDIR /lib/work\n");
  auto files = files_of(build().image);
  EXPECT_TRUE(files.contains("usr/lib/app"));
  EXPECT_TRUE(files.contains("usr/lib/work"));
  EXPECT_FALSE(files.contains("lib/app"));
  EXPECT_EQ(files.at("lib"), "2 511 0:0 -> usr/lib");
}

TEST_F(BuilderTest, ArgBeforeFromIsSubstitutedInFrom) {
  BuildResult base = build();
  store->tag("base:1", image::write_to_layout(*store, base.image));
  dockerfile("ARG BASE=oci:" + (dir / "oci").string() + ":base:1\nARG WHO\nFROM $BASE\nARG BASE\nENV B=$BASE W=${WHO:-none}\n");
  auto env = build().image.config().config.env;
  EXPECT_EQ(env.at(1), "B=oci:" + (dir / "oci").string() + ":base:1");
  EXPECT_EQ(env.at(2), "W=none");
}

TEST_F(BuilderTest, DockerignoreExcludesBeforeAnythingIsRead) {
  write("ctx/.dockerignore", "# secrets\nsecret*\n**/*.log\nlib\n!lib/keep.so\n");
  write("ctx/secret.txt", "s");
  write("ctx/bin/x.log", "log");
  write("ctx/lib/keep.so", "k");
  ::chmod((dir / "ctx/secret.txt").c_str(), 0);  // never opened, so never refused as unreadable
  dockerfile("FROM scratch\nCOPY . /app/\n");
  auto files = files_of(build().image);
  EXPECT_FALSE(files.contains("app/secret.txt"));
  EXPECT_FALSE(files.contains("app/bin/x.log"));
  EXPECT_FALSE(files.contains("app/lib/libx.so"));
  EXPECT_TRUE(files.contains("app/lib/keep.so"));
  EXPECT_TRUE(files.contains("app/bin/app"));
  EXPECT_TRUE(files.contains("app/Dockerfile"));  // as BuildKit: the Dockerfile is not excluded unless named
  // A COPY of what .dockerignore excludes names the pattern and its line, not "matches nothing".
  EXPECT_NE(error_of("FROM scratch\nCOPY secret.txt /\n")
                .find("COPY source 'secret.txt' is excluded from the build context by .dockerignore:2 ('secret*')"),
            std::string::npos)
      << error_of("FROM scratch\nCOPY secret.txt /\n");
  EXPECT_NE(error_of("FROM scratch\nCOPY bin/*.log /\n").find("by .dockerignore:3 ('**/*.log'); remove that line, or add '!bin/x.log'"),
            std::string::npos)
      << error_of("FROM scratch\nCOPY bin/*.log /\n");
  EXPECT_NE(error_of("FROM scratch\nCOPY absent.txt /\n").find("'absent.txt' matches nothing"), std::string::npos);
}

// A project: .gkebuild/ is left out whatever .dockerignore says, and a workload's staged
// folder is the named context `workload` (BuildKit's --build-context), read without the
// main context's .dockerignore.
TEST_F(BuilderTest, IgnoredAlwaysAndNamedContexts) {
  write("ctx/.dockerignore", "!.gkebuild\nlib\n");
  write("ctx/.gkebuild/oci/blob", "b");
  write("staged/lib/libw.so", "w");
  options.ignore_always = ".gkebuild\n";
  options.named_contexts["workload"] = dir / "staged";
  dockerfile("FROM scratch\nCOPY . /app/\nCOPY --from=workload lib/ /opt/lib/\n");
  auto files = files_of(build().image);
  EXPECT_FALSE(files.contains("app/.gkebuild"));
  EXPECT_FALSE(files.contains("app/.gkebuild/oci/blob"));
  EXPECT_FALSE(files.contains("app/lib"));
  EXPECT_TRUE(files.contains("app/bin/app"));
  EXPECT_EQ(files.at("opt/lib/libw.so"), "0 420 0:0 w");
  // A stage of that name comes first, as in BuildKit.
  dockerfile("FROM scratch AS workload\nCOPY bin/app /w\nFROM scratch\nCOPY --from=workload /w /x\n");
  EXPECT_TRUE(files_of(build().image).contains("x"));
  EXPECT_NE(error_of("FROM scratch\nCOPY .gkebuild/oci/blob /\n").find("excluded from the build context by gkebuild itself (pattern '.gkebuild')"),
            std::string::npos)
      << error_of("FROM scratch\nCOPY .gkebuild/oci/blob /\n");
}

// A symlink in the context is excluded as what it resolves to, as well as by its name: a link
// to .gkebuild/ or to a file .dockerignore excludes puts none of their bytes in a layer,
// whether COPY names the link, a path through it or a folder that leads back above it.
TEST_F(BuilderTest, ExclusionsApplyToWhatASymlinkResolvesTo) {
  write("ctx/.dockerignore", "secret*\n");
  write("ctx/secret.txt", "s");
  write("ctx/.gkebuild/oci/blob", "b");
  fs::create_symlink("secret.txt", dir / "ctx/notes.txt");
  fs::create_symlink(".gkebuild", dir / "ctx/state");
  fs::create_symlink(".", dir / "ctx/here");
  options.ignore_always = ".gkebuild\n";
  for (const std::string copy : {"COPY notes.txt /", "COPY state /s/", "COPY state/oci/blob /b", "COPY state/* /s/",
                                 "COPY st*/oci /o/", "COPY here/secret.txt /"})
    EXPECT_NE(error_of("FROM scratch\n" + copy + "\n").find("matches nothing"), std::string::npos) << copy;
  dockerfile("FROM scratch\nCOPY here/ /h/\nCOPY . /app/\n");
  const auto files = files_of(build().image);
  for (const auto& [path, what] : files) {
    EXPECT_EQ(path.find(".gkebuild"), std::string::npos) << path;
    EXPECT_EQ(path.find("secret"), std::string::npos) << path;
    EXPECT_FALSE(what.ends_with(" s") || what.ends_with(" b")) << path << " holds " << what;
  }
  EXPECT_TRUE(files.contains("h/bin/app"));
  // COPY . keeps a link as a link: it holds its target's name, never its bytes.
  EXPECT_EQ(files.at("app/notes.txt"), "2 511 0:0 -> secret.txt");
  EXPECT_EQ(files.at("app/state"), "2 511 0:0 -> .gkebuild");
}

TEST_F(BuilderTest, WorkdirAndChownCreateFoldersOwnedAsBuildahDoes) {
  write("ctx/etc/passwd", "root:x:0:0::/root:/bin/sh\nalice:x:1234:2345::/home/alice:/bin/sh\n");
  write("ctx/etc/group", "root:x:0:\nstaff:x:3456:\n");
  dockerfile("FROM scratch\nCOPY etc /etc\nUSER alice\nWORKDIR /home/alice/w\nWORKDIR /etc\n"
             "COPY --chown=alice:staff bin/app /o/p/app\nCOPY --chown=7 bin/app /etc/app\n");
  BuildResult r = build();
  auto files = files_of(r.image);
  EXPECT_EQ(files.at("home"), "1 493 1234:2345");
  EXPECT_EQ(files.at("home/alice/w"), "1 493 1234:2345");
  EXPECT_EQ(files.at("o"), "1 493 1234:3456");
  EXPECT_EQ(files.at("o/p/app"), "0 493 1234:3456 #!/bin/true\n");
  EXPECT_EQ(files.at("etc"), "1 493 0:0");  // an existing parent keeps its owner
  EXPECT_EQ(files.at("etc/app"), "0 493 7:7 #!/bin/true\n");
  EXPECT_EQ(r.image.layers().size(), 4u);  // WORKDIR /etc exists: no layer
  EXPECT_NE(error_of("FROM scratch\nCOPY --chown=bob:x bin/app /a\n").find("2: bob:x: no user 'bob'"),
            std::string::npos);
}

TEST_F(BuilderTest, MultiStageBuildsOnlyWhatTheTargetNeeds) {
  write("ctx/archive/d/f", "in the tar");
  ASSERT_EQ(std::system(("tar -C " + (dir / "ctx/archive").string() + " --owner=5 --group=6 -cJf " +
                         (dir / "ctx/a.tar.xz").string() + " d").c_str()), 0);
  dockerfile("FROM scratch AS build\nCOPY --chmod=0700 bin/app /out/app\nADD a.tar.xz /x/\n"
             "FROM scratch AS unused\nCOPY missing /\n"
             "FROM scratch\nCOPY --from=build /out/app /x/from-build\nCOPY --from=0 /x /tree\n"
             "COPY <<EOF <<'RAW' /h/\nuser $USER\nEOF\nraw $USER\nRAW\n");
  options.build_args["USER"] = "u";
  write("ctx/Dockerfile", read_file(dir / "ctx/Dockerfile").insert(0, "ARG USER\n"));
  auto files = files_of(build().image);
  EXPECT_EQ(files.at("x/from-build"), "0 448 0:0 #!/bin/true\n");
  EXPECT_EQ(files.at("tree/d/f"), "0 420 5:6 in the tar");
  EXPECT_EQ(files.at("h/EOF"), "0 420 0:0 user \n");  // USER is an ARG of the global scope only
  EXPECT_EQ(files.at("h/RAW"), "0 420 0:0 raw $USER\n");
  options.target = "unused";
  EXPECT_NE(error_of(read_file(dir / "ctx/Dockerfile")).find("6: COPY source 'missing' matches nothing"),
            std::string::npos);
}

TEST_F(BuilderTest, RunIsRefusedAtTheFirstRunWithoutARuntime) {
  EXPECT_EQ(error_of("FROM scratch\nCOPY missing /\nRUN a\nRUN b\n").substr(0, 44),
            "3: RUN needs a container runtime: this gkebu");
}

TEST_F(BuilderTest, RunRequestsAndTheirLayerCache) {
  std::vector<RunRequest> seen;
  options.run = [&](const RunRequest& request) {
    seen.push_back(request);
    write("made", "made by run " + std::to_string(seen.size()));
    layer::Entry e{"made", layer::EntryType::kFile, 0644};
    e.source = dir / "made";
    e.size = static_cast<int64_t>(read_file(e.source).size());
    return RunChanges{{e}, nullptr};
  };
  dockerfile("FROM scratch\nARG V=1\nENV E=2\nCOPY bin/app /app\nSHELL [\"/bin/ash\", \"-c\"]\n"
             "USER 5\nWORKDIR /w\nRUN echo $V\nRUN [\"/app\", \"x\"]\nRUN <<EOF\necho hi\nEOF\n"
             "RUN cat <<EOF\nbody\nEOF\n");
  BuildResult first = build();
  ASSERT_EQ(seen.size(), 4u);
  EXPECT_EQ(seen[0].argv, (std::vector<std::string>{"/bin/ash", "-c", "echo $V"}));
  EXPECT_EQ(seen[0].env, (std::vector<std::string>{"PATH=" + std::string(kStandardPath), "E=2", "V=1"}));
  EXPECT_EQ(seen[0].user, "5");
  EXPECT_EQ(seen[0].working_dir, "/w");
  EXPECT_EQ(seen[1].argv, (std::vector<std::string>{"/app", "x"}));
  EXPECT_EQ(seen[2].argv, (std::vector<std::string>{"/bin/ash", "-c", "echo hi\n"}));
  EXPECT_EQ(seen[3].argv, (std::vector<std::string>{"/bin/ash", "-c", "cat <<EOF\nbody\nEOF"}));
  EXPECT_EQ(seen[1].image.layers().size(), seen[0].image.layers().size() + 1);
  // Again: every RUN from the cache. After a change to the COPY source: every RUN again.
  EXPECT_EQ(build().image.digest(), first.image.digest());
  EXPECT_EQ(seen.size(), 4u);
  write("ctx/bin/app", "changed");
  build();
  EXPECT_EQ(seen.size(), 8u);
}

// A RUN whose command fails is a failed build (exit 1), named at its line; not bad input.
TEST_F(BuilderTest, AFailedRunKeepsItsKindAndGainsTheLine) {
  options.run = [](const RunRequest&) -> RunChanges {
    throw Error(ErrorKind::kFailed, "the command exited with 3; the last lines it wrote:\n  \x1b[2Jboom");
  };
  dockerfile("FROM scratch\n\nRUN false\n");
  try {
    build();
    FAIL() << "no error";
  } catch (const dockerfile::DockerfileError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kFailed);
    EXPECT_EQ(e.line(), 3);
    EXPECT_EQ(e.column(), 5);
    EXPECT_EQ(e.message(), "the command exited with 3; the last lines it wrote:\n  \\x1b[2Jboom");
  }
}

// A RUN's files are gone once its layer is written (the holder is released): users it added
// to /etc/passwd are read back from the layer.
TEST_F(BuilderTest, ChownNamesFromARunLayerAreReadFromTheBlob) {
  options.run = [&](const RunRequest&) {
    write("run-out/passwd", "bob:x:4242:4343::/home/bob:/bin/sh\n");
    layer::Entry e{"etc/passwd", layer::EntryType::kFile, 0644};
    e.source = dir / "run-out/passwd";
    e.size = static_cast<int64_t>(read_file(e.source).size());
    fs::path folder = dir / "run-out";
    return RunChanges{{layer::Entry{"etc", layer::EntryType::kDirectory, 0755}, e},
                      std::shared_ptr<const void>(nullptr, [folder](const void*) { fs::remove_all(folder); })};
  };
  dockerfile("FROM scratch\nRUN adduser bob\nCOPY --chown=bob bin/app /home/bob/app\n");
  auto files = files_of(build().image);
  EXPECT_FALSE(fs::exists(dir / "run-out"));
  EXPECT_EQ(files.at("home/bob/app"), "0 493 4242:4343 #!/bin/true\n");
}

}  // namespace
}  // namespace gkebuild::build
