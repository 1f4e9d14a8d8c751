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

namespace gentle::exporter {

enum class PolicySkip { kActorMismatch, kSelfApproval, kDuplicatePrincipal, kSamePerson };

inline constexpr PolicySkip kAllPolicySkips[] = {
    PolicySkip::kActorMismatch, PolicySkip::kSelfApproval, PolicySkip::kDuplicatePrincipal,
    PolicySkip::kSamePerson};

constexpr std::string_view PolicySkipName(PolicySkip skip) {
  switch (skip) {
    case PolicySkip::kActorMismatch:
      return "actor_mismatch";
    case PolicySkip::kSelfApproval:
      return "self_approval";
    case PolicySkip::kDuplicatePrincipal:
      return "duplicate_principal";
    case PolicySkip::kSamePerson:
      return "same_person";
  }
  return "";
}

// nullopt for any other text (case matters).
constexpr std::optional<PolicySkip> ParsePolicySkip(std::string_view name) {
  for (PolicySkip skip : kAllPolicySkips) {
    if (PolicySkipName(skip) == name) return skip;
  }
  return std::nullopt;
}

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_POLICY_SKIP_H_
