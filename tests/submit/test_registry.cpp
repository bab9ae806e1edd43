#include "test_registry.h"

#include "tests/registry/harness.h"

namespace gkebuild::testing {

struct TestRegistry::Running {
  Registry registry;
};

TestRegistry::TestRegistry(const std::filesystem::path& storage)
    : running_(std::make_unique<Running>(Running{Registry(storage, {})})) {}

TestRegistry::~TestRegistry() = default;

std::string TestRegistry::host() const { return running_->registry.host(); }

}  // namespace gkebuild::testing
