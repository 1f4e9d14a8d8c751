// RebaseRefusal: why `verify --allow-trivial-rebase` did not accept a tree that is not the
// approved one (export/trivial_rebase.h, export/verify.h), one enum with one name table
// (header-only). verify prints the name as the `not_reviewed` error's `details.reason`
// (docs/commands.md, "verify"); code compares the enum, never the text.
#ifndef GENTLE_EXPORT_REBASE_REFUSAL_H_
#define GENTLE_EXPORT_REBASE_REFUSAL_H_

#include <optional>
#include <string_view>

namespace gentle::exporter {

enum class RebaseRefusal {
  kConsumed,            // the approval is spent (burned): only its exact tree holds
  kFirstParentOffBase,  // HEAD is a merge whose first parent is neither REF nor an ancestor of it
  kNoMergeBase,         // REF and HEAD share no history
  kSeveralMergeBases,   // REF and HEAD have more than one merge base
  kOverBudget,          // the change is above the patch budget
  kPatchDiffers,        // the change is not the approved patch moved (`details.difference`)
};

inline constexpr RebaseRefusal kAllRebaseRefusals[] = {
    RebaseRefusal::kConsumed,    RebaseRefusal::kFirstParentOffBase,
    RebaseRefusal::kNoMergeBase, RebaseRefusal::kSeveralMergeBases,
    RebaseRefusal::kOverBudget,  RebaseRefusal::kPatchDiffers};

constexpr std::string_view RebaseRefusalName(RebaseRefusal refusal) {
  switch (refusal) {
    case RebaseRefusal::kConsumed:
      return "consumed";
    case RebaseRefusal::kFirstParentOffBase:
      return "first_parent_off_base";
    case RebaseRefusal::kNoMergeBase:
      return "no_merge_base";
    case RebaseRefusal::kSeveralMergeBases:
      return "several_merge_bases";
    case RebaseRefusal::kOverBudget:
      return "over_budget";
    case RebaseRefusal::kPatchDiffers:
      return "patch_differs";
  }
  return "";
}

// nullopt for any other text (case matters).
constexpr std::optional<RebaseRefusal> ParseRebaseRefusal(std::string_view name) {
  for (RebaseRefusal refusal : kAllRebaseRefusals) {
    if (RebaseRefusalName(refusal) == name) return refusal;
  }
  return std::nullopt;
}

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_REBASE_REFUSAL_H_
