// /etc/ld.so.cache (glibc's "glibc-ld.so.cache1.1" format): library name -> path,
// as ldconfig recorded it for x86-64.
#pragma once

#include <filesystem>
#include <map>
#include <string>

namespace gkebuild::elf {

// An empty map when the file is missing or not in a format this reader knows.
std::map<std::string, std::filesystem::path> read_ld_cache(const std::filesystem::path& file);

}  // namespace gkebuild::elf
