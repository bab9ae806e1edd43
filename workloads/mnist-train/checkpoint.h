// What a training run needs to go on exactly where it stopped, and its file format.
//
// A checkpoint file (little-endian):
//   "GKETRAIN"  u32 version (1)  u64 file size
//   model: i32 kind, height, width, hidden, classes, conv1, conv2, kernel
//   settings: i32 batch, f32 learning rate, f32 momentum, u64 seed, i64 training samples,
//             string precision
//   progress: i32 epochs done, i64 steps done, string RNG state (std::mt19937_64's text form),
//             u64 n + i32[n] the sample order of the next epoch
//   u32 tensor count, each u64 n + f32[n]: the parameters, then the optimizer's velocities
//   u32 CRC-32 (IEEE) of every byte before it
// Strings are u32 length + bytes. Reading checks magic, version, size, checksum and every count
// before it trusts any of them.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "workloads/mnist-train/model.h"

namespace gkebuild::workloads {

// The command-line settings a checkpoint continues; resuming under others is refused.
struct TrainSettings {
  int batch = 64;
  float learning_rate = 0.01f;
  float momentum = 0.9f;
  std::uint64_t seed = 1;
  std::int64_t train_samples = 0;
  std::string precision = "fp32";
  bool operator==(const TrainSettings&) const = default;
};

struct TrainState {
  Model model;
  std::vector<std::vector<float>> velocity;  // one per parameter tensor
  TrainSettings settings;
  int epochs_done = 0;
  std::int64_t steps = 0;
  std::string rng;                   // std::mt19937_64 written with operator<<
  std::vector<std::int32_t> order;   // the next epoch's sample order
};

std::string encode_checkpoint(const TrainState& state);
// CRC-32 (IEEE 802.3, as zlib's crc32) of `size` bytes.
std::uint32_t checkpoint_crc32(const char* data, std::size_t size);
// Throws UsageError "<where>: …" naming what is wrong: not a checkpoint (magic), another
// version, torn (size), corrupt (checksum), impossible counts.
TrainState decode_checkpoint(const std::string& bytes, const std::string& where);

// Writes to a temporary name in the same folder, fsyncs, renames, fsyncs the folder.
void save_checkpoint(const TrainState& state, const std::filesystem::path& path);
TrainState load_checkpoint(const std::filesystem::path& path);

// Why `state` cannot continue a run of `shape` and `settings` (empty: it can).
std::string mismatch(const TrainState& state, const ModelShape& shape, const TrainSettings& settings);

// A folder of per-epoch checkpoints, epoch-NNNNNN.ckpt; the two newest are kept.
class CheckpointDir {
 public:
  explicit CheckpointDir(std::filesystem::path dir) : dir_(std::move(dir)) {}
  std::filesystem::path path_of(int epoch) const;
  void save(const TrainState& state) const;
  // The newest checkpoint that loads; each newer one that does not is named on stderr with
  // the reason and skipped (never loaded). Nothing when there is none.
  std::optional<TrainState> newest_valid(std::filesystem::path* loaded_from) const;

 private:
  std::filesystem::path dir_;
};

}  // namespace gkebuild::workloads
