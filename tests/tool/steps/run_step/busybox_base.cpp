#include "busybox_base.h"

#include "base/atomic_file.h"
#include "images/image/layout_sink.h"
#include "images/layer/layer_writer.h"

namespace gkebuild::run_step::testing {
namespace fs = std::filesystem;
using layer::Entry;
using layer::EntryType;
namespace {

constexpr const char* kBusybox = "/bin/busybox";
constexpr const char* kApplets[] = {"sh",  "ls",  "rm",    "mkdir", "chmod", "chown", "ln",   "echo", "cat",
                                    "touch", "id", "env", "mknod", "mv",    "cp",    "test", "pwd",  "stat",
                                    "true", "false", "printf", "sleep", "wc", "grep", "sort", "whoami", "rmdir", "seq"};

Entry file(const fs::path& files, const std::string& path, const std::string& content, uint32_t mode = 0644,
           uint32_t owner = 0) {
  const fs::path source = files / path;
  write_file_atomically(source, content);
  return Entry{path, EntryType::kFile, mode, owner, owner, static_cast<int64_t>(content.size()), "", source};
}

Entry dir(const std::string& path, uint32_t mode = 0755, uint32_t owner = 0) {
  return Entry{path, EntryType::kDirectory, mode, owner, owner};
}

}  // namespace

std::vector<Entry> busybox_entries(const fs::path& files) {
  std::vector<Entry> out = {dir("bin"), dir("etc"), dir("home"), dir("home/app", 0755, 1000), dir("data"),
                            dir("data/sub"), dir("tmp", 01777), dir("root", 0700)};
  out.push_back(Entry{"bin/busybox", EntryType::kFile, 0755, 0, 0, static_cast<int64_t>(fs::file_size(kBusybox)),
                      "", kBusybox});
  for (const char* applet : kApplets) out.push_back(Entry{std::string("bin/") + applet, EntryType::kSymlink, 0777, 0, 0, 0, "busybox"});
  out.push_back(file(files, "etc/passwd", "root:x:0:0:root:/root:/bin/sh\napp:x:1000:1000::/home/app:/bin/sh\n"));
  out.push_back(file(files, "etc/group", "root:x:0:\napp:x:1000:\nusers:x:100:app\n"));
  out.push_back(file(files, "etc/keep", "keep\n"));
  out.push_back(file(files, "data/one", "one\n"));
  out.push_back(file(files, "data/gone", "gone\n"));
  out.push_back(file(files, "data/sub/two", "two\n"));
  return out;
}

std::vector<Entry> mount_point_entries(const fs::path& files) {
  return {dir("proc"), dir("dev"), dir("sys"), dir("run"), file(files, "etc/hosts", ""),
          file(files, "etc/resolv.conf", ""), file(files, "etc/hostname", "")};
}

image::Image with_layer(const image::Image& base, std::vector<Entry> entries, const std::shared_ptr<oci::Layout>& layout) {
  const layer::BuiltLayer built = layer::write_layer(*layout, std::move(entries), {});
  return image::append_layer(base, image::Layer{built.blob, built.diff_id, layout}, oci::History{});
}

void tag_image(oci::Layout& layout, const image::Image& image, const std::string& tag) {
  layout.tag(tag, image::write_to_layout(layout, image));
}

}  // namespace gkebuild::run_step::testing
