// ParseEnvelope: reads a `gentle-ai.review-context-export/v1` envelope without trusting it. Checks
// the JSON shape and the candidate_diff binding (canonical base64, byte_size, sha256); returns the
// decoded patch and the snapshot fields. Any failure is `integrity_mismatch` (shape errors
// included: the envelope is an untrusted input that does not bind), also a duplicate object key or
// nesting deeper than 64 levels.
#ifndef GENTLE_EXPORT_ENVELOPE_READER_H_
#define GENTLE_EXPORT_ENVELOPE_READER_H_

#include <string>
#include <string_view>

#include "store/snapshot.h"
#include "store/status.h"

namespace gentle::exporter {

struct Envelope {
  std::string lineage;
  std::string revision;
  std::string state;
  store::Snapshot snapshot;  // `paths` is empty: the envelope carries only their digest
  std::string patch;         // decoded candidate_diff
  std::string sha256;
};

inline constexpr size_t kMaxEnvelopeBytes = 64u << 20;

Result<Envelope> ParseEnvelope(std::string_view json);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_ENVELOPE_READER_H_
