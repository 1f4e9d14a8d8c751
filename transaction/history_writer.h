// AppendHistory: the history step every mutation takes before its record is written
// (docs/format.md; docs/lifecycle.md, "History refs").
//
// Under the writer lock it first brings the lineage's history level with the files: a tip ahead
// of the record (an interrupted mutation) is rolled back; a record the history does not hold (no
// ref: a store of the Go gentle-ai; an old single-commit pin; a record another tool rewrote) gets
// a `sync` commit of the record as it is. Then it writes the mutation's commit with the tip as
// parent and moves the ref by compare-and-swap on that tip, durably, and passes the fault point
// `<verb>:history-prepared`. The mutation writes its record afterwards: until then the new tip is
// a prepared tip, which recovery rolls back if the record never follows.
//
// `spec.created_at` is filled from the history (the lineage's start time) when left empty.
//
// PrepareHistoryCommit writes the mutation's commit ahead, objects only (no ref moves, nothing
// else is touched), when the history is already level with the files: a signed approval is
// signed there, before its mutation opens the index, so a signing failure writes nothing.
// AppendHistory then moves the ref to that commit when the tip is still the one it was written
// on; otherwise (a history that was not level, or that recovery moved) it writes the commit
// again on the tip it finds.
#ifndef GENTLE_TRANSACTION_HISTORY_WRITER_H_
#define GENTLE_TRANSACTION_HISTORY_WRITER_H_

#include <optional>
#include <string>

#include "store/git/repository.h"
#include "store/history_ref.h"
#include "store/layout.h"
#include "store/status.h"

namespace gentle::transaction {

struct PreparedHistory {
  std::optional<std::string> from;  // the ref's target it was written on (nullopt: no ref)
  std::string id;
};

// nullopt when the history is not level with the files.
Result<std::optional<PreparedHistory>> PrepareHistoryCommit(const store::git::Repository& repo,
                                                            const store::StoreLayout& layout,
                                                            store::HistoryCommitSpec spec);

Status AppendHistory(const store::git::Repository& repo, const store::StoreLayout& layout,
                     store::HistoryCommitSpec spec,
                     const std::optional<PreparedHistory>& prepared = std::nullopt);

// The verdict file of a history commit: a front matter of JSON-quoted values, then the body.
std::string VerdictFile(store::Verdict verdict, const std::string& actor, store::ReviewerRole role,
                        const std::string& at, const std::string& from_state,
                        const std::string& to_state, const std::string& body_sha256,
                        const std::string& body);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_HISTORY_WRITER_H_
