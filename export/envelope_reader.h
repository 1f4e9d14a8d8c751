// ParseEnvelope: reads a `gentle-ai.review-context-export/v1` envelope without trusting it. Checks
// the JSON shape and the candidate_diff binding (canonical base64, byte_size, sha256); returns the
// decoded patch, the snapshot fields and the members a verifier re-derives: the changed-path
// manifest (each entry exactly its six string members), derivation (git_flags, engine,
// tool_version) and budget (max_bytes, used_bytes; no other members in either). Any failure is
// `integrity_mismatch` (shape errors included: the envelope is an untrusted input that does not
// bind), also a duplicate object key or nesting deeper than 64 levels. Members the envelope
// carries beyond these are ignored; none of what is returned is proven by parsing alone.
//
// Rounds (docs/loop.md): `round` (an integer >= 1) and `round_revision` (a string; only
// with `round`) are optional, so envelopes written before rounds still read. A foreign schema (an
// interdiff envelope among them) names it in the details (`schema`). A part envelope
// (docs/commands.md, "Views and parts") is read with its `view` member noted (Envelope::view):
// verify refuses it.
#ifndef GENTLE_EXPORT_ENVELOPE_READER_H_
#define GENTLE_EXPORT_ENVELOPE_READER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "export/patch_engine.h"
#include "store/review_state.h"
#include "store/snapshot.h"
#include "store/status.h"

namespace gentle::exporter {

struct Envelope {
  std::string lineage;
  std::string revision;
  store::StateName state;                     // as the envelope names it
  std::optional<int64_t> round;               // absent in envelopes written before rounds
  std::optional<std::string> round_revision;  // export-context --round only
  store::Snapshot snapshot;  // `paths` is empty: the envelope carries only their digest
  std::string patch;         // decoded candidate_diff
  std::string sha256;
  std::vector<ManifestEntry> manifest;  // as listed
  std::vector<std::string> git_flags;
  std::string engine;
  std::string tool_version;
  uint64_t max_bytes = 0;
  uint64_t used_bytes = 0;
  // A part envelope's `view` member (export-context --view/--max-bytes), as a string (any JSON
  // value reads as present); nullopt for the whole diff's envelope.
  std::optional<std::string> view;
};

inline constexpr size_t kMaxEnvelopeBytes = 64u << 20;

Result<Envelope> ParseEnvelope(std::string_view json);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_ENVELOPE_READER_H_
