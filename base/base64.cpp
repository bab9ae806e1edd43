#include "base/base64.h"

#include <openssl/evp.h>

#include <cctype>

namespace gkebuild {

std::optional<std::string> base64_decode(std::string_view text) {
  std::string compact;
  compact.reserve(text.size());
  for (char c : text)
    if (!std::isspace(static_cast<unsigned char>(c))) compact += c;
  if (compact.size() % 4 != 0) return std::nullopt;
  std::string out(compact.size() / 4 * 3, '\0');
  const int length = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                     reinterpret_cast<const unsigned char*>(compact.data()),
                                     static_cast<int>(compact.size()));
  if (length < 0) return std::nullopt;
  // EVP_DecodeBlock counts the bytes the '=' padding stands for; drop them.
  std::size_t padding = 0;
  for (auto it = compact.rbegin(); it != compact.rend() && *it == '=' && padding < 2; ++it) ++padding;
  out.resize(static_cast<std::size_t>(length) - padding);
  return out;
}

std::string base64_encode(std::string_view bytes) {
  std::string out((bytes.size() + 2) / 3 * 4 + 1, '\0');
  const int length = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                     reinterpret_cast<const unsigned char*>(bytes.data()),
                                     static_cast<int>(bytes.size()));
  out.resize(static_cast<std::size_t>(length));
  return out;
}

}  // namespace gkebuild
