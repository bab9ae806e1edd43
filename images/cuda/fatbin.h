// The CUDA fat binary container, as nvcc embeds it in the .nv_fatbin section of an ELF
// file: one or more containers, each a 16-byte header (magic 0xBA55ED50, version 1, header
// size, size of what follows) and entries back to back, each an entry header (kind PTX or
// ELF cubin, its own header size, payload size, the sm architecture, flags with the
// compression bits) and its payload. The format is NVIDIA's and undocumented; this reads
// only the entry headers, which cuobjdump --list-elf --list-ptx agrees with (tests/images/cuda).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace gkebuild::cuda {

struct FatbinEntry {
  enum class Kind { kPtx, kCubin };
  Kind kind = Kind::kCubin;
  int arch = 0;             // 75 for sm_75 / compute_75, 100 for sm_100
  bool compressed = false;  // LZ4 or zstd payload
};

// Reads `size` bytes at `offset` of the section; returns fewer only at its end.
using SectionReader = std::function<std::string(uint64_t offset, size_t size)>;

// The entries of every container in a section of `section_size` bytes. Entries of
// other kinds are skipped. Throws ElfError (bad input) for a container that does not
// hold together: a wrong magic, sizes that run past the section.
std::vector<FatbinEntry> read_fatbin(const SectionReader& read, uint64_t section_size);

}  // namespace gkebuild::cuda
