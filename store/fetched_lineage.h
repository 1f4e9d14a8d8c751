// Fetched lineages (docs/format.md): how the read verbs answer for a lineage that exists only
// as a history fetched from a remote (refs/gentle-ai/remotes/<remote>/reviews/<lineage>), never
// written to the local store. Read-only.
//
// ReadFetchedLineage: the lineage's fetched histories, one per remote. None: nullopt. Two remotes
// whose tips differ: `ambiguous` (details: each remote's name -> its tip, as import reports
// them); the same tip
// from several remotes is one history (the first remote by name answers). The history is then
// verified whole (VerifyHistoryChain): a forged or damaged one is `corrupted`, with `source` in the
// details. Callers ask only after the local store said `not_found` for the lineage (no record, no
// tombstone, no audit record, no incomplete entry): a local lineage always wins.
//
// TerminalAnswer: the answer a terminal fetched history gives a reader, as the local store answers
// for a burned (`consumed`) or abandoned (`retired`) lineage; Ok for a history that is not
// terminal. Its details: `source` (the remote) and `tip` (store/provenance.h WithSource).
//
// FromFetchedHistory: whether a terminal answer is TerminalAnswer's, read from a fetched history,
// rather than the local store's: it names a `source` and no local evidence (`tombstone`,
// `audit_record`). The answer about an imported lineage names both (store/history_evidence.h
// AnswerRecordless).
#ifndef GENTLE_STORE_FETCHED_LINEAGE_H_
#define GENTLE_STORE_FETCHED_LINEAGE_H_

#include <optional>
#include <string>

#include "store/git/repository.h"
#include "store/history_chain.h"
#include "store/layout.h"
#include "store/status.h"

namespace gentle::store {

struct FetchedLineage {
  std::string remote;  // the `source` the read verbs report
  VerifiedChain chain;
};

Result<std::optional<FetchedLineage>> ReadFetchedLineage(const git::Repository& repo,
                                                         const std::string& lineage);

Status TerminalAnswer(const FetchedLineage& fetched, const std::string& lineage);

bool FromFetchedHistory(const Status& terminal);

// Whether the local store knows `lineage` at all: a record or anything else under v2/<lineage>,
// an effective tombstone, or an audit record (ClassifyAbsent). Keyed lookups.
Result<bool> KnownLocally(const StoreLayout& layout, const std::string& lineage);

}  // namespace gentle::store

#endif  // GENTLE_STORE_FETCHED_LINEAGE_H_
