#include "images/elf/ld_cache.h"

#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>

namespace gkebuild::elf {
namespace {

constexpr char kOldMagic[] = "ld.so-1.7.0";
constexpr char kNewMagic[] = "glibc-ld.so.cache1.1";
constexpr size_t kNewHeader = 48;  // magic+version 20, nlibs 4, len_strings 4, flags 4, extension 4, unused 12
constexpr size_t kNewEntry = 24;   // flags 4, key 4, value 4, osversion 4, hwcap 8
constexpr int32_t kElfLibc6 = 0x0003;
constexpr int32_t kX8664Lib64 = 0x0300;

uint32_t u32(const std::string& b, size_t at) {
  uint32_t v;
  std::memcpy(&v, b.data() + at, 4);
  return v;
}

}  // namespace

std::map<std::string, std::filesystem::path> read_ld_cache(const std::filesystem::path& file) {
  std::map<std::string, std::filesystem::path> out;
  std::ifstream in(file, std::ios::binary);
  if (!in) return out;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  std::string bytes = buffer.str();
  size_t start = 0;
  if (bytes.compare(0, sizeof kOldMagic - 1, kOldMagic) == 0 && bytes.size() >= 16) {
    // An old-format table first; the new one follows, 8-byte aligned.
    size_t old_entries = u32(bytes, 12);
    start = (16 + old_entries * 12 + 7) & ~size_t(7);
  }
  if (bytes.size() < start + kNewHeader || bytes.compare(start, sizeof kNewMagic - 1, kNewMagic) != 0) {
    return out;
  }
  size_t count = u32(bytes, start + 20);
  for (size_t i = 0; i < count; ++i) {
    size_t entry = start + kNewHeader + i * kNewEntry;
    if (entry + kNewEntry > bytes.size()) break;
    int32_t flags = static_cast<int32_t>(u32(bytes, entry));
    size_t key = start + u32(bytes, entry + 4);
    size_t value = start + u32(bytes, entry + 8);
    if ((flags & 0xff) != kElfLibc6 || (flags & 0xff00) != kX8664Lib64) continue;
    if (key >= bytes.size() || value >= bytes.size()) continue;
    // The first entry for a name wins, as in the loader's search of the table.
    out.try_emplace(bytes.c_str() + key, bytes.c_str() + value);
  }
  return out;
}

}  // namespace gkebuild::elf
