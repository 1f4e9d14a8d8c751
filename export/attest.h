// Attest: `review attest`, an in-toto Statement v1 for an approval (docs/format.md;
// docs/attestation.md). Read-only by construction, as export-context: the shared maintenance lock
// only, nothing written or created.
//
// The lineage must hold an approval: a live `approved` record, or one burned since, whose record
// the history's burn commit keeps (export/burned_approval.h; `consumed: true`). Any other state is
// `wrong_state`; an unknown lineage `not_found`; abandoned `retired`; a burn without a history
// holding the approval `consumed`. The patch is re-derived (the objects, paths and paths digest
// must bind, as for verify), and its sha256 is the predicate's `patch_sha256`.
//
// Who approved comes from the history: the newest commit of the first-parent chain from the tip
// that is a `verdict` commit to state `approved` with the record's revision, and its
// `verdicts/<round>.md` front matter (verdict, actor, role). The walk passes only commits of
// the same revision (a burn, a sync of that record). A record approved without such a history (by
// the Go gentle-ai) has `actor`, `role` and `history_commit` null. The predicate says where the
// history came from (`source`) and whether its approval commit is signed (`signed`): an unsigned
// or fetched history proves which tree was approved in it, not who approved it. With an allowed
// signers file, `approvals` names each approval that counts (its principal, key fingerprint,
// commit, kind, actor and role): only those are vouched for by a signature.
#ifndef GENTLE_EXPORT_ATTEST_H_
#define GENTLE_EXPORT_ATTEST_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "export/approval_policy.h"
#include "export/engine.h"
#include "store/status.h"
#include "store/verdict_name.h"

namespace gentle::exporter {

inline constexpr std::string_view kStatementType = "https://in-toto.io/Statement/v1";
inline constexpr std::string_view kApprovalPredicateType =
    "https://gentle-ai.dev/review-approval/v1";

struct Attestation {
  std::string lineage;
  std::string revision;
  store::Verdict verdict = store::Verdict::kApprove;  // an attestation is an approval's
  std::optional<std::string> actor, history_commit;
  std::optional<store::RoleWord> role;  // as the approval's verdict file names it
  std::string base_tree, candidate_tree, paths_digest;
  std::string patch_sha256;  // "sha256:<hex>"
  Engine engine = Engine::kNative;
  bool consumed = false;
  // The remote the approval's history came from: a fetched-only lineage's, or an imported one's
  // while no local mutation followed (store/provenance.h); empty: made in this store.
  std::string source;
  // Whether the approval's history commit carries a signature (gpgsig). Not checked against any
  // signer here: `verify --require-signature` does that.
  bool is_signed = false;
  // With an approval policy (attest --allowed-signers FILE [--base-ref REF]): the approvals of the
  // round that count (export/approval_policy.h), in history order; nullopt without one (the
  // Statement then has no `approvals` member, as before there were policies).
  std::optional<std::vector<JudgedApproval>> approvals;
};

// `policy`: its min_approvals and require_signature are not applied (verify is the gate); the
// approvals that count are named.
Result<Attestation> Attest(const std::string& cwd, const std::string& lineage,
                           const std::optional<ApprovalPolicy>& policy = {});

// The Statement: compact JSON as Go's json.Marshal writes it, members in the order
// docs/attestation.md lists, with a trailing newline.
std::string RenderStatement(const Attestation& attestation);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_ATTEST_H_
