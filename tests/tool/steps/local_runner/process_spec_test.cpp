#include <gtest/gtest.h>

#include "tool/steps/local_runner/process_spec.h"

namespace gkebuild::local_runner {
namespace {

using Words = std::vector<std::string>;

oci::ContainerConfig image() {
  oci::ContainerConfig c;
  c.entrypoint = Words{"/bin/app", "--flag"};
  c.cmd = Words{"default"};
  c.env = {"PATH=/opt/bin", "MODE=image"};
  return c;
}

TEST(ProcessArgs, FollowsKubernetesCommandAndArgs) {
  EXPECT_EQ(process_args(image(), {}, {}, {}), (Words{"/bin/app", "--flag", "default"}));
  EXPECT_EQ(process_args(image(), {}, {"x", "y"}, {}), (Words{"/bin/app", "--flag", "x", "y"}));
  EXPECT_EQ(process_args(image(), {"/bin/other"}, {}, {}), (Words{"/bin/other"}));
  EXPECT_EQ(process_args(image(), {"/bin/other"}, {"z"}, {}), (Words{"/bin/other", "z"}));
}

TEST(ProcessArgs, ExpandsTheContainersVariables) {
  const EnvVars env = {{"SEED", "7"}, {"OUT", "/out/$(SEED)"}};
  EXPECT_EQ(process_args(image(), {}, {"--seed=$(SEED)", "$(OUT)", "$$(SEED)", "$(NOPE)", "$x"}, env),
            (Words{"/bin/app", "--flag", "--seed=7", "/out/7", "$(SEED)", "$(NOPE)", "$x"}));
}

TEST(ProcessArgs, NothingToRunIsAnError) {
  EXPECT_THROW(process_args(oci::ContainerConfig{}, {}, {}, {}), std::runtime_error);
}

TEST(ProcessEnv, JobVariablesOverrideInPlaceAndAddAtTheEnd) {
  const auto env = process_env(image(), {{"MODE", "job"}, {"EXTRA", "$(MODE)-1"}}, "job-a");
  EXPECT_EQ(env, (Words{"PATH=/opt/bin", "MODE=job", "EXTRA=job-1", "HOSTNAME=job-a"}));
}

TEST(ProcessEnv, DefaultPathWhenTheImageHasNone) {
  const auto env = process_env(oci::ContainerConfig{}, {{"HOSTNAME", "mine"}}, "job-a");
  EXPECT_EQ(env, (Words{"HOSTNAME=mine", "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}));
}

}  // namespace
}  // namespace gkebuild::local_runner
