// Content digests ("sha256:<hex>") and a streaming SHA-256 hasher.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace gkebuild::oci {

struct Digest {
  std::string algorithm;  // "sha256" (the only one gkebuild writes)
  std::string hex;        // lower-case hex of the hash

  std::string str() const { return algorithm + ":" + hex; }
  // Parses "sha256:<64 hex>" (and sha512); throws InputError otherwise.
  static Digest parse(std::string_view text);

  friend bool operator==(const Digest&, const Digest&) = default;
  friend auto operator<=>(const Digest&, const Digest&) = default;
};

// Incremental SHA-256 over a byte stream (OpenSSL EVP).
class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(Sha256&&) noexcept;
  Sha256& operator=(Sha256&&) noexcept;

  void update(std::string_view bytes);
  // The digest of everything fed so far; the hasher must not be used afterwards.
  Digest finish();
  int64_t bytes() const { return bytes_; }

 private:
  struct State;
  std::unique_ptr<State> state_;
  int64_t bytes_ = 0;
};

Digest sha256_of(std::string_view bytes);

}  // namespace gkebuild::oci
