// GitHub's review context: the output of
//   gh pr view N --json title,body,author,state,baseRefName,headRefName,headRefOid,additions,
//                       deletions,changedFiles
// and the pages, each a JSON array exactly as the REST API returns it, of
//   - /repos/O/R/issues/N/comments: issue comments, the thread channel;
//   - /repos/O/R/pulls/N/reviews: reviews, the verdicts (non-empty bodies are the ledger
//     carriers);
//   - /repos/O/R/pulls/N/comments: review comments, the inline channel;
// normalized into a ReviewContext (docs/context.md has the field-by-field table). PENDING reviews
// are drafts and skipped, with the review comments that belong to them. Unknown members are
// ignored; a missing required member or a wrong type is `usage` naming the input and JSON path.
#ifndef GENTLE_FORGE_GITHUB_IMPORT_H_
#define GENTLE_FORGE_GITHUB_IMPORT_H_

#include "forge/rest_fields.h"
#include "forge/review_context.h"

namespace gentle::forge {

using GithubInput = RestInput;

Result<ReviewContext> ImportGithub(const GithubInput& input);

}  // namespace gentle::forge

#endif  // GENTLE_FORGE_GITHUB_IMPORT_H_
