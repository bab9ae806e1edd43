// docker-registry for the submit tests, through tests/registry's harness. Kept behind
// this small interface: the harness and the Kubernetes test server's headers each
// declare a test TempDir, so they cannot meet in one file.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

namespace gkebuild::testing {

class TestRegistry {
 public:
  explicit TestRegistry(const std::filesystem::path& storage);
  ~TestRegistry();
  std::string host() const;

 private:
  struct Running;
  std::unique_ptr<Running> running_;
};

}  // namespace gkebuild::testing
