// Layer compression: gzip split into independently compressed members across all
// cores (the output is a standard multi-member gzip stream any runtime reads), or
// multi-threaded zstd. Output depends only on the input and the level, never on
// the number of threads, so digests are reproducible across machines.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "images/layer/byte_sink.h"

namespace gkebuild::layer {

enum class Compression { kGzip, kZstd };

struct CompressionOptions {
  Compression kind = Compression::kGzip;
  int level = 0;    // 0: the default of the kind (gzip 1, zstd 3)
  int threads = 0;  // 0: every core
};

class Compressor : public ByteSink {
 public:
  // Flushes everything still buffered to the output sink.
  virtual void finish() = 0;
};

// Throws InputError when the level is out of range for the kind.
std::unique_ptr<Compressor> make_compressor(const CompressionOptions& options, ByteSink& out);

std::optional<Compression> parse_compression(std::string_view name);
std::string_view name_of(Compression kind);
int effective_level(const CompressionOptions& options);
int effective_threads(const CompressionOptions& options);

std::unique_ptr<Compressor> make_gzip_compressor(int level, int threads, ByteSink& out);
std::unique_ptr<Compressor> make_zstd_compressor(int level, int threads, ByteSink& out);

}  // namespace gkebuild::layer
