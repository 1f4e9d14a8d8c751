// ReviewShow: what `review show` shows of a lineage (docs/show.md). Read-only by construction, as
// every reader: the shared maintenance lock only, nothing written or created.
//
// The timeline comes from the lineage's history (store/history_ref.h), verified whole before
// anything is read from it (store/history_chain.h VerifyHistoryChain: each record's revision,
// rounds rising, trees present): the local history ref when there is one, else, for a lineage
// the local store does not know, the history fetched from a remote (store/fetched_lineage.h:
// one history, verified whole, or `ambiguous`; `source` names the remote). A local history that
// `review import` brought has the import's remote as `source` until a local mutation
// (store/provenance.h), as in status, list, verify and attest. Burned (`consumed`)
// and abandoned (`retired`) lineages show their terminal commit. A lineage the store holds without
// any history (a record written by the Go tool) shows its current round and an empty timeline; a
// lineage with neither answers as export-context does (not_found, consumed, retired, corrupted,
// ...). A history that does not verify is `corrupted`.
//
// One event per history commit, oldest first: its verb, time, revision, state and round (the
// record's generation). A verdict event also carries its verdict file (verdicts/<round>.md:
// verdict, actor, role, body) and the signature status of its commit: `unsigned` (no gpgsig
// header), `signed` (a signature, not checked: no allowed signers given), `verified` (an SSH
// signature an allowed signer accepts: export/approval_signature.h) or `untrusted` (with the
// reason).
//
// One entry per round: the newest record of that round in the history, its
// current snapshot, and the reviewer's view of the round derived exactly as export-context
// derives it, with the patch's sha256: for a round with no generated entry, the frozen diff
// (export/derivation.h DeriveContext: same engine, same checks, same bytes); for a round whose
// history marks generated entries (export/round_generated.h), `export-context --view review`'s
// bytes, those entries summarised and named in `summarised_paths` (DeriveContextPart, one part of
// at most the byte budget). A round over the byte budget keeps the `budget_exceeded` refusal
// instead of a diff (a review view above it: "export it in parts"); every other derivation
// failure (objects_missing, integrity_mismatch) fails the whole view. Only the
// rounds the request names are derived. Interdiffs (consecutive rounds' candidate trees) come from
// export/derivation.h DeriveInterdiff, as `export-context --since-round`.
#ifndef GENTLE_EXPORT_REVIEW_SHOW_H_
#define GENTLE_EXPORT_REVIEW_SHOW_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "export/derivation.h"
#include "store/history_verb.h"
#include "store/review_state.h"
#include "store/snapshot.h"
#include "store/status.h"
#include "store/verdict_name.h"

namespace gentle::exporter {

struct ShowEvent {
  std::string commit;           // the history commit, hex
  store::HistoryVerbWord verb;  // the commit's, as its subject writes it
  std::string at, revision;
  store::StateName state;
  int64_t round = 0;
  // A verdict or a co-approval: its verdict file and the signature status of its commit.
  // The verdict and role as the file writes them (a newer tool's word is shown as written).
  store::VerdictWord verdict;
  store::RoleWord role;
  std::string actor, body;
  std::string signature;  // unsigned | signed | verified | untrusted; empty unless a verdict
  std::string signer;     // verified: the principal; untrusted: the reason
  bool HasVerdict() const {
    return verb.Is(store::HistoryVerb::kVerdict) || verb.Is(store::HistoryVerb::kCoApprove);
  }
};

// A derived diff, or the budget refusal that stands in for it.
struct ShowDiff {
  bool derived = false;      // false: not asked for, or refused (refusal set)
  Derived diff;              // its patch and manifest emptied unless the request keeps them
  std::string patch_sha256;  // "sha256:<hex>" of the patch
  size_t byte_size = 0;      // of the patch
  size_t paths = 0;          // manifest entries
  Status refusal;            // budget_exceeded when the derivation refused
  // A round's reviewer's view: the generated entries shown as summaries (export/view_plan.h), in
  // patch order; empty when the round marked none (the diff is then the frozen diff).
  std::vector<std::string> summarised_paths;
};

struct ShowRound {
  int64_t round = 0;
  std::string revision;  // the newest record revision of the round
  store::Snapshot snapshot;
  ShowDiff diff;
};

struct ShowInterdiff {
  int64_t from = 0, to = 0;
  ShowDiff diff;
};

struct ShowView {
  std::string lineage, source, revision;  // revision: the history's tip
  store::StateName state;                 // the history's tip's
  std::vector<ShowEvent> events;          // oldest first
  std::vector<ShowRound> rounds;          // round 1 first
  std::vector<ShowInterdiff> interdiffs;  // (1,2), (2,3), ...
  int64_t selected_round = 0;             // the request's round, else the newest
};

struct ShowRequest {
  std::string cwd = ".";
  std::string lineage;
  std::optional<int64_t> round;  // the selected round; nullopt: the newest
  bool derive_all = false;       // derive every round's diff, not only the selected one's
  bool interdiffs = false;
  bool keep_patches = true;  // false: only each diff's digest, size and path count are kept
  // empty: signatures reported as signed / unsigned only; else a path or REF:PATH
  // (export/allowed_signers_source.h)
  std::string allowed_signers;
  size_t max_bytes = kMaxContextBytes;
};

// `usage` for a bad lineage id, a round < 1 or an allowed signers file that cannot be read;
// `not_found` (details: round) for a round the lineage's history does not hold.
Result<ShowView> ReadShowView(const ShowRequest& request);

// The round `round` of `view`, or null.
const ShowRound* FindShowRound(const ShowView& view, int64_t round);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_REVIEW_SHOW_H_
