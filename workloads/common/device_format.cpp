#include "workloads/common/device_format.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstring>

namespace gkebuild::workloads {

std::size_t element_bytes(Precision precision) {
  return precision == Precision::fp16 || precision == Precision::bf16 ? 2 : 4;
}

std::vector<unsigned char> encode_values(std::vector<float>& values, Precision precision) {
  const std::size_t size = element_bytes(precision);
  std::vector<unsigned char> bytes(values.size() * size);
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (precision == Precision::fp16) {
      const __half h = __float2half_rn(values[i]);
      values[i] = __half2float(h);
      std::memcpy(&bytes[i * 2], &h, 2);
    } else if (precision == Precision::bf16) {
      const __nv_bfloat16 h = __float2bfloat16_rn(values[i]);
      values[i] = __bfloat162float(h);
      std::memcpy(&bytes[i * 2], &h, 2);
    } else {
      std::memcpy(&bytes[i * 4], &values[i], 4);
    }
  }
  return bytes;
}

std::vector<float> decode_values(const std::vector<unsigned char>& bytes, Precision precision) {
  const std::size_t size = element_bytes(precision);
  std::vector<float> values(bytes.size() / size);
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (precision == Precision::fp16) {
      __half h;
      std::memcpy(&h, &bytes[i * 2], 2);
      values[i] = __half2float(h);
    } else if (precision == Precision::bf16) {
      __nv_bfloat16 h;
      std::memcpy(&h, &bytes[i * 2], 2);
      values[i] = __bfloat162float(h);
    } else {
      std::memcpy(&values[i], &bytes[i * 4], 4);
    }
  }
  return values;
}

}  // namespace gkebuild::workloads
