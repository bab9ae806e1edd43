// zstd with ZSTD_c_nbWorkers: zstd's own worker threads compress while the
// caller keeps feeding input. Multi-threaded mode is used even with one thread
// because its output differs from single-threaded mode but not between worker
// counts, which keeps digests the same on every machine.
#include <zstd.h>

#include <stdexcept>
#include <string>

#include "base/error.h"
#include "images/layer/compression.h"

namespace gkebuild::layer {
namespace {

constexpr int kJobSize = 4 << 20;

void check(size_t code, const char* what) {
  if (ZSTD_isError(code)) {
    throw Error(ErrorKind::kFailed, std::string("zstd ") + what + ": " + ZSTD_getErrorName(code));
  }
}

class ZstdCompressor final : public Compressor {
 public:
  ZstdCompressor(int level, int threads, ByteSink& out)
      : context_(ZSTD_createCCtx()), buffer_(ZSTD_CStreamOutSize(), '\0'), out_(out) {
    if (context_ == nullptr) throw Error(ErrorKind::kFailed, "zstd: out of memory");
    check(ZSTD_CCtx_setParameter(context_, ZSTD_c_compressionLevel, level), "level");
    check(ZSTD_CCtx_setParameter(context_, ZSTD_c_checksumFlag, 1), "checksum");
    check(ZSTD_CCtx_setParameter(context_, ZSTD_c_nbWorkers, threads), "workers");
    // Smaller jobs than zstd's default keep the peak memory of a large layer low.
    check(ZSTD_CCtx_setParameter(context_, ZSTD_c_jobSize, kJobSize), "job size");
  }
  ~ZstdCompressor() override { ZSTD_freeCCtx(context_); }

  void write(std::string_view bytes) override { run(bytes, ZSTD_e_continue); }
  void finish() override { run({}, ZSTD_e_end); }

 private:
  void run(std::string_view bytes, ZSTD_EndDirective mode) {
    ZSTD_inBuffer in{bytes.data(), bytes.size(), 0};
    for (;;) {
      ZSTD_outBuffer out{buffer_.data(), buffer_.size(), 0};
      size_t remaining = ZSTD_compressStream2(context_, &out, &in, mode);
      check(remaining, "compress");
      if (out.pos > 0) out_.write(std::string_view(buffer_.data(), out.pos));
      bool done = mode == ZSTD_e_end ? remaining == 0 : in.pos == in.size;
      if (done) return;
    }
  }

  ZSTD_CCtx* context_;
  std::string buffer_;
  ByteSink& out_;
};

}  // namespace

std::unique_ptr<Compressor> make_zstd_compressor(int level, int threads, ByteSink& out) {
  return std::make_unique<ZstdCompressor>(level, threads, out);
}

}  // namespace gkebuild::layer
