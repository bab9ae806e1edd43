// What every fuzz target shares. A target feeds the bytes to one parser and swallows the errors
// that parser documents (all derive from std::runtime_error: a positioned SourceError, a
// DockerfileError, a RegistryError, ...). Anything else is a finding: a crash, a sanitizer report,
// a hang, memory beyond libFuzzer's -rss_limit_mb, and std::logic_error or std::bad_alloc escaping
// (a length computed from the input and never bounded).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>

#define GKEBUILD_FUZZ_TARGET(...) GKEBUILD_FUZZ_TARGET_EXPECTING(std::runtime_error, __VA_ARGS__)

// A target whose parser documents a narrower error: any other exception escapes, and
// std::terminate makes it a finding.
#define GKEBUILD_FUZZ_TARGET_EXPECTING(expected_error, ...)                        \
  extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {         \
    const std::string_view input(reinterpret_cast<const char*>(data), size);        \
    try {                                                                           \
      __VA_ARGS__;                                                                  \
    } catch (const expected_error&) {                                               \
    }                                                                               \
    return 0;                                                                       \
  }
