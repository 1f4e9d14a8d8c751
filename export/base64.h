// Canonical padded standard base64 (RFC 4648 section 4). DecodeCanonical accepts only text that
// EncodeBase64 would produce for some input: no whitespace, correct padding, zero unused bits.
#ifndef GENTLE_EXPORT_BASE64_H_
#define GENTLE_EXPORT_BASE64_H_

#include <optional>
#include <string>
#include <string_view>

namespace gentle::exporter {

std::string EncodeBase64(std::string_view bytes);
// The decoded bytes, or nullopt when `text` is not canonical base64.
std::optional<std::string> DecodeCanonicalBase64(std::string_view text);
// The length of EncodeBase64 of `n` bytes.
size_t EncodedBase64Size(size_t n);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_BASE64_H_
