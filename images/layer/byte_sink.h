// Where a stream of bytes goes: a hasher, a compressor, a file. Stages chain.
#pragma once

#include <string_view>

namespace gkebuild::layer {

class ByteSink {
 public:
  virtual ~ByteSink() = default;
  virtual void write(std::string_view bytes) = 0;
};

}  // namespace gkebuild::layer
