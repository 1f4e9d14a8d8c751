// CO-APPROVAL: a further `verdict APPROVE` of an approved round (docs/lifecycle.md,
// "review verdict"; docs/format.md, "Co-approvals").
//
// The record and its state do not change, so the Go gentle-ai reads the lineage as before: the
// approval goes to the history alone, as a `co-approve` commit holding the parent's record and
// trees and its own `co-approval.md` (the verdict file: APPROVE, actor, role, time, from and to
// state `approved`, body digest, body), signed when asked (transaction/approval_signer.h).
//
// An actor who already approved the round (its approving verdict or a co-approval; actors
// compared exactly, after trimming) is answered as a repeat with nothing written, unless this
// approval is signed and none of theirs is: a signature may be added, never taken away. The
// commit is written by AppendHistory (transaction/history_writer.h), which first levels the
// history with the record file; a signed one is written and signed before the index is opened,
// so a signing failure changes nothing. Fault point: co-approve:history-prepared. No index row
// changes: the record is the same file.
#ifndef GENTLE_TRANSACTION_CO_APPROVAL_H_
#define GENTLE_TRANSACTION_CO_APPROVAL_H_

#include <optional>
#include <string>

#include "store/record.h"
#include "store/status.h"
#include "transaction/approval_signer.h"
#include "transaction/mutation.h"
#include "transaction/verdict.h"

namespace gentle::transaction {

// `record`: the approved record LoadForMutation read under the writer lock of `scope`; `actor`:
// the trimmed actor (given, or the signer's principal).
Result<VerdictResult> CoApprove(MutationScope* scope, const store::RecordView& record,
                                const VerdictRequest& request, const std::string& actor,
                                const std::optional<ApprovalSigner>& signer);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_CO_APPROVAL_H_
