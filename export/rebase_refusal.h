// RebaseRefusal: why `verify --allow-trivial-rebase` did not accept a tree that is not the
// approved one (export/trivial_rebase.h, export/verify.h), one enum with one name table
// (header-only). verify prints the name as the `not_reviewed` error's `details.reason`
// (docs/commands.md, "gentle-ai review verify"); code compares the enum, never the text.
#ifndef GENTLE_EXPORT_REBASE_REFUSAL_H_
#define GENTLE_EXPORT_REBASE_REFUSAL_H_

#include <optional>
#include <string_view>

#include "store/name_table.h"

namespace gentle::exporter {

enum class RebaseRefusal {
  kConsumed,            // the approval is spent (burned): only its exact tree holds
  kFirstParentOffBase,  // HEAD is a merge whose first parent is neither REF nor an ancestor of it
  kNoMergeBase,         // REF and HEAD share no history
  kSeveralMergeBases,   // REF and HEAD have more than one merge base
  kOverBudget,          // the change is above the patch budget
  kPatchDiffers,        // the change is not the approved patch moved (`details.difference`)
};

inline constexpr store::NameTable kRebaseRefusalNames = store::MakeNameTable<RebaseRefusal>({
    {RebaseRefusal::kConsumed, "consumed"},
    {RebaseRefusal::kFirstParentOffBase, "first_parent_off_base"},
    {RebaseRefusal::kNoMergeBase, "no_merge_base"},
    {RebaseRefusal::kSeveralMergeBases, "several_merge_bases"},
    {RebaseRefusal::kOverBudget, "over_budget"},
    {RebaseRefusal::kPatchDiffers, "patch_differs"},
});
inline constexpr const auto& kAllRebaseRefusals = kRebaseRefusalNames.values;

constexpr std::string_view RebaseRefusalName(RebaseRefusal value) {
  return kRebaseRefusalNames.Name(value);
}

// nullopt for any other text (case matters).
constexpr std::optional<RebaseRefusal> ParseRebaseRefusal(std::string_view name) {
  return kRebaseRefusalNames.Parse(name);
}

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_REBASE_REFUSAL_H_
