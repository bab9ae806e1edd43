// The trees a build materialises from untrusted tars (issue 30): each input is a tar (any
// compression) that is ADDed in one stage and read by COPY --from in the next, then the layer of
// an `oci:` image that COPY --from reads. Whatever its names (`..`, absolute), symlinks, hard links
// and devices, nothing outside the build may change: the folder "outside" beside the store, which
// names climbing 4 to 8 levels from the trees reach (the seeds aim there), must stay as it was, or
// the target stops with std::logic_error (a finding). scripts/fuzz.sh runs it as an unprivileged
// user, so that an escape elsewhere cannot touch anything that user may not write.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "base/atomic_file.h"
#include "images/dockerfile_build/builder.h"
#include "tests/images/unpacked_tree.h"
#include "fuzz_target.h"
#include "images/image/layout_sink.h"
#include "images/oci/media_types.h"

namespace {
namespace fs = std::filesystem;
using namespace gkebuild;

fs::path removed_at_exit;  // a global, so that it outlives the atexit handler registered after it

const fs::path& work_dir() {
  static const fs::path dir = [] {
    std::string pattern = (fs::temp_directory_path() / "gkebuild-fuzz-tree.XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::logic_error("mkdtemp failed");
    write_file_atomically(fs::path(pattern) / "outside/victim", "victim");
    removed_at_exit = pattern;
    std::atexit([] {
      std::error_code ignored;
      fs::remove_all(removed_at_exit, ignored);
    });
    return fs::path(pattern);
  }();
  return dir;
}

void build_from(const std::string& dockerfile) {
  write_file_atomically(work_dir() / "ctx/Dockerfile", dockerfile);
  build::BuildOptions options;
  options.dockerfile = work_dir() / "ctx/Dockerfile";
  options.context = work_dir() / "ctx";
  options.compression = {layer::Compression::kGzip, 1, 1};
  options.max_add_bytes = 1 << 20;
  try {
    build::build_image(options, std::make_shared<oci::Layout>(oci::Layout::open_or_create(work_dir() / "oci")));
  } catch (const std::runtime_error&) {
  }
}

// The input as the one layer of an image tagged "fuzz" in the layout `dir`.
void write_image(const fs::path& dir, std::string_view tar) {
  auto store = std::make_shared<oci::Layout>(oci::Layout::open_or_create(dir));
  image::Layer layer{store->write_blob(oci::media::kOciLayer, tar), oci::sha256_of(tar), store};
  store->tag("fuzz", image::write_to_layout(*store, image::append_layer(image::Image(), layer, {})));
}

}  // namespace

GKEBUILD_FUZZ_TARGET({
  static const auto before = testing::describe_tree(work_dir() / "outside");
  fs::remove_all(work_dir() / "ctx");
  fs::remove_all(work_dir() / "oci");
  fs::remove_all(work_dir() / "image");
  write_file_atomically(work_dir() / "ctx/in.tar", std::string(input));
  build_from("FROM scratch AS a\nADD in.tar /app/\nFROM scratch\nCOPY --from=a /app/keep /keep\n");
  write_image(work_dir() / "image", input);
  build_from("FROM oci:" + (work_dir() / "image").string() + ":fuzz AS a\nFROM scratch\nCOPY --from=a /keep /keep\n");
  if (testing::describe_tree(work_dir() / "outside") != before) {
    throw std::logic_error("a tar changed " + (work_dir() / "outside").string());
  }
})
