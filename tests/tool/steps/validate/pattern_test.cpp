// Schema patterns written for Go's RE2 read by std::regex: the (?i) flag of Kueue's
// AdmissionCheck name pattern (a schema with it was a usage error, exit 2, before).
#include <gtest/gtest.h>

#include <regex>

#include "tool/steps/validate/schema_bundle.h"

namespace gkebuild::validate {
namespace {

TEST(SchemaPattern, CaseInsensitiveFlagBecomesBothCases) {
  const std::string go = "^(?i)[a-z]([-a-z0-9]*[a-z0-9])?$";
  const std::string written = ecmascript_pattern(go);
  EXPECT_EQ(written, "^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$");
  const std::regex pattern(written);
  for (const char* name : {"dws-prov", "DWS-Prov", "a"}) EXPECT_TRUE(std::regex_search(name, pattern)) << name;
  for (const char* name : {"-a", "a_b", "1a"}) EXPECT_FALSE(std::regex_search(name, pattern)) << name;
  EXPECT_THROW(std::regex{go}, std::regex_error);  // why the translation is needed
}

TEST(SchemaPattern, LettersOutsideClassesAndEscapesKeepTheirMeaning) {
  EXPECT_EQ(ecmascript_pattern("(?i)ab\\d[x]"), "[aA][bB]\\d[xX]");
  EXPECT_EQ(ecmascript_pattern("^[a-z]+$"), "^[a-z]+$");  // no flag: as written
}

}  // namespace
}  // namespace gkebuild::validate
