#include "mnist-train/mlp_model.h"

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <system_error>

#include "base/atomic_file.h"
#include "common/errors.h"

namespace gkebuild::workloads {
namespace {

constexpr char kMagic[8] = {'G', 'K', 'E', 'M', 'L', 'P', '0', '1'};

void fill_uniform(std::vector<float>& values, std::size_t count, float limit, std::mt19937_64& rng) {
  std::uniform_real_distribution<float> uniform(-limit, limit);
  values.resize(count);
  for (float& v : values) v = uniform(rng);
}

template <typename T>
void append_raw(std::string& out, const T* data, std::size_t count) {
  out.append(reinterpret_cast<const char*>(data), count * sizeof(T));
}

}  // namespace

MlpModel init_mlp(int inputs, int hidden, int classes, std::uint64_t seed) {
  MlpModel m{inputs, hidden, classes, {}, {}, {}, {}};
  std::mt19937_64 rng(seed);
  fill_uniform(m.w1, static_cast<std::size_t>(hidden) * inputs, std::sqrt(6.0f / inputs), rng);
  fill_uniform(m.w2, static_cast<std::size_t>(classes) * hidden, std::sqrt(6.0f / hidden), rng);
  m.b1.assign(static_cast<std::size_t>(hidden), 0.0f);
  m.b2.assign(static_cast<std::size_t>(classes), 0.0f);
  return m;
}

void save_checkpoint(const MlpModel& m, const std::filesystem::path& path) {
  std::string out(kMagic, sizeof(kMagic));
  const std::int32_t sizes[3] = {m.inputs, m.hidden, m.classes};
  append_raw(out, sizes, 3);
  for (const auto* v : {&m.w1, &m.b1, &m.w2, &m.b2}) append_raw(out, v->data(), v->size());
  try {
    write_file_atomically(path, out);
  } catch (const std::system_error& e) {
    throw RunError(std::string("saving the checkpoint: ") + e.what());
  }
}

MlpModel load_checkpoint(const std::filesystem::path& path) {
  std::string data;
  try {
    data = read_file(path);
  } catch (const std::system_error& e) {
    throw UsageError(e.what());
  }
  const std::string where = path.string() + ": ";
  if (data.size() < 20 || std::memcmp(data.data(), kMagic, sizeof(kMagic)) != 0) {
    throw UsageError(where + "not an mnist-train checkpoint (no GKEMLP01 header)");
  }
  std::int32_t sizes[3];
  std::memcpy(sizes, data.data() + 8, sizeof(sizes));
  for (std::int32_t s : sizes) {
    if (s < 1 || s > 1 << 16) throw UsageError(where + "corrupt header (a layer size of " + std::to_string(s) + ")");
  }
  MlpModel m{sizes[0], sizes[1], sizes[2], {}, {}, {}, {}};
  const std::size_t counts[4] = {static_cast<std::size_t>(m.hidden) * m.inputs, static_cast<std::size_t>(m.hidden),
                                 static_cast<std::size_t>(m.classes) * m.hidden, static_cast<std::size_t>(m.classes)};
  std::size_t expected = 20;
  for (std::size_t c : counts) expected += c * sizeof(float);
  if (data.size() != expected) {
    throw UsageError(where + "has " + std::to_string(data.size()) + " bytes, the header promises " +
                     std::to_string(expected));
  }
  std::size_t at = 20;
  std::vector<float>* parts[4] = {&m.w1, &m.b1, &m.w2, &m.b2};
  for (int i = 0; i < 4; ++i) {
    parts[i]->resize(counts[i]);
    std::memcpy(parts[i]->data(), data.data() + at, counts[i] * sizeof(float));
    at += counts[i] * sizeof(float);
  }
  return m;
}

}  // namespace gkebuild::workloads
