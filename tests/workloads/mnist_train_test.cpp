// Training on the CPU actually learns: on synthetic data the MLP reaches the stated accuracy
// in three short epochs and the CNN at least the MLP's; the CNN's backward pass is the
// gradient of its loss; the synthetic data is deterministic and balanced enough to learn.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <random>

#include "workloads/mnist-synth/synth.h"
#include "workloads/mnist-train/cpu_conv_ops.h"
#include "workloads/mnist-train/cpu_mlp_ops.h"
#include "workloads/mnist-train/trainer.h"

namespace gkebuild::workloads {
namespace {

std::vector<std::int32_t> shuffled(std::int64_t count, std::mt19937_64& rng) {
  std::vector<std::int32_t> order(static_cast<std::size_t>(count));
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  return order;
}

struct Trained {
  EpochResult before, first, last, after;
};

// `epochs` epochs of `kind` on `train`, evaluated on `test`, as mnist-train runs them.
Trained train_on_cpu(ModelKind kind, const MnistSet& train, const MnistSet& test, int epochs, float lr,
                     float momentum, int hidden) {
  auto ops = make_cpu_mlp_ops(2);
  auto conv = make_cpu_conv_ops(2);
  const int train_id = ops->add_dataset(train);
  const int test_id = ops->add_dataset(test);
  ModelShape shape;
  shape.kind = kind;
  shape.hidden = hidden;
  auto trainer = make_trainer(*ops, conv.get(), init_model(shape, 1), 32);
  Trained t;
  t.before = trainer->evaluate(test_id, test.count());
  std::mt19937_64 rng(1);
  for (int epoch = 0; epoch < epochs; ++epoch) {
    t.last = trainer->train_epoch(train_id, shuffled(train.count(), rng), lr, momentum);
    if (epoch == 0) t.first = t.last;
  }
  t.after = trainer->evaluate(test_id, test.count());
  return t;
}

TEST(MnistTraining, CpuMlpReachesNinetyPercentOnSyntheticData) {
  const MnistSet train = synthesize_mnist({3000, 1, 0.5});
  const MnistSet test = synthesize_mnist({1000, 2, 0.5});
  const Trained t = train_on_cpu(ModelKind::mlp, train, test, 3, 0.1f, 0.0f, 64);
  EXPECT_LT(t.before.accuracy, 0.3);  // ten classes: chance is about 0.1
  EXPECT_LT(t.last.loss, t.first.loss);
  EXPECT_GE(t.after.accuracy, 0.90);
  EXPECT_EQ(t.after.samples, 1000);
}

// The promise: after the same epochs on the same data, with mnist-train's default
// optimizer settings (lr 0.01, momentum 0.9, 128 hidden units), the CNN's test accuracy is
// at least the MLP's.
TEST(MnistTraining, CpuCnnReachesAtLeastTheMlpsAccuracy) {
  const MnistSet train = synthesize_mnist({3000, 1, 0.5});
  const MnistSet test = synthesize_mnist({1000, 2, 0.5});
  const Trained mlp = train_on_cpu(ModelKind::mlp, train, test, 3, 0.01f, 0.9f, 128);
  const Trained cnn = train_on_cpu(ModelKind::cnn, train, test, 3, 0.01f, 0.9f, 128);
  std::printf("test accuracy after 3 epochs of 3000 samples: cnn %.4f, mlp %.4f\n", cnn.after.accuracy,
              mlp.after.accuracy);
  RecordProperty("cnn_test_accuracy", std::to_string(cnn.after.accuracy));
  RecordProperty("mlp_test_accuracy", std::to_string(mlp.after.accuracy));
  EXPECT_LT(cnn.before.accuracy, 0.3);
  EXPECT_GE(cnn.after.accuracy, 0.90);
  EXPECT_GE(cnn.after.accuracy, mlp.after.accuracy);
}

// One SGD step with learning rate 1 and no momentum moves each parameter by minus its
// gradient; central differences of the loss on the same batch must agree. The step is small
// (1e-3): ReLU and max pooling have kinks (an activation at 0, a window's tie), and a larger
// step that crosses one measures another slope.
TEST(MnistTraining, CnnBackwardIsTheGradientOfTheLoss) {
  MnistSet batch = synthesize_mnist({8, 3, 0.5});
  // 12×12 images (every other pixel of the middle): a small CNN (12 → 12 → 6 → 4 → 2).
  MnistSet small{12, 12, {}, batch.labels};
  for (std::int64_t i = 0; i < batch.count(); ++i)
    for (int y = 0; y < 12; ++y)
      for (int x = 0; x < 12; ++x) {
        small.pixels.push_back(batch.pixels[static_cast<std::size_t>(i * 784 + (2 * y + 2) * 28 + 2 * x + 2)]);
      }
  ModelShape shape;
  shape.height = shape.width = 12;
  shape.conv1 = 3;
  shape.conv2 = 4;
  shape.kernel = 3;
  shape.hidden = 6;
  const Model start = init_model(shape, 7);
  auto ops = make_cpu_mlp_ops(1);
  auto conv = make_cpu_conv_ops(1);
  const int id = ops->add_dataset(small);
  std::vector<std::int32_t> order(8);
  std::iota(order.begin(), order.end(), 0);
  auto loss_of = [&](const Model& m) { return make_trainer(*ops, conv.get(), m, 8)->evaluate(id, 8).loss; };
  auto stepper = make_trainer(*ops, conv.get(), start, 8);
  stepper->train_epoch(id, order, 1.0f, 0.0f);
  const Model stepped = stepper->model();
  for (std::size_t t = 0; t < start.parameters.size(); ++t) {
    for (std::size_t i = 0; i < start.parameters[t].size(); i += 7) {
      const double analytic = start.parameters[t][i] - stepped.parameters[t][i];
      const float h = 1e-3f;
      Model plus = start, minus = start;
      plus.parameters[t][i] += h;
      minus.parameters[t][i] -= h;
      const double numeric = (loss_of(plus) - loss_of(minus)) / (2.0 * h);
      EXPECT_NEAR(analytic, numeric, 2e-3 + 0.05 * std::fabs(numeric)) << "tensor " << t << " index " << i;
    }
  }
}

TEST(MnistSynth, IsDeterministicAndUsesEveryClass) {
  const MnistSet a = synthesize_mnist({500, 4, 0.5});
  const MnistSet b = synthesize_mnist({500, 4, 0.5});
  EXPECT_EQ(a.pixels, b.pixels);
  EXPECT_EQ(a.labels, b.labels);
  std::vector<int> counts(10, 0);
  for (auto label : a.labels) ++counts[label];
  for (int c = 0; c < 10; ++c) EXPECT_GT(counts[c], 20) << "class " << c;
  EXPECT_NE(synthesize_mnist({500, 5, 0.5}).pixels, a.pixels);
}

}  // namespace
}  // namespace gkebuild::workloads
