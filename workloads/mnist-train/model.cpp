#include "workloads/mnist-train/model.h"

#include <cmath>
#include <random>

#include "base/suggest.h"
#include "workloads/common/errors.h"

namespace gkebuild::workloads {

std::string to_string(ModelKind kind) { return kind == ModelKind::mlp ? "mlp" : "cnn"; }

ModelKind parse_model_kind(const std::string& text) {
  if (text == "mlp") return ModelKind::mlp;
  if (text == "cnn") return ModelKind::cnn;
  throw UsageError("unknown model '" + text + "': expected cnn or mlp" + did_you_mean(text, {"cnn", "mlp"}));
}

std::string describe(const ModelShape& s) {
  const std::string classes = " " + std::to_string(s.hidden) + " " + std::to_string(s.classes);
  if (s.kind == ModelKind::mlp) return "mlp " + std::to_string(s.inputs()) + classes;
  const std::string k = "k" + std::to_string(s.kernel);
  return "cnn 1x" + std::to_string(s.height) + "x" + std::to_string(s.width) + " c" + std::to_string(s.conv1) + k +
         "p" + std::to_string(s.kernel / 2) + " pool2 c" + std::to_string(s.conv2) + k + " pool2 " +
         std::to_string(s.flat()) + classes;
}

nlohmann::json shape_json(const ModelShape& s) {
  nlohmann::json j = {{"model", to_string(s.kind)}, {"inputs", s.inputs()}};
  if (s.kind == ModelKind::cnn) {
    j["conv1"] = s.conv1;
    j["conv2"] = s.conv2;
    j["kernel"] = s.kernel;
    j["flat"] = s.flat();
  }
  j["hidden"] = s.hidden;
  j["classes"] = s.classes;
  return j;
}

void validate(const ModelShape& s) {
  if (s.hidden < 1 || s.hidden > 65536) throw UsageError("--hidden must be between 1 and 65536");
  if (s.height < 1 || s.width < 1) throw UsageError("the images have no pixels");
  if (s.kind == ModelKind::cnn && (s.conv2_height() < 2 || s.conv2_width() < 2)) {
    throw UsageError("the CNN needs images of at least " + std::to_string(2 * (s.kernel + 1)) + "x" +
                     std::to_string(2 * (s.kernel + 1)) + " pixels, these are " + std::to_string(s.height) + "x" +
                     std::to_string(s.width));
  }
}

std::vector<std::size_t> parameter_sizes(const ModelShape& s) {
  auto size = [](std::int64_t a, std::int64_t b) { return static_cast<std::size_t>(a * b); };
  const std::size_t hidden = static_cast<std::size_t>(s.hidden), classes = static_cast<std::size_t>(s.classes);
  if (s.kind == ModelKind::mlp) return {size(s.hidden, s.inputs()), hidden, size(s.classes, s.hidden), classes};
  const std::int64_t kk = static_cast<std::int64_t>(s.kernel) * s.kernel;
  return {size(s.conv1, kk),     static_cast<std::size_t>(s.conv1), size(s.conv2, s.conv1 * kk),
          static_cast<std::size_t>(s.conv2), size(s.hidden, s.flat()), hidden, size(s.classes, s.hidden), classes};
}

Model init_model(const ModelShape& shape, std::uint64_t seed) {
  Model m{shape, {}};
  std::mt19937_64 rng(seed);
  const std::vector<std::size_t> sizes = parameter_sizes(shape);
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    std::vector<float>& values = m.parameters.emplace_back(sizes[i], 0.0f);
    if (i % 2 == 1) continue;  // a bias
    const std::size_t fan_in = sizes[i] / sizes[i + 1];
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    const float limit = std::sqrt(6.0f / static_cast<float>(fan_in));
    for (float& v : values) v = limit * uniform(rng);
  }
  return m;
}

}  // namespace gkebuild::workloads
