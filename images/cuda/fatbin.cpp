#include "images/cuda/fatbin.h"

#include <cstring>

#include "images/elf/elf_file.h"

namespace gkebuild::cuda {
namespace {

constexpr uint32_t kMagic = 0xBA55ED50;
constexpr size_t kContainerHeader = 16;
constexpr size_t kEntryHeader = 64;  // the fixed part; newer architectures add to it
constexpr uint16_t kKindPtx = 1;
constexpr uint16_t kKindCubin = 2;
constexpr uint64_t kCompressedLz4 = 0x2000;
constexpr uint64_t kCompressedZstd = 0x8000;
constexpr uint64_t kMaxPadding = 4096;

template <typename T>
T at(const std::string& bytes, size_t offset) {
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof(T));
  return value;
}

[[noreturn]] void malformed(uint64_t offset, const std::string& what) {
  throw elf::ElfError("malformed CUDA fat binary at offset " + std::to_string(offset) + " of .nv_fatbin: " + what);
}

// The entries of the container whose entries span [begin, end).
void read_entries(const SectionReader& read, uint64_t begin, uint64_t end, std::vector<FatbinEntry>& out) {
  for (uint64_t at_entry = begin; at_entry < end;) {
    const std::string header = read(at_entry, kEntryHeader);
    if (header.size() < kEntryHeader || end - at_entry < kEntryHeader) malformed(at_entry, "a truncated entry");
    const auto kind = at<uint16_t>(header, 0);
    const auto header_size = at<uint32_t>(header, 4);
    const auto payload_size = at<uint64_t>(header, 8);
    const auto arch = at<uint32_t>(header, 28);
    const auto flags = at<uint64_t>(header, 40);
    if (header_size < kEntryHeader || header_size > end - at_entry || payload_size > end - at_entry - header_size)
      malformed(at_entry, "an entry larger than its container");
    if (kind == kKindPtx || kind == kKindCubin) {
      if (arch == 0 || arch > 1000) malformed(at_entry, "architecture " + std::to_string(arch));
      out.push_back({kind == kKindPtx ? FatbinEntry::Kind::kPtx : FatbinEntry::Kind::kCubin, static_cast<int>(arch),
                     (flags & (kCompressedLz4 | kCompressedZstd)) != 0});
    }
    at_entry += header_size + payload_size;
  }
}

}  // namespace

std::vector<FatbinEntry> read_fatbin(const SectionReader& read, uint64_t section_size) {
  std::vector<FatbinEntry> out;
  uint64_t offset = 0;
  uint64_t padding = 0;  // zero bytes since the last container
  while (offset + kContainerHeader <= section_size) {
    const std::string header = read(offset, kContainerHeader);
    if (header.size() < kContainerHeader) malformed(offset, "a truncated container header");
    const auto magic = at<uint32_t>(header, 0);
    if (magic == 0 && at<uint32_t>(header, 4) == 0) {  // alignment between containers
      if ((padding += 8) > kMaxPadding) malformed(offset, "more than 4096 zero bytes between containers");
      offset += 8;
      continue;
    }
    padding = 0;
    if (magic != kMagic) malformed(offset, "no fat binary magic (0xBA55ED50)");
    const auto header_size = at<uint16_t>(header, 6);
    const auto entries_size = at<uint64_t>(header, 8);
    if (header_size < kContainerHeader || header_size > section_size - offset ||
        entries_size > section_size - offset - header_size)
      malformed(offset, "a container larger than the section");
    read_entries(read, offset + header_size, offset + header_size + entries_size, out);
    offset += header_size + entries_size;
  }
  return out;
}

}  // namespace gkebuild::cuda
