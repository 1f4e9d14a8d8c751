// History refs (docs/format.md): refs/gentle-ai/reviews/<lineage> points at the lineage's
// history, one commit per successful mutation, each with the previous as its parent.
//
// A commit's tree: `base` and `candidate` (the snapshot trees of that revision),
// `review-state.json` (the record file of that revision, byte for byte), `verdicts/<round>.md`
// (the verdict bodies; carried forward from the parent, a new verdict of the same round
// replaces the file, the parent keeps the old one), on a co-approval commit `co-approval.md` (its
// own APPROVE, in the verdict file's format; never carried to a child), and on a terminal commit
// `tombstone.json` (burn) or `reclaim-record.json` (abandon). Message: "<verb> <lineage>", a blank
// line, then trailers `Lineage:`, `Revision:`, `State:`, `At:` (the mutation's RFC 3339 time),
// `Created-At:` (the lineage's start time, carried by every commit) and the verb's own.
//
// Commits are deterministic: author and committer `gentle-ai <gentle-ai@invalid>`, time = the
// seconds of `At` in UTC, so the same mutation gives the same commit id anywhere. The commit's new
// objects are written in one durable batch (store/git/loose_batch.h: one sync, each object durable
// before it is visible) before the ref moves, and the ref with libgit2's fsync on, so a ref that
// moved is durable and names durable objects.
//
// A history tree (the commit's own and its verdicts/) must be in git's canonical order with no
// name twice (git fsck's duplicateEntries, treeNotSorted): git and a linear scan would read
// different entries of it, so every read refuses it as `corrupted`.
//
// A tree without `review-state.json` is an old single-commit pin (time 0, message "gentle-ai
// review pin"); ReadHistoryCommit reports it as `legacy_pin`.
//
// A spec with `sign` set (an approval signed as `git commit -S` signs, docs/format.md) gets
// the commit above with a `gpgsig` header holding what `sign` returns for the unsigned commit's
// bytes (git_commit_create_with_signature); the bytes are signed before any object is written, so
// when `sign` fails nothing is written and its Status is returned. The ref moves by
// compare-and-swap on the tip the writer read (`conflict` when it moved; `busy` when its lock is
// taken).
#ifndef GENTLE_STORE_HISTORY_REF_H_
#define GENTLE_STORE_HISTORY_REF_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "store/git/repository.h"
#include "store/history_verb.h"
#include "store/status.h"
#include "store/verdict_name.h"

namespace gentle::store {

inline constexpr std::string_view kHistoryRecordName = "review-state.json";
inline constexpr std::string_view kHistoryTombstoneName = "tombstone.json";
inline constexpr std::string_view kHistoryAuditName = "reclaim-record.json";
inline constexpr std::string_view kHistoryContextName = "context.json";
// The round's generated entries (store/generated_paths.h): in a start or revise commit only, and
// only when the round has one.
inline constexpr std::string_view kHistoryGeneratedName = "generated-paths";
// The round's reviewer budget (store/round_budget.h): in a start or revise commit only, and only
// when the round's budget is not the default.
inline constexpr std::string_view kHistoryBudgetName = "max-bytes";
// A co-approval commit's own verdict file (docs/format.md, "Co-approvals"): never carried forward.
inline constexpr std::string_view kHistoryCoApprovalName = "co-approval.md";

// Size limits of a history's objects (docs/reliability.md, "Bounded reads of histories"). A
// history may come from a remote, so every object read from one is refused as `corrupted` from
// its header, before it is inflated, when it is larger than its limit (details: object, size,
// limit):
//   - the commit object (message, trailers, signature) and the trees (the commit's tree and its
//     verdicts/): kMaxHistoryObjectBytes;
//   - review-state.json: kMaxRecordBytes (store/record.h), as the record file;
//   - verdicts/<round>.md and co-approval.md: kMaxHistoryVerdictBytes (a body of at most
//     1 MiB, the --body-file limit, plus the front matter);
//   - context.json: kMaxHistoryContextBytes (the --context file limit);
//   - generated-paths: kMaxRecordBytes (it lists some of the paths a record lists);
//   - max-bytes: kMaxHistoryBudgetBytes (a decimal number and a newline);
//   - tombstone.json: kMaxTombstoneBytes, reclaim-record.json: kMaxAuditBytes, as their files.
inline constexpr uint64_t kMaxHistoryObjectBytes = 1u << 20;
inline constexpr uint64_t kMaxHistoryVerdictBytes = 4u << 20;
inline constexpr uint64_t kMaxHistoryContextBytes = 64u << 20;
inline constexpr uint64_t kMaxHistoryBudgetBytes = 32;

// The limit of the history file `name` ("review-state.json", "verdicts/3.md", ...):
// kMaxHistoryObjectBytes for a name not listed above.
uint64_t HistoryFileLimit(std::string_view name);

struct HistoryCommitSpec {
  HistoryVerb verb = HistoryVerb::kStart;  // the subject's first word
  std::string lineage;
  std::string record_file;  // the record bytes of this revision
  std::string revision;
  StateName state;  // the state after the mutation (consumed / retired for terminal verbs)
  std::string base_tree;
  std::string candidate_tree;
  std::string at;          // RFC 3339
  std::string created_at;  // RFC 3339 or empty
  // Top-level files beside review-state.json (tombstone.json, reclaim-record.json) and
  // "verdicts/<round>.md".
  std::vector<std::pair<std::string, std::string>> files;
  std::vector<std::pair<std::string, std::string>> trailers;  // after the common ones
  // Signs the unsigned commit's bytes: the armored signature for its gpgsig header.
  std::function<Result<std::string>(const std::string& commit)> sign;
};

struct HistoryCommit {
  std::string id;                        // hex
  std::optional<std::string> parent;     // hex of the first parent
  size_t parent_count = 0;               // a history commit has at most one
  std::string subject;                   // the message's first line
  std::string lineage;                   // the Lineage trailer ("" when absent)
  HistoryVerbWord verb;                  // first word of the subject; "pin" for a legacy pin
  bool legacy_pin = false;               // no review-state.json in the tree
  std::string record_blob;               // review-state.json's blob id (hex)
  std::string record_file;               // its bytes (unless read without them)
  std::string revision, at, created_at;  // trailers ("" when absent)
  StateName state;                       // the State trailer, as written
  // start and revise: the round the commit opens (Round trailer; a start opens round 1) and how
  // its review context was bound (transaction/round_context_binding.h): Context (the digest of
  // the commit's context.json) and Context-Unavailable (the harness's reason). "" when absent.
  std::string round, context_digest, context_unavailable;
  VerdictWord verdict;  // a verdict commit's Verdict trailer, as written (empty when absent)
  std::string base_tree, candidate_tree;
  bool terminal() const { return IsTerminalVerb(verb); }
};

std::string HistoryRefName(const std::string& lineage);

// The id the ref points at (the commit unread), or nullopt when there is no ref.
Result<std::optional<std::string>> LocalHistoryTip(const git::Repository& repo,
                                                   const std::string& lineage);
// The commit the ref points at, or nullopt when there is no ref.
Result<std::optional<HistoryCommit>> ReadHistoryTip(const git::Repository& repo,
                                                    const std::string& lineage);
// Whether ReadHistoryCommit reads review-state.json's bytes (record_file) or only names its blob
// (record_blob): a walk that needs only the chain, or that already holds a record of the same
// blob, skips them.
enum class RecordBytes { kRead, kSkip };

// The commit `id`, every object refused over its limit (above) from its header.
Result<HistoryCommit> ReadHistoryCommit(const git::Repository& repo, const std::string& id,
                                        RecordBytes record = RecordBytes::kRead);
// The size of review-state.json's blob of `commit` (read with either RecordBytes), from its
// header alone; `corrupted` over kMaxRecordBytes, as ReadHistoryRecord would refuse it.
Result<uint64_t> HistoryRecordSize(const git::Repository& repo, const HistoryCommit& commit);
// review-state.json's bytes of `commit` (read with RecordBytes::kSkip), refused over
// kMaxRecordBytes from its header.
Result<std::string> ReadHistoryRecord(const git::Repository& repo, const HistoryCommit& commit);
// The file `name` ("verdicts/1.md", "tombstone.json", ...) of commit `id`; nullopt when absent;
// `corrupted` over HistoryFileLimit(name).
Result<std::optional<std::string>> ReadHistoryFile(const git::Repository& repo,
                                                   const std::string& id, const std::string& name);

// The blobs of commit `id`'s verdicts/ directory: (file name, blob id hex), in tree order.
Result<std::vector<std::pair<std::string, std::string>>> ReadHistoryVerdicts(
    const git::Repository& repo, const std::string& id);

// The two writers below are defined in the store's write target (store/history_ref_write.cc).

// Writes the commit's objects (verdicts/ carried from `parent`) and returns its id. The ref is
// not moved.
Result<std::string> WriteHistoryCommit(const git::Repository& repo, const HistoryCommitSpec& spec,
                                       const std::optional<std::string>& parent);

// Moves the ref to `to` if it still points at `from` (nullopt: only if there is no ref).
// `to` nullopt deletes the ref (only if it still points at `from`).
Status MoveHistoryRef(const git::Repository& repo, const std::string& lineage,
                      const std::optional<std::string>& from, const std::optional<std::string>& to);

}  // namespace gentle::store

#endif  // GENTLE_STORE_HISTORY_REF_H_
