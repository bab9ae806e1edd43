#include "workloads/mnist-train/idx.h"

#include <cstdio>
#include <system_error>

#include "base/atomic_file.h"
#include "workloads/common/errors.h"

namespace gkebuild::workloads {
namespace {

constexpr std::uint8_t kUnsignedByte = 0x08;

std::uint32_t read_be32(const std::string& data, std::size_t at) {
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<std::uint8_t>(data[at + i]);
  return v;
}

void append_be32(std::string& out, std::uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>((v >> shift) & 0xff));
}

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what) {
  throw UsageError(path.string() + ": " + what);
}

// The dimensions of an IDX file of unsigned bytes with `dims` dimensions; checks the header
// and that exactly the promised bytes follow it.
std::vector<std::uint32_t> idx_dimensions(const std::string& data, int dims, const std::filesystem::path& path) {
  if (data.size() < 4) fail(path, "truncated: " + std::to_string(data.size()) + " bytes, an IDX header needs 4");
  if (data[0] != 0 || data[1] != 0) fail(path, "not an IDX file (the first two bytes must be zero)");
  if (static_cast<std::uint8_t>(data[2]) != kUnsignedByte) {
    char type[8];
    std::snprintf(type, sizeof(type), "0x%02x", static_cast<unsigned>(static_cast<std::uint8_t>(data[2])));
    fail(path, std::string("element type ") + type + " is not unsigned byte (0x08)");
  }
  if (data[3] != dims) {
    fail(path, "has " + std::to_string(static_cast<int>(data[3])) + " dimensions, expected " + std::to_string(dims));
  }
  const std::size_t header = 4 + 4 * static_cast<std::size_t>(dims);
  if (data.size() < header) fail(path, "truncated in the header");
  std::vector<std::uint32_t> sizes;
  std::uint64_t expected = 1;
  for (int d = 0; d < dims; ++d) {
    sizes.push_back(read_be32(data, 4 + 4 * static_cast<std::size_t>(d)));
    if (sizes.back() == 0) fail(path, "dimension " + std::to_string(d) + " is 0");
    expected *= sizes.back();
    if (expected > (std::uint64_t{1} << 34)) fail(path, "the header promises more than 16 GiB");
  }
  const std::uint64_t actual = data.size() - header;
  if (actual < expected) {
    fail(path, "truncated: the header promises " + std::to_string(expected) + " bytes of data, the file has " +
                   std::to_string(actual));
  }
  if (actual > expected) {
    fail(path, "corrupt: " + std::to_string(actual - expected) + " bytes after the " +
                   std::to_string(expected) + " the header promises");
  }
  return sizes;
}

std::string read_whole(const std::filesystem::path& path) {
  try {
    return read_file(path);
  } catch (const std::system_error& e) {
    throw UsageError(std::string(e.what()) + " (mnist-synth --out DIR writes a synthetic data set)");
  }
}

}  // namespace

MnistSet parse_idx_pair(const std::string& images, const std::string& labels,
                        const std::filesystem::path& images_path, const std::filesystem::path& labels_path) {
  const auto image_dims = idx_dimensions(images, 3, images_path);
  const auto label_dims = idx_dimensions(labels, 1, labels_path);
  if (image_dims[0] != label_dims[0]) {
    fail(labels_path, "has " + std::to_string(label_dims[0]) + " labels for " + std::to_string(image_dims[0]) +
                          " images in " + images_path.string());
  }
  if (image_dims[1] > 1024 || image_dims[2] > 1024) fail(images_path, "images larger than 1024×1024");
  MnistSet set;
  set.rows = image_dims[1];
  set.cols = image_dims[2];
  set.pixels.assign(images.begin() + 16, images.end());
  set.labels.assign(labels.begin() + 8, labels.end());
  for (std::size_t i = 0; i < set.labels.size(); ++i) {
    if (set.labels[i] >= kMnistClasses) {
      fail(labels_path, "label " + std::to_string(set.labels[i]) + " of item " + std::to_string(i) +
                            " (byte offset " + std::to_string(8 + i) + ") is not a digit 0-9");
    }
  }
  return set;
}

std::filesystem::path images_file(const std::filesystem::path& dir, const std::string& prefix) {
  return dir / (prefix + "-images-idx3-ubyte");
}
std::filesystem::path labels_file(const std::filesystem::path& dir, const std::string& prefix) {
  return dir / (prefix + "-labels-idx1-ubyte");
}

MnistSet load_mnist(const std::filesystem::path& dir, const std::string& prefix) {
  const auto images = images_file(dir, prefix);
  const auto labels = labels_file(dir, prefix);
  const std::string image_bytes = read_whole(images);  // images first, as the message order says
  return parse_idx_pair(image_bytes, read_whole(labels), images, labels);
}

std::string encode_idx_images(const MnistSet& set) {
  std::string out{'\0', '\0', static_cast<char>(kUnsignedByte), '\3'};
  append_be32(out, static_cast<std::uint32_t>(set.count()));
  append_be32(out, static_cast<std::uint32_t>(set.rows));
  append_be32(out, static_cast<std::uint32_t>(set.cols));
  out.append(set.pixels.begin(), set.pixels.end());
  return out;
}

std::string encode_idx_labels(const MnistSet& set) {
  std::string out{'\0', '\0', static_cast<char>(kUnsignedByte), '\1'};
  append_be32(out, static_cast<std::uint32_t>(set.count()));
  out.append(set.labels.begin(), set.labels.end());
  return out;
}

void save_mnist(const MnistSet& set, const std::filesystem::path& dir, const std::string& prefix) {
  write_file_atomically(images_file(dir, prefix), encode_idx_images(set));
  write_file_atomically(labels_file(dir, prefix), encode_idx_labels(set));
}

}  // namespace gkebuild::workloads
