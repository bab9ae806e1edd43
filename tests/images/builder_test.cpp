#include "build/builder.h"

#include <sys/stat.h>

#include <gtest/gtest.h>

#include "base/atomic_file.h"
#include "build/copy_sources.h"
#include "dockerfile/dockerfile_error.h"
#include "image/layout_sink.h"
#include "common/temp_dir.h"
#include "layer/layer_writer.h"

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
    BuildOptions options;
    options.dockerfile = dir / context / "Dockerfile";
    options.context = dir / context;
    return build_image(options, store);
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
  EXPECT_NE(error_of("FROM scratch\nCOPY --chown=root lib/ /x/").find("numeric"), std::string::npos);
  EXPECT_NE(error_of("FROM registry.example/base:1\n").find("registry client"), std::string::npos);
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

}  // namespace
}  // namespace gkebuild::build
