// The images the local runner's peer tests run, built once per test binary with
// `gkebuild image` into one OCI layout: examples/hello-image (hello:1) and the probe
// program (probe:1, and probe:user which runs as a user of its own /etc/passwd).
#pragma once

#include <filesystem>
#include <string>

namespace gkebuild::local_runner::testing {

struct TestImages {
  std::filesystem::path layout;
  std::string probe_digest;  // the manifest digest of probe:1
};

// Builds the images on first use; fails the calling test when a build fails.
const TestImages& test_images();

}  // namespace gkebuild::local_runner::testing
