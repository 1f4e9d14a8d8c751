// FuzzEnvelopeReader: see fuzz/entries.h.
#include "export/envelope_reader.h"
#include "fuzz/entries.h"
#include "store/sha256.h"

namespace gentle::fuzz {

std::string FuzzEnvelopeReader(std::string_view data) {
  auto parsed = exporter::ParseEnvelope(data);
  if (!parsed.ok()) {
    if (parsed.status().code() != Code::kIntegrityMismatch) {
      return "a refused envelope is not integrity_mismatch: " +
             std::string(CodeName(parsed.status().code()));
    }
    return "";
  }
  if (parsed->sha256 != "sha256:" + store::Sha256Hex(parsed->patch)) {
    return "the envelope's sha256 does not bind its decoded patch";
  }
  if (parsed->patch.size() > (4u << 20)) return "accepted a patch above the 4 MiB budget";
  return "";
}

}  // namespace gentle::fuzz
