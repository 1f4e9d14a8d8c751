#include "export/ssh_signature_blob.h"

#include <cstdint>

#include "export/base64.h"

namespace gentle::exporter {
namespace {

constexpr std::string_view kBegin = "-----BEGIN SSH SIGNATURE-----";
constexpr std::string_view kEnd = "-----END SSH SIGNATURE-----";
constexpr std::string_view kMagic = "SSHSIG";

// Reads one SSH wire string at `*pos`; false when the bytes end first.
bool ReadString(std::string_view blob, size_t* pos, std::string_view* out) {
  if (blob.size() - *pos < 4) return false;
  uint32_t n = 0;
  for (int i = 0; i < 4; ++i) n = (n << 8) | static_cast<unsigned char>(blob[*pos + i]);
  *pos += 4;
  if (blob.size() - *pos < n) return false;
  *out = blob.substr(*pos, n);
  *pos += n;
  return true;
}

}  // namespace

std::optional<SshSignatureBlob> ParseSshSignatureBlob(std::string_view armored) {
  const size_t begin = armored.find(kBegin);
  const size_t end = armored.find(kEnd);
  if (begin != 0 || end == std::string_view::npos || end < kBegin.size()) return std::nullopt;
  std::string text;
  for (char c : armored.substr(kBegin.size(), end - kBegin.size())) {
    if (c != '\n' && c != '\r') text.push_back(c);
  }
  std::optional<std::string> blob = DecodeCanonicalBase64(text);
  if (!blob || blob->compare(0, kMagic.size(), kMagic) != 0 || blob->size() < kMagic.size() + 4) {
    return std::nullopt;
  }
  size_t pos = kMagic.size();
  const std::string_view bytes(*blob);
  const bool version_one = bytes.substr(pos, 4) == std::string_view("\0\0\0\1", 4);
  pos += 4;
  std::string_view key, name_space;
  if (!version_one || !ReadString(bytes, &pos, &key) || !ReadString(bytes, &pos, &name_space)) {
    return std::nullopt;
  }
  return SshSignatureBlob{std::string(key), std::string(name_space)};
}

}  // namespace gentle::exporter
