// STATUS and LIST: read-only views of the store (DESIGN.md section 6).
//
// Status reports each lineage's state and its applicability to the live target of the worktree the
// command runs in: the live target is recomputed with the lineage's own selector by hashing in
// memory (nothing is written: not the object database, the index or the store).
//   current_target  the live target is the lineage's current snapshot, and only that lineage claims
//                   it here
//   ambiguous       more than one live lineage claims the live target here
//   unrelated       the live target differs (or cannot be computed here), or the lineage was
//                   captured in another worktree of the clone
//   corrupted       the record cannot be read or does not verify
//   incomplete      a lineage directory without a record (an interrupted operation)
// Claims are worktree-aware: a lineage claims the live target only in the worktree it was started
// in (its record's initial_atomic_start.worktree_identity is this worktree's identity). A record
// that names no worktree cannot be proven foreign and claims the live target wherever it matches.
#ifndef GENTLE_TRANSACTION_INSPECT_H_
#define GENTLE_TRANSACTION_INSPECT_H_

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "store/git/repository.h"
#include "store/record.h"
#include "store/status.h"

namespace gentle::transaction {

struct LineageStatus {
  std::string lineage;
  std::string state;  // empty when corrupted
  std::string kind;
  std::string applicability;
  std::string revision;
  std::string target_identity;
  std::string live_target_identity;  // empty when it could not be computed
  std::string detail;                // why: unrelated, ambiguous, corrupted, incomplete
};

// With `lineage`: that lineage only (not_found / consumed / retired / corrupted as errors; an
// incomplete entry is `corrupted`), loading only its own record and, to decide `ambiguous`, only
// records whose index row names the same target; consumed/retired are keyed index lookups.
// Without: every live lineage directory (one without a readable record reports `corrupted`, one
// without a record `incomplete`).
Result<std::vector<LineageStatus>> InspectStatus(const std::string& cwd,
                                                 const std::optional<std::string>& lineage);

// One record's applicability (current_target, ambiguous or unrelated) against the live target of
// `repo`'s worktree, exactly as `status --lineage` reports it. Read-only.
Result<std::string> ApplicabilityOf(const store::git::Repository& repo,
                                    const store::RecordView& record);

struct LineageSummary {
  std::string lineage;
  std::string state;  // the record's state, or "incomplete" / "consumed" / "retired"
  std::string kind;   // empty for incomplete, consumed and retired
  std::string created_at;
  size_t path_count = 0;
  std::string revision;  // empty for incomplete, consumed and retired
  std::string evidence;  // consumed: the tombstone file; retired: the audit record
};

// Every lineage the store knows: live ones (by creation time), then incomplete entries (a lineage
// directory without a record, by id), then consumed, then retired (the newest audit record of
// each). A lineage is listed once: an incomplete entry whose lineage has an effective tombstone or
// audit record is listed consumed or retired. From the index, plus one scan of v2/ for incomplete
// entries (they have no committed row); without an index (a fresh or Go-written store), from the
// files, with the same answer. Unreadable records are not lineages here; `review fsck` reports
// them. Streamed to `visit`: with an index, memory does not grow with the number of lineages
// (duplicates are found by keyed lookups on a second read-only connection).
Status VisitLineages(const std::string& cwd,
                     const std::function<void(const LineageSummary&)>& visit);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_INSPECT_H_
