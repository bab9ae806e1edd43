#include "image_fixture.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>

#include "tests/common/run.h"
#include "tests/common/temp_dir.h"
#include "base/atomic_file.h"

namespace gkebuild::local_runner::testing {
namespace {

namespace fs = std::filesystem;
using gkebuild::testing::run_command;
using gkebuild::testing::shell_quoted;

constexpr const char* kProbeDockerfile = R"(FROM scratch
ENV PATH="/opt/gkebuild/bin:/usr/bin:/bin"
ENV LD_LIBRARY_PATH="/opt/gkebuild/lib"
ENV GREETING="from the image"
COPY lib/ /opt/gkebuild/lib/
COPY lib/ld-linux-x86-64.so.2 /lib64/ld-linux-x86-64.so.2
COPY bin/ /opt/gkebuild/bin/
COPY etc/ /etc/
WORKDIR /work
ENTRYPOINT ["/opt/gkebuild/bin/probe"]
CMD ["print", "default command"]
)";

std::string build(const std::string& arguments) {
  const auto built = run_command("env SOURCE_DATE_EPOCH=1700000000 " + gkebuild::testing::gkebuild_binary() +
                                 " image --quiet " + arguments);
  EXPECT_EQ(built.exit_code, 0) << built.all();
  return built.all().substr(0, built.all().find('\n'));
}

TestImages build_all(const fs::path& dir) {
  TestImages images{dir / "oci", ""};
  const std::string layout = " --output oci:" + shell_quoted(images.layout.string());
  build("--dockerfile " GKEBUILD_SOURCE_ROOT "/examples/hello-image/Dockerfile --context " +
        shell_quoted((dir / "hello").string()) + " --stage " HELLO_IMAGE_PROGRAM " --tag hello:1" + layout);

  const fs::path context = dir / "probe";
  write_file_atomically(context / "etc/passwd", "root:x:0:0:root:/root:/bin/sh\napp:x:1000:1001::/work:/bin/sh\n");
  write_file_atomically(context / "etc/group", "root:x:0:\napp:x:1001:\nstaff:x:50:app\n");
  write_file_atomically(dir / "Dockerfile.probe", kProbeDockerfile);
  write_file_atomically(dir / "Dockerfile.user", std::string(kProbeDockerfile) + "USER app\n");
  const std::string probe = " --context " + shell_quoted(context.string()) + " --stage " PROBE_PROGRAM;
  images.probe_digest =
      build("--dockerfile " + shell_quoted((dir / "Dockerfile.probe").string()) + probe + " --tag probe:1" + layout);
  build("--dockerfile " + shell_quoted((dir / "Dockerfile.user").string()) + probe + " --tag probe:user" + layout);
  return images;
}

}  // namespace

const TestImages& test_images() {
  // Kept for the whole test binary; removed at exit.
  static const auto dir = std::make_unique<gkebuild::testing::TempDir>();
  static const TestImages images = build_all(dir->path());
  return images;
}

}  // namespace gkebuild::local_runner::testing
