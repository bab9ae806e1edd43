// IDX files: a round trip, and every way a file can be cut short or corrupt, each a clear
// UsageError naming the file. (Checkpoints: checkpoint_test.cpp.)
#include <gtest/gtest.h>

#include <fstream>

#include "base/atomic_file.h"
#include "workloads/common/errors.h"
#include "workloads/mnist-synth/synth.h"
#include "workloads/mnist-train/idx.h"
#include "tests/common/temp_dir.h"

namespace gkebuild::workloads {
namespace {

using testing::TempDir;

MnistSet small_set() { return synthesize_mnist({20, 3, 0.5}); }

// The message of the UsageError `load` throws, or "" when it throws none.
template <typename Load>
std::string usage_error(Load load) {
  try {
    load();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

class IdxFiles : public ::testing::Test {
 protected:
  void SetUp() override { save_mnist(small_set(), dir.path(), "train"); }
  std::string images() const { return read_file(images_file(dir.path(), "train")); }
  std::string labels() const { return read_file(labels_file(dir.path(), "train")); }
  void write_images(const std::string& bytes) { write_file_atomically(images_file(dir.path(), "train"), bytes); }
  void write_labels(const std::string& bytes) { write_file_atomically(labels_file(dir.path(), "train"), bytes); }
  std::string load_error() { return usage_error([&] { load_mnist(dir.path(), "train"); }); }
  TempDir dir;
};

TEST_F(IdxFiles, RoundTripKeepsEveryByte) {
  const MnistSet loaded = load_mnist(dir.path(), "train");
  const MnistSet original = small_set();
  EXPECT_EQ(loaded.rows, 28);
  EXPECT_EQ(loaded.cols, 28);
  EXPECT_EQ(loaded.pixels, original.pixels);
  EXPECT_EQ(loaded.labels, original.labels);
  EXPECT_EQ(images().substr(0, 4), std::string("\0\0\x08\x03", 4));
}

TEST_F(IdxFiles, TruncatedDataIsNamed) {
  write_images(images().substr(0, 1000));
  const std::string error = load_error();
  EXPECT_NE(error.find("train-images-idx3-ubyte: truncated: the header promises 15680 bytes"), std::string::npos)
      << error;
}

TEST_F(IdxFiles, TruncatedHeaderIsNamed) {
  write_labels(labels().substr(0, 6));
  EXPECT_NE(load_error().find("train-labels-idx1-ubyte: truncated in the header"), std::string::npos) << load_error();
  write_labels("\0\0");
  EXPECT_NE(load_error().find("needs 4"), std::string::npos) << load_error();
}

TEST_F(IdxFiles, TrailingBytesAreCorrupt) {
  write_images(images() + "extra");
  EXPECT_NE(load_error().find("corrupt: 5 bytes after"), std::string::npos) << load_error();
}

TEST_F(IdxFiles, WrongMagicTypeAndDimensionsAreNamed) {
  std::string bytes = images();
  bytes[0] = 'P';
  write_images(bytes);
  EXPECT_NE(load_error().find("not an IDX file"), std::string::npos) << load_error();
  bytes = images();
  bytes[0] = 0;
  bytes[2] = 0x0d;
  write_images(bytes);
  EXPECT_NE(load_error().find("element type 0x0d is not unsigned byte"), std::string::npos) << load_error();
  write_images(labels());
  EXPECT_NE(load_error().find("has 1 dimensions, expected 3"), std::string::npos) << load_error();
}

TEST_F(IdxFiles, LabelOutOfRangeIsNamedWithItsOffset) {
  std::string bytes = labels();
  bytes[8 + 4] = 12;
  write_labels(bytes);
  EXPECT_NE(load_error().find("label 12 of item 4 (byte offset 12) is not a digit 0-9"), std::string::npos)
      << load_error();
}

TEST_F(IdxFiles, CountMismatchIsNamed) {
  MnistSet fewer = small_set();
  fewer.labels.resize(5);
  write_labels(encode_idx_labels(fewer));
  EXPECT_NE(load_error().find("has 5 labels for 20 images"), std::string::npos) << load_error();
}

TEST_F(IdxFiles, MissingFileIsNamed) {
  std::filesystem::remove(labels_file(dir.path(), "train"));
  const std::string error = load_error();
  EXPECT_NE(error.find("train-labels-idx1-ubyte"), std::string::npos) << error;
  EXPECT_NE(error.find("mnist-synth"), std::string::npos) << error;
}

}  // namespace
}  // namespace gkebuild::workloads
