// RoundContextBinding: how a review round is bound to its forge review context (docs/lifecycle.md,
// "Review context binding").
//
// `start` and `revise` take at most one of:
//   --context FILE               a ReviewContext (`gentle-ai.review-context/v1`, the output of
//                                `review context import`): its comment ids become the new round's
//                                snapshot `ledger_ids` (sorted by numeric value, each once), so
//                                they enter the target identity as in gentle-ai, and the file's
//                                exact bytes are kept in the round's history commit as
//                                `context.json` with the trailer `Context: sha256:<hex of those
//                                bytes>`;
//   --context-unavailable REASON the harness could not read the context: the round's history
//                                commit carries `Context-Unavailable: REASON`, and APPROVE in that
//                                round is refused with `context_unavailable` (exit 6).
// Without either, the round has no context (no ledger ids, no mark). The mark lives in the
// history, never in a record member, so the Go gentle-ai still reads the record. Only the
// members this binding needs are read from the file, by the format's one lenient reader
// (loop/context_ids.h: `schema`, `comments[].id`, `verdicts[].id`); the rest is kept as it is. A
// file that is not a regular file, is over 64 MiB, is not strict JSON, has another schema or an
// id that is not a decimal string is `usage` naming the file and the JSON path.
#ifndef GENTLE_TRANSACTION_ROUND_CONTEXT_BINDING_H_
#define GENTLE_TRANSACTION_ROUND_CONTEXT_BINDING_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "store/git/repository.h"
#include "store/history_ref.h"
#include "store/record.h"
#include "store/status.h"

namespace gentle::transaction {

inline constexpr size_t kMaxContextFileBytes = store::kMaxHistoryContextBytes;

struct ContextFlags {
  std::optional<std::string> context_file;
  // The file's bytes when the caller has read (and checked) them already: the command line reads
  // a context once, through forge/review_context's strict reader, and hands the bytes on.
  std::optional<std::string> context_bytes;
  std::optional<std::string> unavailable_reason;
};

struct RoundContextBinding {
  std::string context_bytes;  // empty without --context
  std::string context_digest;
  std::vector<std::string> ledger_ids;
  std::string unavailable_reason;  // empty without --context-unavailable
};

// Checks the flags (both given, a blank or multi-line reason: `usage`) and reads the file.
Result<RoundContextBinding> ReadContextBinding(const ContextFlags& flags);

// Adds the binding's context.json and trailers to the round's history commit.
void AddToHistoryCommit(const RoundContextBinding& binding, store::HistoryCommitSpec* commit);

// For an idempotent START that answers with an existing lineage: `conflict` when the lineage's
// current round is bound differently (another context digest, or the context-unavailable mark
// given or not), so a harness never believes a round carries a binding it does not. A round whose
// binding the history does not know (opened by another tool) counts as unbound.
Status CheckSameBinding(const store::git::Repository& repo, const store::RecordView& record,
                        const RoundContextBinding& wanted);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_ROUND_CONTEXT_BINDING_H_
