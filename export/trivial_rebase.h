// TrivialRebase: `verify --allow-trivial-rebase --base-ref REF` (docs/ci.md, "Rebased changes").
// Read-only.
//
// An approval names a candidate tree. After a rebase the tree being merged is another one, yet the
// change may be the one that was reviewed: the same diff, context lines included, only at other
// line numbers and between other blobs (Gerrit's TRIVIAL_REBASE). MatchTrivialRebase decides that:
//
//   1. The change's base B is the merge base of REF and HEAD (the --against rev), which must be
//      unique: what lands when HEAD is merged into REF is REF's changes since B plus the change
//      B..HEAD, so B..HEAD is what must have been reviewed. With several merge bases git merges
//      them into a virtual base first, and the change from any one of them can hide the undoing
//      of another's commits, so that is refused. When HEAD is a merge commit (two parents or more,
//      octopus included), its first parent P must also be REF's tip or an ancestor of it (as
//      `git merge-base --is-ancestor P REF`); otherwise it is refused whatever its change. Such a
//      merge is what a forge builds for a pull request (P is the base branch's tip, or an older
//      commit of it once the branch moved on): then B is P, unless another parent reaches REF
//      past P, and the change is P..HEAD, its first-parent change. That is sound whatever the
//      other parents bring: a commit's content is its tree, HEAD's tree is P's tree plus the
//      approved patch, and P's tree is already on the base, so code that another parent brings
//      and that is not in the approved patch is not in HEAD's tree either. Judging a merge by its
//      first-parent change when P is not on the base would not be: P could be the base plus
//      unreviewed code, and P..HEAD would show only the approved patch on top of it. When
//      another parent reaches REF past P, B is that later commit, and B..HEAD shows the undoing
//      of REF's commits since P, which P..HEAD would hide.
//   2. The change base..HEAD is derived under the pinned flags exactly as export-context derives
//      the frozen patch (export/derivation.h, DeriveInterdiff): the same engine, the same bytes.
//   3. It must equal the approved patch section for section, line for line, with exactly two
//      things allowed to differ (SamePatchUpToPosition): the start line numbers of each `@@` header
//      (the counts and the function text after it must be equal) and the two blob ids of a text
//      section's `index` line (its mode must be equal). A binary section (`GIT binary patch`) must
//      be equal byte for byte, its index line included: its body is a delta against, or a literal
//      replacing, the old blob, so another old blob is another change. Mode lines, new/deleted file
//      lines, `---`/`+++` lines, gitlink lines and `\ No newline at end of file` are compared as
//      they are. Every pair this accepts therefore has equal `git patch-id --stable`, which ignores
//      `index` and `@@` lines and whitespace.
//
// Errors: `usage` when HEAD or REF is not a commit; `not_reviewed` with `details.reason`
// (export/rebase_refusal.h) when HEAD is a merge whose first parent is not on REF, there is no or
// no unique merge base, the change is above the budget, or it is not the approved patch (details:
// `base_ref`, and when the change was derived `base_commit`, `base_tree` and `difference`: where
// the first difference is); `objects_missing` when an object of the change is absent. verify
// refuses a consumed approval before asking (`consumed`): a spent approval holds only for its exact
// tree.
#ifndef GENTLE_EXPORT_TRIVIAL_REBASE_H_
#define GENTLE_EXPORT_TRIVIAL_REBASE_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "export/rebase_refusal.h"
#include "store/git/repository.h"
#include "store/status.h"

namespace gentle::exporter {

// How verify found the tree of --against to be the approved one, and its JSON name (`match`).
enum class Match {
  kNone,           // no --against
  kExact,          // "exact": the tree is the candidate tree
  kTrivialRebase,  // "trivial_rebase": its change is the approved patch moved (MatchTrivialRebase)
};
std::string_view MatchName(Match match);

// The change a trivial rebase was judged by.
struct RebasedChange {
  std::string base_ref;       // REF as given
  std::string base_commit;    // merge-base(REF, HEAD)
  std::string base_tree;      // its tree
  bool first_parent = false;  // HEAD is a merge commit and base_commit is its first parent
  size_t byte_size = 0;       // the change's patch
  std::string sha256;
};

// "" when `rebased` is `approved` up to hunk start lines and text blob ids (rule 3 above);
// otherwise where they first differ, as one line for a message ("src/a.c: hunk 2 differs").
std::string PatchDifference(std::string_view approved, std::string_view rebased);

// `usage` unless both revisions are commits; verify checks this first, so a --base-ref that does
// not resolve is refused also when no rebase is needed.
Status CheckRebaseRevs(const store::git::Repository& repo, const std::string& head,
                       const std::string& base_ref);

// Rules 1 to 3 for the commit `head` (a revision) against `approved_patch`.
Result<RebasedChange> MatchTrivialRebase(const store::git::Repository& repo,
                                         const std::string& head, const std::string& base_ref,
                                         const std::string& approved_patch);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_TRIVIAL_REBASE_H_
