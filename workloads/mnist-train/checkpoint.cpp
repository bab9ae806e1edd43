#include "workloads/mnist-train/checkpoint.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <system_error>
#include <utility>

#include "base/atomic_file.h"
#include "base/printable.h"
#include "workloads/common/errors.h"

namespace gkebuild::workloads {
namespace {

constexpr char kMagic[8] = {'G', 'K', 'E', 'T', 'R', 'A', 'I', 'N'};
constexpr std::uint32_t kVersion = 1;
constexpr std::size_t kHeaderBytes = 8 + 4 + 8;
constexpr std::size_t kChecksumBytes = 4;

}  // namespace

std::uint32_t checkpoint_crc32(const char* data, std::size_t size) {
  static const std::array<std::uint32_t, 256> table = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t i = 0; i < 256; ++i) {
      std::uint32_t c = i;
      for (int bit = 0; bit < 8; ++bit) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  std::uint32_t c = 0xFFFFFFFFu;
  for (std::size_t i = 0; i < size; ++i) c = table[(c ^ static_cast<unsigned char>(data[i])) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

namespace {

class Writer {
 public:
  template <typename T>
  void put(T value) {
    out_.append(reinterpret_cast<const char*>(&value), sizeof(T));
  }
  void put_string(const std::string& s) {
    put(static_cast<std::uint32_t>(s.size()));
    out_ += s;
  }
  template <typename T>
  void put_array(const std::vector<T>& v) {
    put(static_cast<std::uint64_t>(v.size()));
    out_.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
  }
  std::string& bytes() { return out_; }

 private:
  std::string out_;
};

class Reader {
 public:
  Reader(const std::string& bytes, std::size_t at, std::size_t end, const std::string& where)
      : bytes_(bytes), at_(at), end_(end), where_(where) {}
  template <typename T>
  T get() {
    need(sizeof(T));
    T value;
    std::memcpy(&value, bytes_.data() + at_, sizeof(T));
    at_ += sizeof(T);
    return value;
  }
  std::string get_string() {
    const auto size = get<std::uint32_t>();
    need(size);
    std::string s = bytes_.substr(at_, size);
    at_ += size;
    return s;
  }
  template <typename T>
  std::vector<T> get_array() {
    const auto count = get<std::uint64_t>();
    if (count > (end_ - at_) / sizeof(T)) fail("an array of " + std::to_string(count) + " items");
    std::vector<T> v(static_cast<std::size_t>(count));
    std::memcpy(v.data(), bytes_.data() + at_, v.size() * sizeof(T));
    at_ += v.size() * sizeof(T);
    return v;
  }
  bool done() const { return at_ == end_; }
  [[noreturn]] void fail(const std::string& what) const {
    throw UsageError(where_ + ": corrupt checkpoint: " + what + " at byte " + std::to_string(at_));
  }

 private:
  void need(std::size_t n) const {
    if (n > end_ - at_) fail("a field running past the end");
  }
  const std::string& bytes_;
  std::size_t at_, end_;
  const std::string& where_;
};

void put_shape(Writer& w, const ModelShape& s) {
  for (int v : {static_cast<int>(s.kind), s.height, s.width, s.hidden, s.classes, s.conv1, s.conv2, s.kernel}) {
    w.put(static_cast<std::int32_t>(v));
  }
}

ModelShape get_shape(Reader& r) {
  ModelShape s;
  const auto kind = r.get<std::int32_t>();
  if (kind != static_cast<int>(ModelKind::mlp) && kind != static_cast<int>(ModelKind::cnn)) {
    r.fail("model kind " + std::to_string(kind));
  }
  s.kind = static_cast<ModelKind>(kind);
  // Bounds before any size is multiplied: images as the IDX reader takes them (up to
  // 1024×1024), odd filters (padding k/2 keeps the size).
  const std::pair<int*, int> fields[] = {{&s.height, 1024}, {&s.width, 1024}, {&s.hidden, 65536}, {&s.classes, 65536},
                                         {&s.conv1, 1024},  {&s.conv2, 1024}, {&s.kernel, 15}};
  for (const auto& [v, most] : fields) {
    *v = r.get<std::int32_t>();
    if (*v < 1 || *v > most) r.fail("a model size of " + std::to_string(*v));
  }
  if (s.kernel % 2 == 0) r.fail("an even filter size");
  if (s.kind == ModelKind::cnn && (s.conv2_height() < 2 || s.conv2_width() < 2)) r.fail("a CNN too small for its images");
  return s;
}

std::string where_of(const std::filesystem::path& path) { return printable(path.string()); }

void fsync_folder(const std::filesystem::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;  // the rename is done; only its durability is not confirmed
  ::fsync(fd);
  ::close(fd);
}

}  // namespace

std::string encode_checkpoint(const TrainState& state) {
  Writer w;
  w.bytes().append(kMagic, sizeof(kMagic));
  w.put(kVersion);
  w.put(std::uint64_t{0});  // the size, filled in below
  put_shape(w, state.model.shape);
  const TrainSettings& s = state.settings;
  w.put(static_cast<std::int32_t>(s.batch));
  w.put(s.learning_rate);
  w.put(s.momentum);
  w.put(s.seed);
  w.put(s.train_samples);
  w.put_string(s.precision);
  w.put(static_cast<std::int32_t>(state.epochs_done));
  w.put(state.steps);
  w.put_string(state.rng);
  w.put_array(state.order);
  w.put(static_cast<std::uint32_t>(state.model.parameters.size() + state.velocity.size()));
  for (const auto& t : state.model.parameters) w.put_array(t);
  for (const auto& t : state.velocity) w.put_array(t);
  std::string& out = w.bytes();
  const std::uint64_t size = out.size() + kChecksumBytes;
  std::memcpy(out.data() + 12, &size, sizeof(size));
  w.put(checkpoint_crc32(out.data(), out.size()));
  return std::move(out);
}

TrainState decode_checkpoint(const std::string& bytes, const std::string& where) {
  if (bytes.size() < sizeof(kMagic) || std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0) {
    throw UsageError(where + ": not an mnist-train checkpoint (it does not start with GKETRAIN)");
  }
  if (bytes.size() < kHeaderBytes + kChecksumBytes) {
    throw UsageError(where + ": torn checkpoint: " + std::to_string(bytes.size()) + " bytes, shorter than a header");
  }
  std::uint32_t version;
  std::uint64_t size;
  std::memcpy(&version, bytes.data() + 8, sizeof(version));
  std::memcpy(&size, bytes.data() + 12, sizeof(size));
  if (version != kVersion) {
    throw UsageError(where + ": checkpoint version " + std::to_string(version) + ", this mnist-train reads version " +
                     std::to_string(kVersion));
  }
  if (size != bytes.size()) {
    throw UsageError(where + ": torn checkpoint: " + std::to_string(bytes.size()) + " bytes, its header says " +
                     std::to_string(size));
  }
  const std::size_t body_end = bytes.size() - kChecksumBytes;
  std::uint32_t stored;
  std::memcpy(&stored, bytes.data() + body_end, sizeof(stored));
  if (stored != checkpoint_crc32(bytes.data(), body_end)) {
    throw UsageError(where + ": corrupt checkpoint: the CRC-32 does not match its contents");
  }
  Reader r(bytes, kHeaderBytes, body_end, where);
  TrainState state;
  state.model.shape = get_shape(r);
  TrainSettings& s = state.settings;
  s.batch = r.get<std::int32_t>();
  s.learning_rate = r.get<float>();
  s.momentum = r.get<float>();
  s.seed = r.get<std::uint64_t>();
  s.train_samples = r.get<std::int64_t>();
  s.precision = r.get_string();
  state.epochs_done = r.get<std::int32_t>();
  state.steps = r.get<std::int64_t>();
  state.rng = r.get_string();
  state.order = r.get_array<std::int32_t>();
  const auto tensors = r.get<std::uint32_t>();
  const std::vector<std::size_t> sizes = parameter_sizes(state.model.shape);
  if (tensors != 2 * sizes.size()) r.fail(std::to_string(tensors) + " tensors");
  for (std::size_t i = 0; i < 2 * sizes.size(); ++i) {
    auto& tensor = i < sizes.size() ? state.model.parameters.emplace_back() : state.velocity.emplace_back();
    tensor = r.get_array<float>();
    if (tensor.size() != sizes[i % sizes.size()]) r.fail("tensor " + std::to_string(i) + " of the wrong size");
  }
  if (!r.done()) r.fail("bytes after the last tensor");
  if (state.order.size() != static_cast<std::size_t>(s.train_samples)) r.fail("a sample order of the wrong length");
  return state;
}

void save_checkpoint(const TrainState& state, const std::filesystem::path& path) {
  try {
    write_file_atomically(path, encode_checkpoint(state));  // temporary name, fsync, rename
  } catch (const std::system_error& e) {
    throw RunError(std::string("saving the checkpoint: ") + e.what());
  }
  fsync_folder(path.has_parent_path() ? path.parent_path() : ".");
}

TrainState load_checkpoint(const std::filesystem::path& path) {
  std::string bytes;
  try {
    bytes = read_file(path);
  } catch (const std::system_error& e) {
    throw UsageError(e.what());
  }
  return decode_checkpoint(bytes, where_of(path));
}

std::string mismatch(const TrainState& state, const ModelShape& shape, const TrainSettings& settings) {
  if (!(state.model.shape == shape)) {
    return "it holds the model " + describe(state.model.shape) + ", this run trains " + describe(shape);
  }
  const TrainSettings& s = state.settings;
  if (s == settings) return "";
  auto pair = [](const std::string& name, const auto& theirs, const auto& ours) {
    return theirs == ours ? std::string()
                          : name + " " + nlohmann::json(theirs).dump() + " (this run: " + nlohmann::json(ours).dump() + ")";
  };
  std::string what;
  for (const std::string& part :
       {pair("--batch", s.batch, settings.batch), pair("--lr", s.learning_rate, settings.learning_rate),
        pair("--momentum", s.momentum, settings.momentum), pair("--seed", s.seed, settings.seed),
        pair("training samples", s.train_samples, settings.train_samples),
        pair("--precision", s.precision, settings.precision)}) {
    if (!part.empty()) what += (what.empty() ? "" : ", ") + part;
  }
  return "it was written with " + what;
}

std::filesystem::path CheckpointDir::path_of(int epoch) const {
  char name[32];
  std::snprintf(name, sizeof(name), "epoch-%06d.ckpt", epoch);
  return dir_ / name;
}

void CheckpointDir::save(const TrainState& state) const {
  save_checkpoint(state, path_of(state.epochs_done));
  for (int older = state.epochs_done - 2; older >= 1; --older) {  // keep this one and the one before
    std::error_code ignored;
    if (!std::filesystem::remove(path_of(older), ignored)) break;
  }
}

std::optional<TrainState> CheckpointDir::newest_valid(std::filesystem::path* loaded_from) const {
  std::error_code error;
  std::vector<std::filesystem::path> found;
  for (const auto& entry : std::filesystem::directory_iterator(dir_, error)) {
    const std::string name = entry.path().filename().string();
    if (name.size() == 17 && name.rfind("epoch-", 0) == 0 && name.ends_with(".ckpt")) found.push_back(entry.path());
  }
  std::sort(found.rbegin(), found.rend());  // zero-padded: the newest epoch first
  for (const auto& path : found) {
    try {
      TrainState state = load_checkpoint(path);
      if (loaded_from) *loaded_from = path;
      return state;
    } catch (const UsageError& e) {
      std::fprintf(stderr, "mnist-train: skipped %s\n", e.what());
    }
  }
  return std::nullopt;
}

}  // namespace gkebuild::workloads
