// What an action threw, as text, for tests that check error messages.
#pragma once

#include <exception>
#include <functional>
#include <string>

namespace gkebuild::testing {

inline std::string failure_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const std::exception& error) {
    return error.what();
  }
  return "(no error)";
}

}  // namespace gkebuild::testing
