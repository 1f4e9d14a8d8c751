// ExportContext: `review export-context`, read-only by construction (docs/engine.md).
//
// Takes the shared maintenance lock only (and only if the store exists), writes and creates
// nothing, and classifies the lineage fail-closed before deriving anything:
//   record present and verified            -> export (state and applicability as information)
//   historical-compat record               -> read_only
//   record unparseable or unverifiable     -> corrupted; record plus a tombstone -> ambiguous
//   no record: tombstone / quarantine / none -> consumed / retired / not_found, except that a
//   lineage directory still in place with neither -> corrupted (an incomplete entry)
//   batch marker                           -> reconciliation_prepared
//   not_found locally, fetched from a remote -> the verified fetched history (store/
//                                             fetched_lineage.h), `source` = the remote
// then objects_missing, budget_exceeded and integrity_mismatch from the derivation.
//
// Rounds (docs/loop.md): the export is of the lineage's current round, the record's
// `current_snapshot` (for a one-round lineage the initial one), and names it (`round`, the record's
// `generation`). With `round` it is round N's snapshot, read from the lineage's history
// (export/round_record.h: the local history, a verified fetched one, or a burned lineage's history
// that keeps its burn commit, reported with state `consumed` and applicability `unrelated`),
// derived and checked exactly as the current round; the envelope then also names
// `round_revision`, the record revision of that round's newest history commit. A round < 1 is
// `usage`; one above the current round or absent from the history `not_found`.
#ifndef GENTLE_EXPORT_CONTEXT_EXPORT_H_
#define GENTLE_EXPORT_CONTEXT_EXPORT_H_

#include <cstdint>
#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>

#include "export/derivation.h"
#include "export/engine.h"
#include "export/patch_spool.h"
#include "store/git/repository.h"
#include "store/record.h"
#include "store/review_state.h"
#include "store/status.h"

namespace gentle::exporter {

inline constexpr std::string_view kToolVersion = "gentle-ai-review 0.1.0";

// A record's applicability to the live target and the next action once its context has been read,
// with its reason (transaction/next_action.h), by name.
struct Standing {
  std::string applicability;
  std::string next;
  std::string next_reason;
};

// Computes a record's Standing, read-only; `source` is the remote of a fetched-only lineage, empty
// for the local store. Injected by the caller so that export/ never links the transaction layer.
using StandingFn = std::function<Result<Standing>(
    const store::git::Repository&, const store::RecordView&, const std::string& source)>;

struct ContextRequest {
  std::string cwd = ".";
  std::string lineage;
  Engine engine = Engine::kNative;
  std::optional<int64_t> round;  // export-context --round N; nullopt: the current round
  StandingFn standing;           // unset: "unrelated", next "none" / "candidate_burned"
  // Read the exported round's review-context binding (ContextExport::context_digest). Only the
  // envelope shows it; a raw patch export skips the history walk it takes.
  bool context_binding = true;
  // export-context --view / --max-bytes / --part (docs/commands.md, "Views and parts"): the part
  // of that view is exported instead of the whole diff (Derived::part); the review view reads the
  // round's generated paths (export/round_generated.h). nullopt: the whole diff, as always.
  std::optional<PartRequest> part;
  // The whole diff from the native engine only: its front is kept in this spool rather than in
  // ContextExport::derived.patch (export/patch_spool.h). The raw export sets it; the envelope,
  // which digests and encodes the patch, does not.
  PatchSpool* spool = nullptr;
};

struct ContextExport {
  store::RecordView record;    // the lineage's current record
  store::StateName state;      // the lineage's state (`consumed` for a burned one's round)
  std::string source;          // LoadedRecord::source
  bool fetched = false;        // LoadedRecord::fetched
  Standing standing;           // "unrelated", "none" / "candidate_burned" for a burned round
  int64_t round = 0;           // the exported round
  store::Snapshot snapshot;    // that round's snapshot
  std::string round_revision;  // --round: the revision of that round's record; else empty
  // The exported round's review-context binding (store/round_context.h): its context.json's
  // digest, or its context-unavailable reason; empty when none or not known. Not read by verify.
  std::string context_digest, context_unavailable;
  Derived derived;
};

Result<ContextExport> ExportContext(const ContextRequest& request);

// The JSON envelope (docs/format.md, "The context envelope"), compact, without a trailing
// newline.
std::string RenderEnvelope(const ContextExport& context);

// Sets the envelope members both export envelopes share, in this order: candidate_diff,
// changed_path_manifest, derivation, budget, and for a part (Derived::part) view, part, parts,
// part_max_bytes, part_paths and summarised_paths.
void RenderDerivedMembers(const Derived& derived, nlohmann::ordered_json* out);

struct LoadedRecord {
  store::RecordView record;
  // The remote the answer comes from: a fetched-only lineage's, or the remote an imported
  // lineage came from while no local mutation followed (store/provenance.h); empty otherwise.
  std::string source;
  bool fetched = false;  // read from the fetched history, not from the local store
};

// Loads and classifies a lineage record for read-only use (shared by export-context and verify).
// A lineage the local store does not know is read from its fetched history, verified whole; a
// terminal one answers `consumed` / `retired` with `source` in the details. A local record's
// `source` is its import provenance (store/provenance.h).
Result<LoadedRecord> LoadForRead(const store::git::Repository& repo, const std::string& lineage);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_CONTEXT_EXPORT_H_
