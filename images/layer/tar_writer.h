// A deterministic POSIX (pax) tar writer. The same entries always give the same
// bytes: fixed mtime, empty user and group names, no atime/ctime, extended
// headers only where ustar fields cannot hold a value (long paths, big sizes).
// Written by hand because the archive's exact bytes are the image's digest.
#pragma once

#include <cstdint>

#include "images/layer/byte_sink.h"
#include "images/layer/entry.h"

namespace gkebuild::layer {

class TarWriter {
 public:
  TarWriter(ByteSink& out, int64_t mtime) : out_(out), mtime_(mtime) {}

  // Appends one entry; for files, streams `entry.source` and fails with
  // std::runtime_error if it no longer has `entry.size` bytes.
  void add(const Entry& entry);
  // Writes the end-of-archive marker (two zero blocks).
  void finish();

 private:
  void write_header(const Entry& entry);
  void write_file_content(const Entry& entry);
  void pad(int64_t size);

  ByteSink& out_;
  int64_t mtime_;
};

}  // namespace gkebuild::layer
