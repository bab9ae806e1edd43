#include "images/image/decompress.h"

#include <zlib.h>
#include <zstd.h>

#include <fstream>
#include <stdexcept>
#include <string>

#include "base/error.h"

namespace gkebuild::image {
namespace {

constexpr size_t kBuffer = 1 << 20;

template <typename Consume>
void read_chunks(const std::filesystem::path& path, Consume consume) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorKind::kFailed, "cannot read " + path.string());
  std::string buffer(kBuffer, '\0');
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    if (in.gcount() > 0) consume(std::string_view(buffer.data(), static_cast<size_t>(in.gcount())));
  }
  if (in.bad()) throw Error(ErrorKind::kFailed, "cannot read " + path.string());
}

void gunzip(const std::filesystem::path& blob, layer::ByteSink& out) {
  z_stream z{};
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) throw Error(ErrorKind::kFailed, "zlib: cannot initialise");
  std::string output(kBuffer, '\0');
  bool ended = false;
  try {
    read_chunks(blob, [&](std::string_view chunk) {
      z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(chunk.data()));
      z.avail_in = static_cast<uInt>(chunk.size());
      do {
        if (ended && z.avail_in > 0) {  // another gzip member follows
          inflateReset(&z);
          ended = false;
        }
        z.next_out = reinterpret_cast<Bytef*>(output.data());
        z.avail_out = static_cast<uInt>(output.size());
        int rc = inflate(&z, Z_NO_FLUSH);
        if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
          throw Error(ErrorKind::kFailed, "corrupt gzip blob " + blob.string());
        }
        out.write(std::string_view(output.data(), output.size() - z.avail_out));
        if (rc == Z_STREAM_END) ended = true;
      } while (z.avail_in > 0 || z.avail_out == 0);
    });
  } catch (...) {
    inflateEnd(&z);
    throw;
  }
  inflateEnd(&z);
  if (!ended) throw Error(ErrorKind::kFailed, "truncated gzip blob " + blob.string());
}

void unzstd(const std::filesystem::path& blob, layer::ByteSink& out) {
  ZSTD_DCtx* context = ZSTD_createDCtx();
  std::string output(ZSTD_DStreamOutSize(), '\0');
  size_t last = 0;
  try {
    read_chunks(blob, [&](std::string_view chunk) {
      ZSTD_inBuffer in{chunk.data(), chunk.size(), 0};
      ZSTD_outBuffer o{output.data(), output.size(), 0};
      do {
        o.pos = 0;
        last = ZSTD_decompressStream(context, &o, &in);
        if (ZSTD_isError(last)) throw Error(ErrorKind::kFailed, "corrupt zstd blob " + blob.string());
        out.write(std::string_view(output.data(), o.pos));
      } while (in.pos < in.size || o.pos == o.size);
    });
  } catch (...) {
    ZSTD_freeDCtx(context);
    throw;
  }
  ZSTD_freeDCtx(context);
  if (last != 0) throw Error(ErrorKind::kFailed, "truncated zstd blob " + blob.string());
}

}  // namespace

void decompress_blob(const std::filesystem::path& blob, std::string_view media_type,
                     layer::ByteSink& out) {
  if (media_type.ends_with("gzip")) return gunzip(blob, out);
  if (media_type.ends_with("zstd")) return unzstd(blob, out);
  if (media_type.ends_with(".tar") || media_type.ends_with("diff.tar")) {
    return read_chunks(blob, [&](std::string_view chunk) { out.write(chunk); });
  }
  throw Error(ErrorKind::kFailed, "cannot unpack a layer of media type " + std::string(media_type));
}

}  // namespace gkebuild::image
