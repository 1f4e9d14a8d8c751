// OpenSSL's direct SHA-256 functions are used instead of EVP: under OpenSSL 3 the first EVP fetch
// initialises the provider machinery (~3.5 million instructions, measured with callgrind), which
// dominated small read commands. The direct functions are deprecated in 3.0 but supported there.
#define OPENSSL_API_COMPAT 0x10100000L
#include "store/sha256.h"

#include <openssl/sha.h>

namespace gentle::store {

Sha256::Sha256() : ctx_(new SHA256_CTX) { SHA256_Init(static_cast<SHA256_CTX*>(ctx_)); }

Sha256::~Sha256() { delete static_cast<SHA256_CTX*>(ctx_); }

void Sha256::Update(std::string_view bytes) {
  SHA256_Update(static_cast<SHA256_CTX*>(ctx_), bytes.data(), bytes.size());
}

std::string Sha256::FinishRaw() {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256_Final(digest, static_cast<SHA256_CTX*>(ctx_));
  return std::string(reinterpret_cast<const char*>(digest), sizeof(digest));
}

std::string Sha256::FinishHex() { return HexEncode(FinishRaw()); }

std::string Sha256Hex(std::string_view bytes) {
  Sha256 hasher;
  hasher.Update(bytes);
  return hasher.FinishHex();
}

std::string HexEncode(std::string_view raw) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(raw.size() * 2);
  for (unsigned char c : raw) {
    hex.push_back(kDigits[c >> 4]);
    hex.push_back(kDigits[c & 0xf]);
  }
  return hex;
}

}  // namespace gentle::store
