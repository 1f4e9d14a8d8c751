// What GitHub's and Gitea's REST shapes share (forge/github_import.h, forge/gitea_import.h): a
// user object's login, an RFC 3339 time member, and the frame of the import; each refusal
// `usage` naming the input and JSON path.
#ifndef GENTLE_FORGE_REST_FIELDS_H_
#define GENTLE_FORGE_REST_FIELDS_H_

#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "forge/forge_input.h"
#include "forge/forge_name.h"
#include "forge/id_union.h"
#include "forge/json_field.h"
#include "forge/review_context.h"

namespace gentle::forge {

// The login of the user object `key` of `parent` ("" when it is null or missing: a deleted
// account); an object must hold a string `login`.
Result<std::string> UserLogin(const FieldReader& r, const Json& parent, const std::string& path,
                              std::string_view key);

// `time` (read from member `key`) when it is "" or RFC 3339.
Result<std::string> CheckedTime(const FieldReader& r, const std::string& path, std::string_view key,
                                std::string time);

// `each` for every element of the page's array, each of which must be an object; `path` is the
// element's JSON path ("[3]"). The first refusal stops.
Status ForEachObject(const ForgePage& page,
                     const std::function<Status(const FieldReader& r, const Json& item,
                                                const std::string& path)>& each);

// What every comment of both forges holds: `id`, `user.login` -> author, `body`, `created_at`
// (all required; `user` may be null).
Status ReadCommentHead(const FieldReader& r, const Json& item, const std::string& path,
                       ContextComment* out);

// What every review of both forges holds beside its id and state: `user.login` -> author, `body`
// (required, may be ""), `submitted_at` (optional: "").
Status ReadReviewHead(const FieldReader& r, const Json& item, const std::string& path,
                      ContextVerdict* out);

// The inputs of a REST forge's import: the pull request and pages of its lists.
struct RestInput {
  ForgePage pr_view;
  std::vector<ForgePage> issue_comments, reviews, review_comments;
};

// How one forge's shapes read: the pull request, a reviews page (each submitted review a verdict,
// the ids of skipped ones collected), a review-comments page (those of skipped reviews left out).
struct RestReaders {
  Status (*pull)(const ForgePage& page, ReviewContext* out);
  Status (*reviews)(const ForgePage& page, IdUnion<ContextVerdict>* verdicts,
                    std::set<std::string>* skipped);
  Status (*review_comments)(const ForgePage& page, const std::set<std::string>& skipped,
                            IdUnion<ContextComment>* comments);
};

// The import both forges share: the pull request, the verdicts (a review skipped on one page and
// submitted on another is `usage`), the issue comments (the same shape on both: `id`,
// `user.login`, `body`, `created_at`) and review comments unioned by id, the ledger carriers
// (the verdicts whose body is not empty), sorted.
Result<ReviewContext> ImportRest(Forge forge, const RestInput& input, const RestReaders& readers);

}  // namespace gentle::forge

#endif  // GENTLE_FORGE_REST_FIELDS_H_
