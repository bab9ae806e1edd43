#include "base/error.h"
#include "images/oci/digest.h"

#include <gtest/gtest.h>

#include "images/oci/descriptor.h"

namespace gkebuild::oci {
namespace {

TEST(Digest, Sha256OfKnownInputs) {
  EXPECT_EQ(sha256_of("").str(),
            "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_of("abc").hex,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Digest, StreamingEqualsOneShot) {
  Sha256 hasher;
  hasher.update("a");
  hasher.update("bc");
  EXPECT_EQ(hasher.bytes(), 3);
  EXPECT_EQ(hasher.finish(), sha256_of("abc"));
}

TEST(Digest, ParseRoundTrips) {
  std::string text = "sha256:" + std::string(64, 'a');
  Digest d = Digest::parse(text);
  EXPECT_EQ(d.algorithm, "sha256");
  EXPECT_EQ(d.str(), text);
}

TEST(Digest, ParseRejectsMalformed) {
  EXPECT_THROW(Digest::parse("sha256"), gkebuild::InputError);
  EXPECT_THROW(Digest::parse("md5:abcd"), gkebuild::InputError);
  EXPECT_THROW(Digest::parse("sha256:abc"), gkebuild::InputError);
  EXPECT_THROW(Digest::parse("sha256:" + std::string(64, 'A')), gkebuild::InputError);
}

TEST(Descriptor, JsonRoundTrip) {
  Descriptor d{"application/vnd.oci.image.manifest.v1+json", sha256_of("x"), 1,
               {{kRefNameAnnotation, "latest"}}, Platform{}};
  nlohmann::json j = d;
  EXPECT_EQ(j["platform"]["architecture"], "amd64");
  EXPECT_EQ(j.get<Descriptor>(), d);
}

}  // namespace
}  // namespace gkebuild::oci
