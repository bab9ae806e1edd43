#include "workloads/conv-bench/conv_shape.h"

#include "workloads/common/errors.h"

namespace gkebuild::workloads {

nlohmann::json ConvShape::json() const {
  return {{"layer", name}, {"n", n}, {"c", c}, {"h", h}, {"w", w}, {"k", k}, {"r", r}, {"s", s},
          {"stride", stride}, {"pad", pad}, {"p", p()}, {"q", q()}};
}

std::vector<ConvShape> resnet50_layers(std::int64_t b) {
  //       name               n  c     h    w    k     r  s  stride pad
  return {{"conv1", b, 3, 224, 224, 64, 7, 7, 2, 3},
          {"res2_1x1_reduce", b, 256, 56, 56, 64, 1, 1, 1, 0},
          {"res2_3x3", b, 64, 56, 56, 64, 3, 3, 1, 1},
          {"res2_1x1_expand", b, 64, 56, 56, 256, 1, 1, 1, 0},
          {"res3_3x3_stride2", b, 128, 56, 56, 128, 3, 3, 2, 1},
          {"res3_3x3", b, 128, 28, 28, 128, 3, 3, 1, 1},
          {"res4_3x3", b, 256, 14, 14, 256, 3, 3, 1, 1},
          {"res4_1x1_expand", b, 256, 14, 14, 1024, 1, 1, 1, 0},
          {"res5_3x3", b, 512, 7, 7, 512, 3, 3, 1, 1},
          {"res5_1x1_reduce", b, 2048, 7, 7, 512, 1, 1, 1, 0}};
}

ConvShape check_shape() { return {"check", 2, 5, 11, 9, 7, 3, 3, 2, 1}; }

void validate(const ConvShape& s) {
  const std::int64_t sizes[] = {s.n, s.c, s.h, s.w, s.k, s.r, s.s, s.stride};
  for (std::int64_t v : sizes) {
    if (v < 1) throw UsageError("layer " + s.name + ": every size and the stride must be at least 1");
  }
  if (s.pad < 0) throw UsageError("layer " + s.name + ": padding must not be negative");
  if (s.p() < 1 || s.q() < 1) throw UsageError("layer " + s.name + ": the filter is larger than the padded input");
  constexpr std::int64_t kMax = std::int64_t{1} << 31;
  if (s.input_size() >= kMax || s.output_size() >= kMax || s.filter_size() >= kMax) {
    throw UsageError("layer " + s.name + ": a tensor has more than 2^31 elements; use a smaller --batch");
  }
}

}  // namespace gkebuild::workloads
