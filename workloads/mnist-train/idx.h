// MNIST's IDX files: a big-endian header (magic 0x0000 0x08 <dims>, then each dimension) and
// unsigned bytes. Reading checks every promise of the header against the file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace gkebuild::workloads {

struct MnistSet {
  std::int64_t rows = 0, cols = 0;
  std::vector<std::uint8_t> pixels;  // count × rows × cols
  std::vector<std::uint8_t> labels;  // count, each < kMnistClasses
  std::int64_t count() const { return static_cast<std::int64_t>(labels.size()); }
  std::int64_t pixels_per_image() const { return rows * cols; }
};

inline constexpr int kMnistClasses = 10;

// Parse errors name the file and what is wrong (UsageError); `path` is only used in messages.
MnistSet parse_idx_pair(const std::string& images, const std::string& labels,
                        const std::filesystem::path& images_path, const std::filesystem::path& labels_path);

// DIR/<prefix>-images-idx3-ubyte and DIR/<prefix>-labels-idx1-ubyte, prefix "train" or "t10k".
MnistSet load_mnist(const std::filesystem::path& dir, const std::string& prefix);

std::string encode_idx_images(const MnistSet& set);
std::string encode_idx_labels(const MnistSet& set);

// Writes both files of `set` under DIR with the standard names, each atomically.
void save_mnist(const MnistSet& set, const std::filesystem::path& dir, const std::string& prefix);

std::filesystem::path images_file(const std::filesystem::path& dir, const std::string& prefix);
std::filesystem::path labels_file(const std::filesystem::path& dir, const std::string& prefix);

}  // namespace gkebuild::workloads
