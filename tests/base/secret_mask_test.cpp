// Secret masking (base/secret_mask.h): what gkebuild shows and keeps of a program's output
// holds no secret value, in any form the masking promises, one output line at a time. Runs as
// any user: no container, no file.
#include "base/secret_mask.h"

#include <gtest/gtest.h>

#include "base/base64.h"

namespace gkebuild {
namespace {

// Output as gkebuild reads it: line by line, each masked alone.
std::string masked_lines(const std::string& output, const SecretMask& mask) {
  std::string out;
  std::size_t start = 0;
  while (start < output.size()) {
    const std::size_t end = std::min(output.find('\n', start), output.size());
    out += mask.apply(std::string_view(output).substr(start, end - start)) + "\n";
    start = end + 1;
  }
  return out;
}

TEST(SecretMask, EveryOccurrenceOnALine) {
  EXPECT_EQ(mask_secrets("tok=s3cret s3cret,s3crets3cret!", {"s3cret"}), "tok=*** ***,***!");
  EXPECT_EQ(mask_secrets("nothing here", {"s3cret"}), "nothing here");
  EXPECT_EQ(mask_secrets("empty values mask nothing", {""}), "empty values mask nothing");
  EXPECT_EQ(mask_secrets("x", {"x"}), "***");  // a whole value is masked whatever its length
}

TEST(SecretMask, ValuesThatArePrefixesOrOverlapLeaveNoTail) {
  // Whichever order the values come in, no part of the longer one survives the shorter one.
  EXPECT_EQ(mask_secrets("a=abc123 b=abc", {"abc", "abc123"}), "a=*** b=***");
  EXPECT_EQ(mask_secrets("a=abc123 b=abc", {"abc123", "abc"}), "a=*** b=***");
  EXPECT_EQ(mask_secrets("k=abcd", {"abc", "bcd"}), "k=***");
  EXPECT_EQ(mask_secrets("aaaaa", {"aa"}), "***");
}

TEST(SecretMask, EveryLineOfAMultiLineValue) {
  const std::string key =
      "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\r\n  ab\n}\n\nzyxwvutsrq\n-----END PRIVATE KEY-----\n";
  const SecretMask mask({key});
  const std::string output = "cat key:\n" + key + "done\n";
  const std::string shown = masked_lines(output, mask);
  EXPECT_EQ(shown, "cat key:\n***\n***\r\n  ab\n}\n\n***\n***\ndone\n");
  // A line shorter than kShortestMaskedLine is not masked on its own: "}" stays "}".
  EXPECT_EQ(mask.apply("config: }"), "config: }");
  // A line of the value in the middle of an output line.
  EXPECT_EQ(mask.apply("got zyxwvutsrq back"), "got *** back");
  // The whole value in one message (an error quoting several lines).
  EXPECT_EQ(mask.apply("failed: " + key), "failed: ***");
}

TEST(SecretMask, Base64FormsWholeAndWrapped) {
  const std::string token = "ghp_0123456789abcdefghijklmnopqrstuvwxyzABCD";
  EXPECT_EQ(mask_secrets("auth: " + base64_encode(token), {token}), "auth: ***");
  // `echo "$TOKEN" | base64` adds a line break; a file's value that has one loses it in `$(cat …)`.
  EXPECT_EQ(mask_secrets("auth: " + base64_encode(token + "\n"), {token}), "auth: ***");
  EXPECT_EQ(mask_secrets("auth: " + base64_encode(token), {token + "\n"}), "auth: ***");
  EXPECT_EQ(mask_secrets("auth: " + base64_encode(token + "\n"), {token + "\r\n"}), "auth: ***");
  // A value long enough that base64(1) wraps it at 76 columns and openssl at 64.
  const std::string json = std::string("{\"type\": \"service_account\", \"private_key\": \"") + std::string(120, 'k') + "\"}";
  const std::string encoded = base64_encode(json);
  ASSERT_GT(encoded.size(), 152u);
  const SecretMask mask({json});
  for (const std::size_t width : {std::size_t{64}, std::size_t{76}}) {
    std::string wrapped;
    for (std::size_t at = 0; at < encoded.size(); at += width) wrapped += encoded.substr(at, width) + "\n";
    const std::string shown = masked_lines(wrapped, mask);
    for (std::size_t at = 0; at < encoded.size(); at += width)
      EXPECT_EQ(shown.find(encoded.substr(at, width)), std::string::npos) << width << ": " << shown;
  }
  EXPECT_EQ(mask.apply(encoded), "***");
}

TEST(SecretMask, AnEmptyMaskKeepsTheText) {
  const SecretMask none;
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(none.apply("as it was"), "as it was");
  EXPECT_TRUE(SecretMask({""}).empty());
}

}  // namespace
}  // namespace gkebuild
