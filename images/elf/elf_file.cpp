#include "images/elf/elf_file.h"

#include <elf.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>

namespace gkebuild::elf {
namespace {

class File {
 public:
  explicit File(const std::filesystem::path& path) : path_(path) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw ElfError("cannot read " + path.string() + ": " + std::strerror(errno));
  }
  ~File() { ::close(fd_); }
  File(const File&) = delete;
  File& operator=(const File&) = delete;

  std::string read(uint64_t offset, uint64_t size) const {
    if (size > (64u << 20)) throw ElfError(path_.string() + ": implausible ELF section size");
    std::string out(size, '\0');
    ssize_t n = ::pread(fd_, out.data(), size, static_cast<off_t>(offset));
    if (n < 0 || static_cast<uint64_t>(n) != size) {
      throw ElfError(path_.string() + ": truncated ELF file");
    }
    return out;
  }

 private:
  std::filesystem::path path_;
  int fd_;
};

std::vector<std::string> split_path_list(const std::string& list) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= list.size()) {
    size_t end = list.find(':', start);
    if (end == std::string::npos) end = list.size();
    if (end > start) out.push_back(list.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

template <typename T>
T at(const std::string& bytes, size_t offset) {
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof(T));
  return value;
}

Elf64_Ehdr read_header(const File& file, const std::filesystem::path& path) {
  auto header = at<Elf64_Ehdr>(file.read(0, sizeof(Elf64_Ehdr)), 0);
  if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0) throw ElfError(path.string() + " is not an ELF file");
  if (header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_ident[EI_DATA] != ELFDATA2LSB) {
    throw ElfError(path.string() + " is not a 64-bit little-endian ELF file");
  }
  return header;
}

}  // namespace

std::optional<ElfSection> find_section(const std::filesystem::path& path, std::string_view name) {
  File file(path);
  const auto header = read_header(file, path);
  if (header.e_shoff == 0 || header.e_shnum == 0 || header.e_shstrndx >= header.e_shnum) return std::nullopt;
  const std::string headers = file.read(header.e_shoff, uint64_t(header.e_shnum) * sizeof(Elf64_Shdr));
  const auto names_header = at<Elf64_Shdr>(headers, header.e_shstrndx * sizeof(Elf64_Shdr));
  const std::string names = file.read(names_header.sh_offset, names_header.sh_size);
  for (size_t i = 0; i < header.e_shnum; ++i) {
    const auto section = at<Elf64_Shdr>(headers, i * sizeof(Elf64_Shdr));
    if (section.sh_name >= names.size() || section.sh_type == SHT_NOBITS) continue;
    if (std::string_view(names.c_str() + section.sh_name) == name) return ElfSection{section.sh_offset, section.sh_size};
  }
  return std::nullopt;
}

ElfInfo read_elf(const std::filesystem::path& path) {
  File file(path);
  const auto header = read_header(file, path);
  ElfInfo info;
  info.machine = header.e_machine;
  std::string headers = file.read(header.e_phoff, uint64_t(header.e_phnum) * sizeof(Elf64_Phdr));
  std::vector<Elf64_Phdr> loads;
  std::optional<Elf64_Phdr> dynamic;
  for (size_t i = 0; i < header.e_phnum; ++i) {
    auto ph = at<Elf64_Phdr>(headers, i * sizeof(Elf64_Phdr));
    if (ph.p_type == PT_LOAD) loads.push_back(ph);
    if (ph.p_type == PT_DYNAMIC) dynamic = ph;
    if (ph.p_type == PT_INTERP) {
      info.interpreter = file.read(ph.p_offset, ph.p_filesz).c_str();
    }
  }
  if (!dynamic) return info;
  info.dynamic = true;
  auto to_offset = [&](uint64_t address) -> uint64_t {
    for (const auto& l : loads) {
      if (address >= l.p_vaddr && address < l.p_vaddr + l.p_filesz) return address - l.p_vaddr + l.p_offset;
    }
    throw ElfError(path.string() + ": dynamic string table outside every loaded segment");
  };
  std::string entries = file.read(dynamic->p_offset, dynamic->p_filesz);
  uint64_t strtab = 0, strsz = 0;
  std::vector<uint64_t> needed;
  std::optional<uint64_t> rpath, runpath, soname;
  for (size_t off = 0; off + sizeof(Elf64_Dyn) <= entries.size(); off += sizeof(Elf64_Dyn)) {
    auto d = at<Elf64_Dyn>(entries, off);
    if (d.d_tag == DT_NULL) break;
    switch (d.d_tag) {
      case DT_NEEDED: needed.push_back(d.d_un.d_val); break;
      case DT_STRTAB: strtab = d.d_un.d_ptr; break;
      case DT_STRSZ: strsz = d.d_un.d_val; break;
      case DT_RPATH: rpath = d.d_un.d_val; break;
      case DT_RUNPATH: runpath = d.d_un.d_val; break;
      case DT_SONAME: soname = d.d_un.d_val; break;
      default: break;
    }
  }
  if (strtab == 0) return info;
  std::string strings = file.read(to_offset(strtab), strsz);
  auto string_at = [&](uint64_t offset) -> std::string {
    if (offset >= strings.size()) throw ElfError(path.string() + ": bad dynamic string offset");
    return strings.c_str() + offset;
  };
  for (uint64_t n : needed) info.needed.push_back(string_at(n));
  if (rpath) info.rpath = split_path_list(string_at(*rpath));
  if (runpath) info.runpath = split_path_list(string_at(*runpath));
  if (soname) info.soname = string_at(*soname);
  return info;
}

}  // namespace gkebuild::elf
