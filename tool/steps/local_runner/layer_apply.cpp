#include "tool/steps/local_runner/layer_apply.h"

#include <archive.h>
#include <archive_entry.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>

#include "base/confined_path.h"
#include "base/error.h"
#include "base/printable.h"
#include "tool/steps/local_runner/root_path.h"

namespace gkebuild::local_runner {
namespace fs = std::filesystem;
namespace {

constexpr std::string_view kWhiteoutPrefix = ".wh.";
constexpr std::string_view kOpaqueWhiteout = ".wh..wh..opq";

// Feeds libarchive from the blob file and hashes every byte on the way.
class HashingReader {
 public:
  explicit HashingReader(const fs::path& blob) : in_(blob, std::ios::binary) {
    if (!in_) throw Error(ErrorKind::kFailed, "cannot read layer blob " + blob.string());
  }
  static la_ssize_t read(archive*, void* self, const void** buffer) {
    auto* reader = static_cast<HashingReader*>(self);
    reader->in_.read(reader->buffer_.data(), static_cast<std::streamsize>(reader->buffer_.size()));
    const auto n = reader->in_.gcount();
    reader->hasher_.update(std::string_view(reader->buffer_.data(), static_cast<size_t>(n)));
    *buffer = reader->buffer_.data();
    return n;
  }
  // Hashes what libarchive left unread (padding after the tar's end) and returns the digest.
  oci::Digest finish() {
    const void* ignored = nullptr;
    while (read(nullptr, this, &ignored) > 0) {
    }
    return hasher_.finish();
  }

 private:
  std::ifstream in_;
  std::array<char, 1 << 16> buffer_{};
  oci::Sha256 hasher_;
};

using ArchivePtr = std::unique_ptr<archive, int (*)(archive*)>;

constexpr int kExtractFlags = ARCHIVE_EXTRACT_OWNER | ARCHIVE_EXTRACT_PERM | ARCHIVE_EXTRACT_TIME |
                              ARCHIVE_EXTRACT_XATTR | ARCHIVE_EXTRACT_UNLINK;

class LayerApplier {
 public:
  LayerApplier(const fs::path& blob, const oci::Digest& digest, fs::path rootfs, Whiteouts whiteouts)
      : blob_(blob), digest_(digest), rootfs_(std::move(rootfs)), whiteouts_(whiteouts), reader_(blob),
        in_(archive_read_new(), archive_read_free), out_(archive_write_disk_new(), archive_write_free) {
    archive_read_support_filter_all(in_.get());
    archive_read_support_format_tar(in_.get());
    archive_write_disk_set_options(out_.get(), kExtractFlags);
    if (archive_read_open(in_.get(), &reader_, nullptr, &HashingReader::read, nullptr) != ARCHIVE_OK) {
      fail("cannot open", archive_error_string(in_.get()));
    }
  }

  void apply() {
    archive_entry* entry = nullptr;
    int status;
    while ((status = archive_read_next_header(in_.get(), &entry)) == ARCHIVE_OK ||
           status == ARCHIVE_WARN) {
      apply_entry(entry);
    }
    if (status != ARCHIVE_EOF) fail("cannot read", archive_error_string(in_.get()));
    if (archive_write_close(out_.get()) < ARCHIVE_WARN) {
      fail("cannot finish writing", archive_error_string(out_.get()));
    }
    const oci::Digest actual = reader_.finish();
    if (actual != digest_) {
      throw Error(ErrorKind::kFailed, "layer blob " + blob_.string() + " is corrupt: its content has digest " +
                  actual.str() + ", not " + digest_.str());
    }
  }

 private:
  [[noreturn]] void fail(const std::string& what, const char* detail) const {
    throw Error(ErrorKind::kFailed, what + " layer " + digest_.str() + ": " + (detail ? detail : "unknown error"));
  }

  std::string checked_path(const char* raw) const {
    auto path = tree_path(raw ? raw : "");
    if (!path) {
      throw Error(ErrorKind::kFailed, "layer " + digest_.str() + ": entry '" + printable(raw ? raw : "") +
                  "' points outside the root file system");
    }
    return *path;
  }

  void apply_entry(archive_entry* entry) {
    const std::string path = checked_path(archive_entry_pathname(entry));
    if (path.empty()) return;  // "./": the root directory itself keeps its mode
    const fs::path relative(path);
    const std::string name = relative.filename().string();
    const fs::path parent = resolve_in_root(rootfs_, relative.parent_path().string());
    const bool overlay = whiteouts_ == Whiteouts::kOverlay;
    if (name == kOpaqueWhiteout) return overlay ? mark_opaque(parent) : empty_directory(parent);
    if (name.starts_with(kWhiteoutPrefix)) return remove_whited_out(parent, name, path);
    const fs::path target = parent / name;
    make_room(target, archive_entry_filetype(entry) == AE_IFDIR && !archive_entry_hardlink(entry));
    if (const char* link = archive_entry_hardlink(entry)) {
      const fs::path source(checked_path(link));
      const fs::path linked = resolve_in_root(rootfs_, source.parent_path().string()) / source.filename();
      archive_entry_set_hardlink(entry, linked.c_str());
    }
    archive_entry_set_pathname(entry, target.c_str());
    if (archive_write_header(out_.get(), entry) < ARCHIVE_WARN) {
      fail("cannot write entry '" + path + "' of", archive_error_string(out_.get()));
    }
    copy_data(path);
    written_.insert(target.string());
  }

  // ".wh.NAME" removes NAME beside it. ".wh.." and ".wh..." name no sibling: they would remove
  // the directory itself or its parent (at the top, the root file system or the folder holding
  // it), so they are refused, as is an empty name.
  void remove_whited_out(const fs::path& parent, const std::string& name, const std::string& path) {
    const std::string removed = name.substr(kWhiteoutPrefix.size());
    if (removed.empty() || removed == "." || removed == "..") {
      throw Error(ErrorKind::kFailed, "layer " + digest_.str() + ": whiteout entry '" + printable(path) +
                  "' names no file beside it (it would remove '" + printable(removed) +
                  "'); the layer is refused");
    }
    std::error_code ignored;
    fs::remove_all(parent / removed, ignored);
    if (whiteouts_ == Whiteouts::kOverlay) {
      fs::create_directories(parent);
      if (::mknod((parent / removed).c_str(), S_IFCHR | 0, ::makedev(0, 0)) != 0) {
        fail("cannot make the overlay whiteout '" + printable(path) + "' of", std::strerror(errno));
      }
    }
  }

  void mark_opaque(const fs::path& directory) {
    fs::create_directories(directory);
    if (::lsetxattr(directory.c_str(), "trusted.overlay.opaque", "y", 1, 0) != 0) {
      fail("cannot mark '" + printable(directory.string()) + "' opaque in", std::strerror(errno));
    }
  }

  // A directory entry merges with a directory below; anything else replaces what is there.
  void make_room(const fs::path& target, bool is_directory) {
    std::error_code ec;
    const auto status = fs::symlink_status(target, ec);
    if (ec || !fs::exists(status)) return;
    if (is_directory && fs::is_directory(status)) return;
    if (fs::is_directory(status)) fs::remove_all(target);
  }

  void copy_data(const std::string& path) {
    const void* block = nullptr;
    size_t size = 0;
    la_int64_t offset = 0;
    int status;
    while ((status = archive_read_data_block(in_.get(), &block, &size, &offset)) == ARCHIVE_OK) {
      if (archive_write_data_block(out_.get(), block, size, offset) < ARCHIVE_WARN) {
        fail("cannot write '" + path + "' of", archive_error_string(out_.get()));
      }
    }
    if (status != ARCHIVE_EOF) fail("cannot read '" + path + "' of", archive_error_string(in_.get()));
    if (archive_write_finish_entry(out_.get()) < ARCHIVE_WARN) {
      fail("cannot finish '" + path + "' of", archive_error_string(out_.get()));
    }
  }

  // Removes what the layers below put in `directory`; what this layer wrote there stays.
  void empty_directory(const fs::path& directory) {
    std::error_code ec;
    if (!fs::is_directory(fs::symlink_status(directory, ec))) return;
    for (const auto& child : fs::directory_iterator(directory)) {
      if (!written_here_or_below(child.path().string())) fs::remove_all(child.path());
    }
  }

  bool written_here_or_below(const std::string& path) const {
    if (written_.contains(path)) return true;
    auto next = written_.lower_bound(path + "/");
    return next != written_.end() && next->starts_with(path + "/");
  }

  fs::path blob_;
  oci::Digest digest_;
  fs::path rootfs_;
  Whiteouts whiteouts_;
  HashingReader reader_;
  ArchivePtr in_;
  ArchivePtr out_;
  std::set<std::string> written_;
};

}  // namespace

void apply_layer(const fs::path& blob, const oci::Digest& digest, const fs::path& rootfs, Whiteouts whiteouts) {
  LayerApplier(blob, digest, rootfs, whiteouts).apply();
}

}  // namespace gkebuild::local_runner
