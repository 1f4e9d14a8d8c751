// IMPORT: bring a fetched lineage into the local store (docs/format.md).
//
// `review import --lineage L [--remote R]` reads refs/gentle-ai/remotes/<R>/reviews/<L> (without
// --remote: the one remote that has it; several remotes with different tips are `ambiguous`),
// verifies the whole chain (store/history_chain.h; a forged or damaged history is `corrupted` and
// nothing is written) and moves the local history forward to it, fast-forward only:
//   - no local history and no local entry, or the local tip is an ancestor of the fetched tip:
//     imported;
//   - the local tip is the fetched tip, or descends from it: nothing to do (`up_to_date`);
//   - otherwise the histories diverged: `conflict` with both tips in details (local_tip,
//     fetched_tip), and nothing is written.
// Every commit the import brings (above the local tip) must be a transition the verbs could make
// (store/history_replay.h); the chain is verified again under the lock when the local tip moved
// since it was first verified. A fetched history ending in a burn or abandon, for a lineage with a
// live record here, is `conflict` (details: local_tip, fetched_tip, terminal) unless
// `accept_terminal`: a remote may not end a local review without the importer's consent.
// The import records its remote and the fetched tip (store/provenance.h) before the local ref
// moves, so the lineage reads with `source` that remote until a local mutation.
// The local files then say what the fetched tip says: a live tip writes its record (byte for byte
// the history's review-state.json); a burn tip writes this repository's tombstone for the approved
// target and removes any local record; an abandon tip writes the history's audit record into a
// fresh quarantine entry (its residue: the abandoned record) and removes any local record.
//
// Under the writer lock (the maintenance lock for a terminal tip, as burn and abandon take), each
// step durable: prepared index rows -> the files -> fault point import:files-written -> the local
// ref moved by compare-and-swap -> fault point import:ref-moved -> rows committed. A crash before
// the ref moved leaves files ahead of the history: the next writer moves the ref forward to the
// fetched tip that holds the record (store/history_sync.h, SyncHistory), and running import again
// finishes the job; nothing is lost either way, as the fetched ref still holds the history.
#ifndef GENTLE_TRANSACTION_IMPORT_H_
#define GENTLE_TRANSACTION_IMPORT_H_

#include <optional>
#include <string>

#include "store/progress.h"
#include "store/review_state.h"
#include "store/status.h"
#include "transaction/import_outcome.h"

namespace gentle::transaction {

struct ImportRequest {
  std::string cwd = ".";
  std::string lineage;
  std::optional<std::string> remote;
  // --accept-terminal: a burn or abandon from the remote may end a lineage that is live here.
  bool accept_terminal = false;
  store::Progress* progress = nullptr;  // told the fetched history's commits verified; may be null
};

struct ImportResult {
  std::string lineage;
  std::string remote;
  ImportOutcome outcome = ImportOutcome::kImported;
  std::string fetched_tip;
  std::string local_tip_before;  // empty when there was no local history
  store::StateName state;        // the fetched tip's record state; consumed / retired if terminal
  std::string revision;
  size_t commits = 0;  // commits the local history gained
};

Result<ImportResult> Import(const ImportRequest& request);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_IMPORT_H_
