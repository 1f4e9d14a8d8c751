// Gitea's review context: the JSON bodies of its REST API (`$BASE/api/v1/repos/O/R/...`), each
// exactly as Gitea returns it,
//   - pulls/N: the pull request (one object);
//   - issues/N/comments: issue comments, the thread channel (pages: JSON arrays);
//   - pulls/N/reviews: reviews, the verdicts (non-empty bodies are the ledger carriers);
//   - pulls/N/reviews/ID/comments: one review's comments, the inline channel (Gitea lists them
//     per review, not per pull request),
// normalized into the same ReviewContext as GitHub's (docs/context.md has the field-by-field
// table):
// - the pull request: title, body, user.login -> authorLogin; state "merged" when `merged` is
//   true, else Gitea's `state` ("open", "closed"); base.ref; head.ref; head.sha; additions,
//   deletions, changed_files when present;
// - review states in GitHub's words: APPROVED, REQUEST_CHANGES -> CHANGES_REQUESTED, COMMENT ->
//   COMMENTED, and DISMISSED when `dismissed` is true; PENDING reviews (drafts) are skipped with
//   their comments, and so are REQUEST_REVIEW entries (a request for a review, not a review); any
//   other state (Gitea's "" for an unknown type among them) is `usage`; commit_id "" is absent;
// - review comments: `position` (the line on the new side), else `original_position` (the line
//   on the old side) -> line, both 0: a file-level comment without a line; Gitea has no reply
//   link, so no parentId; commit_id, original_commit_id and diff_hunk have no ReviewContext
//   member and are not read.
// Unknown members are ignored; a missing required member, a wrong type or a bad value is `usage`
// naming the input and JSON path (forge/json_field.h).
#ifndef GENTLE_FORGE_GITEA_IMPORT_H_
#define GENTLE_FORGE_GITEA_IMPORT_H_

#include "forge/rest_fields.h"
#include "forge/review_context.h"

namespace gentle::forge {

using GiteaInput = RestInput;

Result<ReviewContext> ImportGitea(const GiteaInput& input);

}  // namespace gentle::forge

#endif  // GENTLE_FORGE_GITEA_IMPORT_H_
