// Secret values kept out of what gkebuild shows and keeps: a program (a RUN, a Job) that
// prints a secret it was given has that value replaced by "***" in the lines gkebuild
// prints, logs and puts in error messages, as CI systems mask their secrets.
//
// Output is masked one line at a time, so a value is masked in several forms:
// - the whole value, whatever its length;
// - each line of a multi-line value (a PEM key, a JSON credential file), trimmed of spaces
//   and tabs, when it has at least kShortestMaskedLine characters: a line such as "}" or an
//   empty one is left alone, since masking it everywhere would destroy the output around it
//   and reveals next to nothing;
// - its base64 form (RFC 4648, padded), whole and as wrapped at 64 and 76 columns (PEM and
//   openssl, base64(1) and MIME), each wrapped line of at least kShortestMaskedLine characters;
//   also of the value without its trailing line break and with one (`echo "$V" | base64`).
// Every byte any of these covers becomes part of one "***" (values that are prefixes of each
// other, or overlap, leave no tail behind).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gkebuild {

inline constexpr std::size_t kShortestMaskedLine = 4;

class SecretMask {
 public:
  SecretMask() = default;  // masks nothing
  explicit SecretMask(const std::vector<std::string>& values);

  bool empty() const { return needles_.empty(); }
  // `text` with every form above of every non-empty value replaced by "***".
  std::string apply(std::string_view text) const;

 private:
  std::vector<std::string> needles_;
};

// SecretMask(values).apply(text), for one message.
std::string mask_secrets(std::string_view text, const std::vector<std::string>& values);

}  // namespace gkebuild
