// PolicySkip: why the approval policy (export/approval_policy.h) does not count an approval whose
// signature verified, one enum with one name table (header-only): `actor_mismatch` (the signer's
// principal is not the recorded actor), `self_approval` (the signer's person authored, committed
// or signed a commit of the change), `duplicate_principal` (an earlier approval of that principal
// counted) or `same_person` (an earlier approval by another principal of the same person counted:
// export/signer_persons.h). verify
// prints the name (an approval's `reason`; an `untrusted` refusal's `details.skipped` or
// `details.reason`); code compares the enum, never the text. A refused signature's reason is
// export/approval_signature.h's text, not one of these.
#ifndef GENTLE_EXPORT_POLICY_SKIP_H_
#define GENTLE_EXPORT_POLICY_SKIP_H_

#include <optional>
#include <string_view>

#include "store/name_table.h"

namespace gentle::exporter {

enum class PolicySkip { kActorMismatch, kSelfApproval, kDuplicatePrincipal, kSamePerson };

inline constexpr store::NameTable kPolicySkipNames = store::MakeNameTable<PolicySkip>({
    {PolicySkip::kActorMismatch, "actor_mismatch"},
    {PolicySkip::kSelfApproval, "self_approval"},
    {PolicySkip::kDuplicatePrincipal, "duplicate_principal"},
    {PolicySkip::kSamePerson, "same_person"},
});
inline constexpr const auto& kAllPolicySkips = kPolicySkipNames.values;

constexpr std::string_view PolicySkipName(PolicySkip value) { return kPolicySkipNames.Name(value); }

// nullopt for any other text (case matters).
constexpr std::optional<PolicySkip> ParsePolicySkip(std::string_view name) {
  return kPolicySkipNames.Parse(name);
}

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_POLICY_SKIP_H_
