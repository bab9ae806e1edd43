// A project folder in a scratch directory, loaded as the commands load it.
#pragma once

#include <filesystem>
#include <string>

#include "base/atomic_file.h"
#include "tests/common/temp_dir.h"
#include "tool/core/project/project.h"

namespace gkebuild::project_images {

// gkebuild.yaml's head; the images follow it from line 5 on.
inline constexpr const char* kProjectHead =
    "apiVersion: gkebuild/v1\n"       // 1
    "project: demo\n"                 // 2
    "registry: 127.0.0.1:5000/exp\n"  // 3
    "images:\n";                      // 4

class ProjectFolder {
 public:
  // Writes gkebuild.yaml with `images` (indented two spaces, from line 5) and loads it.
  project::Project load(const std::string& images) const {
    return project::load_project(write("gkebuild.yaml", std::string(kProjectHead) + images));
  }
  std::filesystem::path write(const std::string& name, const std::string& content) const {
    return dir_.write(name, content);
  }
  const std::filesystem::path& path() const { return dir_.path(); }

 private:
  testing::TempDir dir_;
};

}  // namespace gkebuild::project_images
