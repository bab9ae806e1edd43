// A text file compiled into the binary (see cmake/embed_files.cmake).
#pragma once

#include <cstddef>
#include <string_view>

namespace gkebuild {

struct EmbeddedFile {
  std::string_view name;     // path relative to the folder it was taken from
  std::string_view content;
};

}  // namespace gkebuild
