#include "store/secret.h"

#include <openssl/crypto.h>
#include <sys/random.h>

#include <cerrno>

#include "store/sha256.h"

namespace gentle::store {

Result<std::string> RandomHex(size_t bytes) {
  std::string raw(bytes, '\0');
  size_t done = 0;
  while (done < bytes) {
    const ssize_t n = getrandom(raw.data() + done, bytes - done, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Status(Code::kInternal, "the random number generator failed");
    done += static_cast<size_t>(n);
  }
  return HexEncode(raw);
}

std::string TokenDigest(std::string_view token) { return "sha256:" + Sha256Hex(token); }

bool ConstantTimeEqual(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

bool IsTokenSyntax(std::string_view token) {
  if (token.size() != 64) return false;
  for (char c : token) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

}  // namespace gentle::store
