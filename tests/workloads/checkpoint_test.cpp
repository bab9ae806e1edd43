// mnist-train's checkpoints: a round trip keeps every field; torn, corrupt, foreign and
// other-version files are refused with a message that says which, never loaded; a folder
// of checkpoints resumes from the newest valid one.
#include <gtest/gtest.h>

#include <cstring>

#include "base/atomic_file.h"
#include "tests/common/temp_dir.h"
#include "workloads/common/errors.h"
#include "workloads/mnist-train/checkpoint.h"

namespace gkebuild::workloads {
namespace {

TrainState small_state(int epochs_done) {
  ModelShape shape;
  shape.hidden = 16;
  TrainState s;
  s.model = init_model(shape, 3);
  for (const auto& p : s.model.parameters) s.velocity.emplace_back(p.size(), 0.25f);
  s.settings.train_samples = 5;
  s.epochs_done = epochs_done;
  s.steps = 7L * epochs_done;
  s.rng = "12 34 56";
  s.order = {4, 2, 0, 1, 3};
  return s;
}

std::string error_of(const std::string& bytes) {
  try {
    decode_checkpoint(bytes, "ck");
  } catch (const UsageError& e) {
    return e.what();
  }
  return "(loaded)";
}

void expect_same(const TrainState& a, const TrainState& b) {
  EXPECT_TRUE(a.model.shape == b.model.shape);
  EXPECT_EQ(a.model.parameters, b.model.parameters);
  EXPECT_EQ(a.velocity, b.velocity);
  EXPECT_TRUE(a.settings == b.settings);
  EXPECT_EQ(a.epochs_done, b.epochs_done);
  EXPECT_EQ(a.steps, b.steps);
  EXPECT_EQ(a.rng, b.rng);
  EXPECT_EQ(a.order, b.order);
}

TEST(Checkpoint, RoundTripKeepsEveryField) {
  const TrainState s = small_state(2);
  expect_same(decode_checkpoint(encode_checkpoint(s), "ck"), s);
  testing::TempDir dir;
  save_checkpoint(s, dir.path() / "a.ckpt");
  expect_same(load_checkpoint(dir.path() / "a.ckpt"), s);
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), {}), 1);  // no temporary left
}

TEST(Checkpoint, RefusesTornFilesAtEveryLength) {
  const std::string bytes = encode_checkpoint(small_state(1));
  for (std::size_t size : {std::size_t{0}, std::size_t{5}, std::size_t{12}, std::size_t{23}, bytes.size() / 2,
                           bytes.size() - 1}) {
    const std::string error = error_of(bytes.substr(0, size));
    const bool said = error.find("torn checkpoint") != std::string::npos ||
                      (size < 8 && error.find("not an mnist-train checkpoint") != std::string::npos);
    EXPECT_TRUE(said) << size << ": " << error;
  }
  EXPECT_NE(error_of(bytes + "x").find("torn checkpoint"), std::string::npos);
}

TEST(Checkpoint, RefusesAFlippedByteByItsChecksum) {
  EXPECT_EQ(checkpoint_crc32("123456789", 9), 0xCBF43926u);  // the CRC-32 check value
  const std::string bytes = encode_checkpoint(small_state(1));
  for (std::size_t at : {std::size_t{30}, bytes.size() / 2, bytes.size() - 5, bytes.size() - 1}) {
    std::string corrupt = bytes;
    corrupt[at] = static_cast<char>(corrupt[at] ^ 0x10);
    EXPECT_NE(error_of(corrupt).find("corrupt checkpoint: the CRC-32 does not match"), std::string::npos) << at;
  }
}

TEST(Checkpoint, RefusesForeignFilesAndOtherVersions) {
  EXPECT_EQ(error_of("GKEMLP01\x10\x03\0\0"), "ck: not an mnist-train checkpoint (it does not start with GKETRAIN)");
  EXPECT_NE(error_of(std::string(100, 'x')).find("not an mnist-train checkpoint"), std::string::npos);
  std::string bytes = encode_checkpoint(small_state(1));
  const std::uint32_t version = 2;
  std::memcpy(bytes.data() + 8, &version, sizeof(version));
  EXPECT_EQ(error_of(bytes), "ck: checkpoint version 2, this mnist-train reads version 1");
}

// A header's sizes are bounded before anything is computed from them (no overflow, no
// allocation by a size the file does not hold).
TEST(Checkpoint, RefusesImpossibleModelSizes) {
  for (const auto& [at, value] : std::vector<std::pair<std::size_t, std::int32_t>>{
           {24, 1 << 30}, {24, 0}, {36, 100000}, {48, 4}, {48, 17}}) {  // height, height, classes, kernel
    std::string bytes = encode_checkpoint(small_state(1));
    std::memcpy(bytes.data() + at, &value, sizeof(value));
    // The checksum is right again: only the bounds can refuse it.
    const std::uint32_t crc = checkpoint_crc32(bytes.data(), bytes.size() - 4);
    std::memcpy(bytes.data() + bytes.size() - 4, &crc, sizeof(crc));
    const std::string error = error_of(bytes);
    EXPECT_NE(error.find("ck: corrupt checkpoint: a"), std::string::npos) << at << " " << value << ": " << error;
  }
}

TEST(Checkpoint, NamesWhatDiffersFromTheRunItWouldContinue) {
  const TrainState s = small_state(1);
  EXPECT_EQ(mismatch(s, s.model.shape, s.settings), "");
  ModelShape other = s.model.shape;
  other.kind = ModelKind::mlp;
  EXPECT_EQ(mismatch(s, other, s.settings),
            "it holds the model cnn 1x28x28 c8k5p2 pool2 c16k5 pool2 400 16 10, this run trains mlp 784 16 10");
  TrainSettings settings = s.settings;
  settings.batch = 32;
  settings.precision = "fp16";
  EXPECT_EQ(mismatch(s, s.model.shape, settings),
            "it was written with --batch 64 (this run: 32), --precision \"fp32\" (this run: \"fp16\")");
}

TEST(CheckpointDir, ResumesFromTheNewestValidAndSkipsATornOne) {
  testing::TempDir dir;
  const CheckpointDir checkpoints(dir.path());
  EXPECT_FALSE(checkpoints.newest_valid(nullptr));
  for (int epoch = 1; epoch <= 3; ++epoch) checkpoints.save(small_state(epoch));
  EXPECT_FALSE(std::filesystem::exists(checkpoints.path_of(1)));  // only the two newest stay
  const std::string newest = read_file(checkpoints.path_of(3));
  write_file_atomically(checkpoints.path_of(3), newest.substr(0, newest.size() - 10));
  ::testing::internal::CaptureStderr();
  std::filesystem::path from;
  const auto state = checkpoints.newest_valid(&from);
  const std::string err = ::testing::internal::GetCapturedStderr();
  ASSERT_TRUE(state);
  EXPECT_EQ(state->epochs_done, 2);
  EXPECT_EQ(from, checkpoints.path_of(2));
  EXPECT_NE(err.find("skipped " + checkpoints.path_of(3).string() + ": torn checkpoint"), std::string::npos) << err;
}

}  // namespace
}  // namespace gkebuild::workloads
