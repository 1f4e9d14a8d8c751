// Aone's review context (docs/context.md, "Aone"): the JSON of `a1 repo mr view` plus the
// default and the `--resolved` comment lists (each one JSON array; Aone does not paginate them),
// normalized into a ReviewContext (docs/context.md has the field-by-field table):
// - metadata: title; description -> body; author -> authorLogin; state; targetBranch ->
//   baseRefName; sourceBranch -> headRefName and headRefOid (the head SHA under AGit-Flow, a
//   branch name otherwise: Aone's branch-based merge requests); no diff stats, so those members are
//   absent;
// - comments: the two lists unioned by id; isDraft ones skipped; a comment with a path is inline,
//   one without is a thread comment and, when its body is not empty, a ledger carrier (state
//   COMMENTED, submittedAt its createdAt, no commitId, parentId kept); parentNoteId -> parentId;
// - an author object gives `account`, else `username`, else "" (as does a missing author);
// - verdicts: none (Aone has no review object).
// Unknown members are ignored; a missing required member or a wrong type is `usage` naming the
// input and JSON path.
#ifndef GENTLE_FORGE_AONE_IMPORT_H_
#define GENTLE_FORGE_AONE_IMPORT_H_

#include <optional>

#include "forge/forge_input.h"
#include "forge/review_context.h"

namespace gentle::forge {

struct AoneInput {
  ForgePage mr_view;
  std::optional<ForgePage> comments, resolved_comments;
};

Result<ReviewContext> ImportAone(const AoneInput& input);

}  // namespace gentle::forge

#endif  // GENTLE_FORGE_AONE_IMPORT_H_
