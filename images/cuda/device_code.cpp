#include "images/cuda/device_code.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "images/cuda/fatbin.h"
#include "images/elf/elf_file.h"

namespace gkebuild::cuda {
namespace {

// An architecture number as major.minor: 75 -> 7.5, 100 -> 10.0, 121 -> 12.1.
int major_of(int arch) { return arch / 10; }
int minor_of(int arch) { return arch % 10; }

class Descriptor {
 public:
  explicit Descriptor(const std::filesystem::path& path) : fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {
    if (fd_ < 0) throw elf::ElfError("cannot read " + path.string() + ": " + std::strerror(errno));
  }
  ~Descriptor() { ::close(fd_); }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

bool DeviceCode::runs_on(int major, int minor) const {
  for (int arch : cubins)
    if (major_of(arch) == major && minor_of(arch) <= minor) return true;
  for (int arch : ptx)
    if (major_of(arch) < major || (major_of(arch) == major && minor_of(arch) <= minor)) return true;
  return false;
}

std::string DeviceCode::describe() const {
  if (empty()) return "no device code";
  std::string out;
  for (int arch : cubins) out += (out.empty() ? "" : ", ") + std::string("sm_") + std::to_string(arch);
  if (!ptx.empty()) {
    std::string versions;
    for (int arch : ptx) versions += (versions.empty() ? "" : ", ") + std::string("compute_") + std::to_string(arch);
    out += (out.empty() ? "" : " and ") + versions + " PTX";
  }
  return out;
}

DeviceCode read_device_code(const std::filesystem::path& path) {
  const auto section = elf::find_section(path, ".nv_fatbin");
  DeviceCode code;
  if (!section) return code;
  Descriptor file(path);
  const SectionReader read = [&](uint64_t offset, size_t size) {
    std::string bytes(size, '\0');
    const ssize_t n = ::pread(file.get(), bytes.data(), size, static_cast<off_t>(section->offset + offset));
    bytes.resize(n < 0 ? 0 : static_cast<size_t>(n));
    return bytes;
  };
  for (const FatbinEntry& entry : read_fatbin(read, section->size))
    (entry.kind == FatbinEntry::Kind::kPtx ? code.ptx : code.cubins).insert(entry.arch);
  return code;
}

}  // namespace gkebuild::cuda
