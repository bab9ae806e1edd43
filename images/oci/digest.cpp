#include "images/oci/digest.h"

#include <openssl/evp.h>

#include <stdexcept>

#include "base/error.h"

namespace gkebuild::oci {
namespace {

bool is_lower_hex(std::string_view s) {
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return !s.empty();
}

size_t hex_length(std::string_view algorithm) {
  if (algorithm == "sha256") return 64;
  if (algorithm == "sha512") return 128;
  return 0;
}

}  // namespace

Digest Digest::parse(std::string_view text) {
  auto colon = text.find(':');
  if (colon == std::string_view::npos) {
    throw InputError("invalid digest '" + std::string(text) + "': expected sha256:<hex>");
  }
  std::string_view algorithm = text.substr(0, colon);
  std::string_view hex = text.substr(colon + 1);
  size_t expected = hex_length(algorithm);
  if (expected == 0) {
    throw InputError("unsupported digest algorithm '" + std::string(algorithm) + "'");
  }
  if (hex.size() != expected || !is_lower_hex(hex)) {
    throw InputError("invalid digest '" + std::string(text) + "': expected " +
                     std::to_string(expected) + " lower-case hex digits");
  }
  return Digest{std::string(algorithm), std::string(hex)};
}

struct Sha256::State {
  EVP_MD_CTX* ctx = nullptr;
  ~State() { EVP_MD_CTX_free(ctx); }
};

Sha256::Sha256() : state_(std::make_unique<State>()) {
  state_->ctx = EVP_MD_CTX_new();
  if (state_->ctx == nullptr || EVP_DigestInit_ex(state_->ctx, EVP_sha256(), nullptr) != 1) {
    throw Error(ErrorKind::kFailed, "cannot initialise SHA-256");
  }
}

Sha256::~Sha256() = default;
Sha256::Sha256(Sha256&&) noexcept = default;
Sha256& Sha256::operator=(Sha256&&) noexcept = default;

void Sha256::update(std::string_view bytes) {
  if (EVP_DigestUpdate(state_->ctx, bytes.data(), bytes.size()) != 1) {
    throw Error(ErrorKind::kFailed, "SHA-256 update failed");
  }
  bytes_ += static_cast<int64_t>(bytes.size());
}

Digest Sha256::finish() {
  unsigned char hash[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_DigestFinal_ex(state_->ctx, hash, &length) != 1) {
    throw Error(ErrorKind::kFailed, "SHA-256 finish failed");
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(length * 2);
  for (unsigned int i = 0; i < length; ++i) {
    hex.push_back(kHex[hash[i] >> 4]);
    hex.push_back(kHex[hash[i] & 15]);
  }
  return Digest{"sha256", std::move(hex)};
}

Digest sha256_of(std::string_view bytes) {
  Sha256 hasher;
  hasher.update(bytes);
  return hasher.finish();
}

}  // namespace gkebuild::oci
