#include "images/layer/layer_writer.h"

#include <algorithm>
#include <stdexcept>

#include "base/confined_path.h"
#include "base/error.h"
#include "base/printable.h"

#include "images/layer/tar_writer.h"
#include "images/oci/media_types.h"

namespace gkebuild::layer {
namespace {

class HashingSink final : public ByteSink {
 public:
  explicit HashingSink(ByteSink* next) : next_(next) {}
  void write(std::string_view bytes) override {
    hasher_.update(bytes);
    if (next_ != nullptr) next_->write(bytes);
  }
  oci::Digest finish() { return hasher_.finish(); }

 private:
  oci::Sha256 hasher_;
  ByteSink* next_;
};

class BlobSink final : public ByteSink {
 public:
  explicit BlobSink(oci::BlobWriter& writer) : writer_(writer) {}
  void write(std::string_view bytes) override { writer_.write(bytes); }

 private:
  oci::BlobWriter& writer_;
};

// A layer gkebuild writes names every entry (and hard link target) by its normal relative path:
// no leading '/', no "." or ".." component, nothing that a runtime could take to lead out.
void check_normal(const Entry& e) {
  auto normal = [](const std::string& path) { return !path.empty() && tree_path(path) == path; };
  if (!normal(e.path) || (e.type == EntryType::kHardlink && !normal(e.link_target))) {
    const std::string& bad = normal(e.path) ? e.link_target : e.path;
    throw Error(ErrorKind::kCannotRun, "layer entry '" + printable(bad) +
                "' is not a normal relative path (a '..', '.' or empty component, or a leading '/'); "
                "gkebuild writes no such entry");
  }
}

}  // namespace

std::string_view layer_media_type(Compression kind) {
  return kind == Compression::kGzip ? oci::media::kOciLayerGzip : oci::media::kOciLayerZstd;
}

void write_tar(std::vector<Entry> entries, int64_t mtime, ByteSink& out) {
  std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) { return a.path < b.path; });
  for (const Entry& e : entries) check_normal(e);
  TarWriter tar(out, mtime);
  for (const Entry& e : entries) tar.add(e);
  tar.finish();
}

BuiltLayer write_layer(const oci::Layout& layout, std::vector<Entry> entries,
                       const LayerOptions& options) {
  oci::BlobWriter blob = layout.begin_blob();
  BlobSink blob_sink(blob);
  auto compressor = make_compressor(options.compression, blob_sink);
  HashingSink uncompressed(compressor.get());
  write_tar(std::move(entries), options.mtime, uncompressed);
  compressor->finish();
  BuiltLayer built;
  built.diff_id = uncompressed.finish();
  built.blob = blob.commit(layer_media_type(options.compression.kind));
  return built;
}

oci::Digest diff_id_of(std::vector<Entry> entries, int64_t mtime) {
  HashingSink hasher(nullptr);
  write_tar(std::move(entries), mtime, hasher);
  return hasher.finish();
}

}  // namespace gkebuild::layer
