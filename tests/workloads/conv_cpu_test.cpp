// The im2col convolution against the direct loop, and the direct loop against a case small
// enough to compute by hand.
#include <gtest/gtest.h>

#include "workloads/common/errors.h"
#include "workloads/common/random_values.h"
#include "workloads/conv-bench/conv_cpu.h"

namespace gkebuild::workloads {
namespace {

TEST(ConvDirect, MatchesAHandComputedCase) {
  // 1×1×3×3 input 1…9, one 2×2 filter of ones, stride 1, no padding: sums of 2×2 windows.
  const ConvShape s{"hand", 1, 1, 3, 3, 1, 2, 2, 1, 0};
  const std::vector<float> x{1, 2, 3, 4, 5, 6, 7, 8, 9}, w{1, 1, 1, 1};
  EXPECT_EQ(conv_direct(s, x, w), (std::vector<float>{12, 16, 24, 28}));
  // With padding 1 and stride 2 the corners see one, two or four pixels.
  const ConvShape padded{"hand-padded", 1, 1, 3, 3, 1, 2, 2, 2, 1};
  EXPECT_EQ(conv_direct(padded, x, w), (std::vector<float>{1, 5, 11, 28}));
}

TEST(ConvIm2col, MatchesDirectLoop) {
  const ConvShape shapes[] = {check_shape(),
                              {"1x1", 2, 16, 7, 5, 9, 1, 1, 1, 0},
                              {"1x1-stride2", 1, 8, 9, 9, 4, 1, 1, 2, 0},
                              {"stem-like", 1, 3, 23, 19, 8, 7, 7, 2, 3},
                              {"one-channel", 3, 1, 6, 6, 1, 3, 3, 1, 1},
                              {"wide-filter", 1, 4, 5, 12, 3, 1, 5, 1, 2}};
  for (const ConvShape& s : shapes) {
    const auto x = random_values(s.input_size(), 3);
    const auto w = random_values(s.filter_size(), 4);
    std::vector<double> magnitude;
    const auto reference = conv_direct(s, x, w, &magnitude);
    for (int threads : {1, 2}) {
      std::vector<float> y(static_cast<std::size_t>(s.output_size()), -7.0f);
      conv_im2col(s, x.data(), w.data(), y.data(), threads);
      EXPECT_LE(conv_max_error(y, reference, magnitude), 1e-5) << s.name << " threads=" << threads;
    }
  }
}

TEST(ConvShapeTest, RejectsImpossibleShapes) {
  EXPECT_THROW(validate(ConvShape{"zero", 0, 1, 3, 3, 1, 1, 1, 1, 0}), UsageError);
  EXPECT_THROW(validate(ConvShape{"big-filter", 1, 1, 3, 3, 1, 5, 5, 1, 0}), UsageError);
  EXPECT_THROW(validate(ConvShape{"negative-pad", 1, 1, 3, 3, 1, 1, 1, 1, -1}), UsageError);
  EXPECT_NO_THROW(validate(check_shape()));
}

TEST(ConvShapeTest, Resnet50LayersHaveTheirOutputSizes) {
  const auto layers = resnet50_layers(4);
  ASSERT_EQ(layers.front().name, "conv1");
  EXPECT_EQ(layers.front().p(), 112);
  EXPECT_EQ(layers.front().q(), 112);
  for (const ConvShape& s : layers) {
    EXPECT_NO_THROW(validate(s)) << s.name;
    EXPECT_EQ(s.n, 4) << s.name;
  }
}

}  // namespace
}  // namespace gkebuild::workloads
