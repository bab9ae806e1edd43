// The fat binary reader on containers built here byte by byte (the layout nvcc writes:
// see images/cuda/fatbin.h), hostile sizes included, and NVIDIA's compatibility rule.
#include <gtest/gtest.h>

#include <cstring>

#include "images/cuda/device_code.h"
#include "images/cuda/fatbin.h"
#include "images/elf/elf_file.h"

namespace gkebuild::cuda {
namespace {

template <typename T>
void put(std::string& bytes, size_t offset, T value) {
  std::memcpy(bytes.data() + offset, &value, sizeof(T));
}

// One entry: a 64-byte header and `payload` bytes.
std::string entry(uint16_t kind, uint32_t arch, uint64_t flags, size_t payload) {
  std::string bytes(64 + payload, 'x');
  std::memset(bytes.data(), 0, 64);
  put<uint16_t>(bytes, 0, kind);
  put<uint16_t>(bytes, 2, 0x0101);
  put<uint32_t>(bytes, 4, 64);
  put<uint64_t>(bytes, 8, payload);
  put<uint32_t>(bytes, 28, arch);
  put<uint64_t>(bytes, 40, flags);
  return bytes;
}

std::string container(const std::string& entries) {
  std::string bytes(16, '\0');
  put<uint32_t>(bytes, 0, 0xBA55ED50);
  put<uint16_t>(bytes, 4, 1);
  put<uint16_t>(bytes, 6, 16);
  put<uint64_t>(bytes, 8, entries.size());
  return bytes + entries;
}

std::vector<FatbinEntry> parse(const std::string& section) {
  return read_fatbin(
      [&](uint64_t offset, size_t size) { return offset >= section.size() ? "" : section.substr(offset, size); },
      section.size());
}

TEST(Fatbin, ReadsEveryEntryOfEveryContainer) {
  const std::string section = container(entry(2, 75, 0x11, 40) + entry(2, 89, 0x11, 8)) + std::string(8, '\0') +
                              container(entry(1, 89, 0x8011, 16) + entry(0x40, 0, 0, 8));
  const auto entries = parse(section);
  ASSERT_EQ(entries.size(), 3u);  // the unknown kind 0x40 is skipped
  EXPECT_EQ(entries[0].kind, FatbinEntry::Kind::kCubin);
  EXPECT_EQ(entries[0].arch, 75);
  EXPECT_FALSE(entries[0].compressed);
  EXPECT_EQ(entries[1].arch, 89);
  EXPECT_EQ(entries[2].kind, FatbinEntry::Kind::kPtx);
  EXPECT_EQ(entries[2].arch, 89);
  EXPECT_TRUE(entries[2].compressed);
}

TEST(Fatbin, RefusesWhatDoesNotHoldTogether) {
  const std::string good = container(entry(2, 75, 0, 8));
  std::string bad_magic = good;
  put<uint32_t>(bad_magic, 0, 0x12345678);
  std::string entries_past_the_end = good;
  put<uint64_t>(entries_past_the_end, 8, 1u << 30);
  std::string payload_past_the_end = good;
  put<uint64_t>(payload_past_the_end, 16 + 8, ~uint64_t(0) - 10);  // would wrap an unchecked sum
  std::string short_entry_header = good;
  put<uint32_t>(short_entry_header, 16 + 4, 8);
  std::string truncated_entry = container(entry(2, 75, 0, 8)).substr(0, 40);
  put<uint64_t>(truncated_entry, 8, 24);
  std::string no_architecture = container(entry(2, 0, 0, 8));
  const std::string endless_padding = std::string(8192, '\0') + good;
  for (const auto& section : {bad_magic, entries_past_the_end, payload_past_the_end, short_entry_header,
                              truncated_entry, no_architecture, endless_padding})
    EXPECT_THROW(parse(section), elf::ElfError);
}

TEST(Fatbin, AnEmptySectionHasNoEntries) {
  EXPECT_TRUE(parse("").empty());
  EXPECT_TRUE(parse(container("")).empty());
}

TEST(DeviceCode, CubinsRunOnTheirMajorAtOrAboveTheirMinor) {
  DeviceCode code;
  code.cubins = {75, 80};
  EXPECT_TRUE(code.runs_on(7, 5));
  EXPECT_FALSE(code.runs_on(7, 0));
  EXPECT_TRUE(code.runs_on(8, 0));
  EXPECT_TRUE(code.runs_on(8, 9));  // an sm_80 cubin runs on an L4 (8.9)
  EXPECT_FALSE(code.runs_on(9, 0)); // but no cubin runs on another major
}

TEST(DeviceCode, PtxIsCompiledForAnyGpuAtOrAboveIt) {
  DeviceCode code;
  code.ptx = {89};
  EXPECT_TRUE(code.runs_on(8, 9));
  EXPECT_TRUE(code.runs_on(9, 0));
  EXPECT_TRUE(code.runs_on(12, 0));
  EXPECT_FALSE(code.runs_on(8, 0));
  EXPECT_FALSE(code.runs_on(7, 5));
}

TEST(DeviceCode, Describes) {
  DeviceCode code;
  EXPECT_EQ(code.describe(), "no device code");
  code.cubins = {75, 89};
  code.ptx = {89};
  EXPECT_EQ(code.describe(), "sm_75, sm_89 and compute_89 PTX");
  code.cubins.clear();
  EXPECT_EQ(code.describe(), "compute_89 PTX");
}

TEST(DeviceCode, AFileWithoutFatbinHasNone) {
  EXPECT_TRUE(read_device_code("/proc/self/exe").empty());
  EXPECT_THROW(read_device_code(GKEBUILD_SOURCE_ROOT "/README.md"), elf::ElfError);
}

}  // namespace
}  // namespace gkebuild::cuda
