// Verify: the CI check of docs/ci.md. Read-only.
//
// VerifyLineage: the record verifies (classification as export-context, a lineage known only from
// a fetched history included: its whole chain verifies first), its objects are present,
// the trees reproduce its paths and paths_digest, and the whole patch derives within
// kMaxBoundDiffBytes (export/derivation.h: a generated entry may take it past the export budget).
// With `against`: the tree of that revision must equal the current snapshot's candidate tree, or,
// with a `rebase_base_ref`, its change must be the approved patch moved to another base
// (export/trivial_rebase.h); `not_reviewed` otherwise, always for a burned approval (`consumed`:
// a spent approval holds for its exact tree only). The lineage must be `approved` (`wrong_state`
// otherwise).
//
// With an approval policy (export/approval_policy.h) the approvals of the round are judged in the
// history that answered, last: who signed each, whether that is its actor, thresholds and
// self-approval.
//
// VerifyEnvelope: works in a fresh clone with no store. Everything the clone's objects can
// re-derive is re-derived and compared, and any difference is `integrity_mismatch`: the
// candidate_diff must be canonical padded base64 whose decoded length is byte_size (at most
// 4 MiB) and whose sha256 matches; the revision must be "sha256:" and 64 lowercase hex digits; the
// snapshot's identity must bind its fields; derivation.git_flags must be the pinned flags and
// derivation.engine one of the engines; budget must be {max_bytes: 4194304, used_bytes:
// byte_size}; the trees in this clone must reproduce the paths_digest, and the patch and the
// changed-path manifest re-derived from them must equal the envelope's, entry for entry. With
// `against`, the tree of that revision must equal the candidate tree (`not_reviewed` otherwise).
// Then an envelope of an earlier round (export-context --round N: its round_revision is not its
// revision) is `wrong_state`, and the envelope's state must be `approved` (`wrong_state`
// otherwise). Envelopes without `round` (written before rounds) read as before; an interdiff
// envelope (the foreign schema the reader names) is refused with `usage`, not as a mismatch, and
// so is a part envelope (export-context --view/--max-bytes; details.reason part_envelope).
// What no object can prove is self-asserted by whoever wrote the envelope and is reported as
// such (EnvelopeSelfAsserted): the lineage, revision and state (who approved, and whether
// anyone did), the applicability and next action, the snapshot's kind, projection, ledger ids,
// intended untracked paths and unborn_head, and derivation.engine and tool_version. Only a signed
// history (docs/format.md) can back them.
#ifndef GENTLE_EXPORT_VERIFY_H_
#define GENTLE_EXPORT_VERIFY_H_

#include <optional>
#include <string>
#include <vector>

#include "export/approval_policy.h"
#include "export/engine.h"
#include "export/trivial_rebase.h"
#include "store/review_state.h"
#include "store/status.h"

namespace gentle::exporter {

// The envelope members verify --envelope reports as self-asserted, in this order.
const std::vector<std::string>& EnvelopeSelfAsserted();

// The envelope members verify --envelope re-derives from the clone's objects, in this order.
const std::vector<std::string>& EnvelopeChecked();

struct VerifyResult {
  std::string lineage;
  store::StateName state;  // the record's (lineage mode) or the envelope's claim (envelope mode)
  std::string candidate_tree;
  std::string against_tree;  // empty without --against
  // With --against: how its tree matched; with a trivial rebase, the change it was judged by.
  Match match = Match::kNone;
  std::optional<RebasedChange> rebase;
  size_t byte_size = 0;
  std::string sha256;
  Engine engine = Engine::kNative;  // the engine that re-derived the patch
  // Lineage mode with --against: the approval was burned after it was given (docs/ci.md); the
  // record is the one the history's terminal burn commit holds.
  bool consumed = false;
  // Lineage mode: the remote whose fetched history answered, or the remote an imported lineage
  // came from while no local mutation followed (store/provenance.h); empty otherwise.
  std::string source;
  // With --require-signature: the approving verdict's signed history commit and its signer.
  std::string approval_commit;
  std::string signer;
  std::string signer_key;
  // With an approval policy (export/approval_policy.h): every approval of the round, judged.
  std::optional<ApprovalTally> tally;
  // Envelope mode: the members the envelope carries that no object proves (EnvelopeSelfAsserted,
  // plus "round" and "round_revision" after "revision" when the envelope has them).
  std::vector<std::string> self_asserted;
};

// `rebase_base_ref` (verify --allow-trivial-rebase --base-ref REF, both modes): when the tree of
// `against` is not the candidate tree, the check passes if the change of `against` is the approved
// patch moved to another base (export/trivial_rebase.h); `not_reviewed` otherwise.
//
// `policy` (verify --allowed-signers FILE with --require-signature, --min-approvals N,
// --base-ref REF): the lineage must hold an approval (`wrong_state` otherwise; a burned one
// counts, as with `against`) whose approvals meet the policy (export/approval_policy.h;
// `untrusted` otherwise), judged in the history that answered. Checked after everything else.
Result<VerifyResult> VerifyLineage(const std::string& cwd, const std::string& lineage,
                                   const std::optional<std::string>& against,
                                   const std::optional<ApprovalPolicy>& policy = {},
                                   const std::optional<std::string>& rebase_base_ref = {});

// `envelope_json` is the file's content.
Result<VerifyResult> VerifyEnvelope(const std::string& cwd, const std::string& envelope_json,
                                    const std::optional<std::string>& against,
                                    const std::optional<std::string>& rebase_base_ref = {});

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_VERIFY_H_
