// STATUS: a read-only view of the store (DESIGN.md section 6).
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
#ifndef GENTLE_TRANSACTION_STATUS_H_
#define GENTLE_TRANSACTION_STATUS_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/git/repository.h"
#include "store/record.h"
#include "store/status.h"

namespace gentle::transaction {

// The applicability vocabulary above, one enum with one name table (ApplicabilityName).
enum class Applicability { kCurrentTarget, kAmbiguous, kUnrelated, kCorrupted, kIncomplete };

// "current_target", "ambiguous", "unrelated", "corrupted", "incomplete".
std::string_view ApplicabilityName(Applicability applicability);

struct LineageStatus {
  std::string lineage;
  std::string state;  // empty when corrupted
  std::string kind;
  Applicability applicability = Applicability::kUnrelated;
  std::string revision;
  std::string target_identity;
  std::string live_target_identity;  // empty when it could not be computed
  std::string detail;                // why: unrelated, ambiguous, corrupted, incomplete
  std::string source;  // the remote of a fetched-only lineage; empty for the local store
};

// With `lineage`: that lineage only (not_found / consumed / retired / corrupted as errors; an
// incomplete entry is `corrupted`), loading only its own record and, to decide `ambiguous`, only
// records whose index row names the same target; consumed/retired are keyed index lookups. A
// lineage the local store does not know is read from its fetched history (store/
// fetched_lineage.h: verified whole, `source` set; a terminal one answers consumed / retired).
// Without: every live lineage directory (one without a readable record reports `corrupted`, one
// without a record `incomplete`); fetched histories are not listed (`list` shows them).
Result<std::vector<LineageStatus>> InspectStatus(const std::string& cwd,
                                                 const std::optional<std::string>& lineage);

// One record's applicability (current_target, ambiguous or unrelated) against the live target of
// `repo`'s worktree, exactly as `status --lineage` reports it. Read-only.
Result<std::string> ApplicabilityOf(const store::git::Repository& repo,
                                    const store::RecordView& record);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_STATUS_H_
