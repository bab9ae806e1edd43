// The dynamic-linking facts of one ELF file: interpreter, DT_NEEDED, DT_RPATH,
// DT_RUNPATH and DT_SONAME, read from the program headers with pread (the file
// is never loaded whole, so a 500 MB library costs a few reads).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.h"

namespace gkebuild::elf {

// Bad input: the file the user named to stage is not an ELF file it can read.
class ElfError : public Error {
 public:
  explicit ElfError(const std::string& message) : Error(ErrorKind::kBadInput, message) {}
};

struct ElfInfo {
  uint16_t machine = 0;                // EM_X86_64, …
  std::string interpreter;             // PT_INTERP, empty for libraries and static binaries
  std::vector<std::string> needed;     // DT_NEEDED in order
  std::vector<std::string> rpath;      // DT_RPATH split at ':'
  std::vector<std::string> runpath;    // DT_RUNPATH split at ':'
  std::string soname;
  bool dynamic = false;                // has a PT_DYNAMIC segment
};

// Throws ElfError for a file that is not a 64-bit little-endian ELF file.
ElfInfo read_elf(const std::filesystem::path& path);

// Where a section's bytes lie in the file (SHT_NOBITS sections have none).
struct ElfSection {
  uint64_t offset = 0;
  uint64_t size = 0;
};

// The section named `name` (".nv_fatbin"), if the file has one with bytes in the file;
// read from the section headers with pread. Throws ElfError as read_elf does.
std::optional<ElfSection> find_section(const std::filesystem::path& path, std::string_view name);

}  // namespace gkebuild::elf
