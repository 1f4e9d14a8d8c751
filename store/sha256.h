// SHA-256 over byte strings (OpenSSL's direct SHA-256 functions, not EVP), returned as lowercase
// hex. A Sha256 object accumulates updates; Finish() may be called once.
#ifndef GENTLE_STORE_SHA256_H_
#define GENTLE_STORE_SHA256_H_

#include <string>
#include <string_view>

namespace gentle::store {

class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;

  void Update(std::string_view bytes);
  // Lowercase hex of the digest (64 characters).
  std::string FinishHex();
  // The 32 raw digest bytes.
  std::string FinishRaw();

 private:
  void* ctx_;  // SHA256_CTX*, kept opaque so OpenSSL headers stay out of this header.
};

std::string Sha256Hex(std::string_view bytes);
std::string HexEncode(std::string_view raw);

}  // namespace gentle::store

#endif  // GENTLE_STORE_SHA256_H_
