// Fetched histories and whole-chain verification (docs/format.md).
//
// `review fetch` brings a remote's history refs to
// refs/gentle-ai/remotes/<remote>/reviews/<lineage>, never over the local refs/gentle-ai/reviews/*.
// A fetched history is untrusted input: before any verb reads it, VerifyHistoryChain walks it from
// the tip to its root and checks every commit:
//   - at most one parent; the subject is "<verb> <lineage>" with a verb this store writes, and the
//     Lineage trailer names the lineage;
//   - review-state.json parses as a record of that lineage and its revision verifies from its bytes
//     (the snapshot identities bind their fields), and the Revision trailer is that revision;
//   - the State trailer is the record's state (`consumed` on a burn, `retired` on an abandon);
//   - the `base` and `candidate` entries are the record's current snapshot trees, and both trees
//     are in the object database;
//   - rounds never fall from the root to the tip; only the tip may be terminal; a burn holds
//     an approved record and tombstone.json, an abandon holds reclaim-record.json;
//   - every commit above the local history's tip is a transition the verbs could make from its
//     parent (store/history_replay.h), so a history cannot launder a state nobody reached.
// Any failure is `corrupted`, with the commit in details. Nothing is written.
#ifndef GENTLE_STORE_HISTORY_CHAIN_H_
#define GENTLE_STORE_HISTORY_CHAIN_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/git/repository.h"
#include "store/history_ref.h"
#include "store/progress.h"
#include "store/record.h"
#include "store/status.h"

namespace gentle::store {

// The bounds of one verification (docs/reliability.md, "Bounded reads of histories"). Before any
// record is read, the history is measured from its commit objects, trees and the record blobs'
// headers; each bound is a `corrupted` refusal naming the limit (details.limit):
//   - a history longer than kMaxHistoryCommits commits (a lineage makes one commit per mutation;
//     a review loop of hundreds of rounds stays far below);
//   - records that add up to more than kMaxHistoryRecordBytes (a record a commit shares with its
//     successor counted once), so that a maximal history verifies in bounded time;
//   - every object over its own limit (store/history_ref.h), refused from its header.
// The walk that verifies then holds one commit and its successor's record at a time: memory does
// not grow with the history.
inline constexpr size_t kMaxHistoryCommits = 4096;
inline constexpr uint64_t kMaxHistoryRecordBytes = 64u << 20;

// refs/gentle-ai/remotes/<remote>/reviews/<lineage>
std::string FetchedHistoryRefName(const std::string& remote, const std::string& lineage);

// `usage` unless `remote` is usable as one ref component: 1 to 100 characters of [A-Za-z0-9._-],
// not starting with '-' or '.', not ending with '.' or ".lock", no "..".
Status ValidateRemoteName(const std::string& remote);

struct FetchedHistory {
  std::string remote;
  std::string lineage;
  std::string tip;  // commit id, hex
};

// Every refs/gentle-ai/remotes/<remote>/reviews/<lineage> ref (only `lineage`'s when given),
// sorted by lineage then remote. Refs whose remote or lineage part is not valid are skipped: this
// store's fetch never makes them.
Result<std::vector<FetchedHistory>> ListFetchedHistories(const git::Repository& repo,
                                                         const std::optional<std::string>& lineage);

struct VerifiedChain {
  // Tip first, root last. Only the tip keeps its record's bytes (record_file); the other commits
  // carry record_blob, their records verified and dropped.
  std::vector<HistoryCommit> commits;
  RecordView record;         // the tip's record (a burn: the approved record it spent)
  HistoryVerbWord terminal;  // burn or abandon; empty when the tip is not terminal
  // The local history's tip when the chain was verified (nullopt: no local history): the replay
  // judged every commit above it.
  std::optional<std::string> local_tip;
  const HistoryCommit& tip() const { return commits.front(); }
};

// `progress` (may be null) is told the commits verified, from 0 (the total is not known before the
// walk ends).
Result<VerifiedChain> VerifyHistoryChain(const git::Repository& repo, const std::string& lineage,
                                         const std::string& tip, Progress* progress = nullptr);

}  // namespace gentle::store

#endif  // GENTLE_STORE_HISTORY_CHAIN_H_
