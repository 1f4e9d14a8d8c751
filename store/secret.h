// Secrets: one-time acknowledgement tokens and their comparison.
//
// RandomHex draws from the kernel's CSPRNG (getrandom(2), which OpenSSL's own generator is seeded
// from; setting up OpenSSL's generator was half of a verdict's instructions); a token is 32 random
// bytes as 64 lowercase hex. Only TokenDigest(token) is ever stored. ConstantTimeEqual compares
// without an early exit (CRYPTO_memcmp), so the time taken does not reveal how many leading bytes
// matched.
#ifndef GENTLE_STORE_SECRET_H_
#define GENTLE_STORE_SECRET_H_

#include <string>
#include <string_view>

#include "store/status.h"

namespace gentle::store {

Result<std::string> RandomHex(size_t bytes);
// "sha256:" + hex(sha256(token)).
std::string TokenDigest(std::string_view token);
bool ConstantTimeEqual(std::string_view a, std::string_view b);
// True for exactly 64 lowercase hex digits.
bool IsTokenSyntax(std::string_view token);

}  // namespace gentle::store

#endif  // GENTLE_STORE_SECRET_H_
