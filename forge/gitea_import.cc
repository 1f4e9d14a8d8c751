#include "forge/gitea_import.h"

#include <optional>
#include <set>
#include <string>

#include "forge/forge_name.h"
#include "forge/id_union.h"
#include "forge/rest_fields.h"

namespace gentle::forge {
namespace {

// The string `key` of the object member `branch` ("base", "head") of the pull request.
Result<std::string> BranchField(const FieldReader& r, const Json& pull, std::string_view branch,
                                std::string_view key) {
  GENTLE_ASSIGN_OR_RETURN(const Json* info, r.OptionalObject(pull, "", branch));
  if (info == nullptr) return r.Error(std::string(branch), "missing (expected an object)");
  return r.String(*info, std::string(branch), key);
}

Status ReadPull(const ForgePage& page, ReviewContext* out) {
  const FieldReader r(page.source);
  const Json& v = page.json;
  GENTLE_RETURN_IF_ERROR(r.ExpectObject(v, ""));
  GENTLE_ASSIGN_OR_RETURN(out->title, r.String(v, "", "title"));
  GENTLE_ASSIGN_OR_RETURN(out->body, r.String(v, "", "body"));
  GENTLE_ASSIGN_OR_RETURN(out->author_login, UserLogin(r, v, "", "user"));
  GENTLE_ASSIGN_OR_RETURN(out->state, r.String(v, "", "state"));
  GENTLE_ASSIGN_OR_RETURN(const bool merged, r.OptionalBool(v, "", "merged", false));
  if (merged) out->state = "merged";
  GENTLE_ASSIGN_OR_RETURN(out->base_ref_name, BranchField(r, v, "base", "ref"));
  GENTLE_ASSIGN_OR_RETURN(out->head_ref_name, BranchField(r, v, "head", "ref"));
  GENTLE_ASSIGN_OR_RETURN(out->head_ref_oid, BranchField(r, v, "head", "sha"));
  GENTLE_ASSIGN_OR_RETURN(out->additions, r.OptionalInteger(v, "", "additions", 0));
  GENTLE_ASSIGN_OR_RETURN(out->deletions, r.OptionalInteger(v, "", "deletions", 0));
  GENTLE_ASSIGN_OR_RETURN(out->changed_files, r.OptionalInteger(v, "", "changed_files", 0));
  return Status::Ok();
}

// What a Gitea review state becomes: a verdict state in GitHub's words, or skipped.
enum class ReviewFate { kVerdict, kSkip };

// Gitea's review state words: a submitted review's become the ForgeReviewKind it stands for.
enum class GiteaReviewState { kApproved, kRequestChanges, kComment, kPending, kRequestReview };

constexpr store::NameTable kGiteaReviewStateNames = store::MakeNameTable<GiteaReviewState>({
    {GiteaReviewState::kApproved, "APPROVED"},
    {GiteaReviewState::kRequestChanges, "REQUEST_CHANGES"},
    {GiteaReviewState::kComment, "COMMENT"},
    {GiteaReviewState::kPending, "PENDING"},
    {GiteaReviewState::kRequestReview, "REQUEST_REVIEW"},
});

Result<ReviewFate> MapReviewState(const FieldReader& r, const std::string& path,
                                  const std::string& gitea, ForgeReviewState* state) {
  const std::optional<GiteaReviewState> given = kGiteaReviewStateNames.Parse(gitea);
  if (!given) {
    return r.Error(MemberPath(path, "state"),
                   "expected APPROVED, REQUEST_CHANGES, COMMENT, PENDING or REQUEST_REVIEW, got "
                   "\"" +
                       gitea + "\"");
  }
  switch (*given) {
    case GiteaReviewState::kPending:
    case GiteaReviewState::kRequestReview:
      return ReviewFate::kSkip;
    case GiteaReviewState::kApproved:
      *state = ForgeReviewKind::kApproved;
      break;
    case GiteaReviewState::kRequestChanges:
      *state = ForgeReviewKind::kChangesRequested;
      break;
    case GiteaReviewState::kComment:
      *state = ForgeReviewKind::kCommented;
      break;
  }
  return ReviewFate::kVerdict;
}

// Reviews: the submitted ones are verdicts; the ids of skipped ones (drafts, requests) are
// collected, so their comments are skipped too.
Status ReadReviews(const ForgePage& page, IdUnion<ContextVerdict>* verdicts,
                   std::set<std::string>* skipped) {
  return ForEachObject(page, [&](const FieldReader& r, const Json& item, const std::string& path) {
    ContextVerdict v;
    GENTLE_ASSIGN_OR_RETURN(v.id, r.Id(item, path, "id"));
    GENTLE_ASSIGN_OR_RETURN(const std::string state, r.String(item, path, "state"));
    GENTLE_ASSIGN_OR_RETURN(const ReviewFate fate, MapReviewState(r, path, state, &v.state));
    if (fate == ReviewFate::kSkip) {
      skipped->insert(v.id);
      return Status::Ok();
    }
    GENTLE_ASSIGN_OR_RETURN(const bool dismissed, r.OptionalBool(item, path, "dismissed", false));
    if (dismissed) v.state = ForgeReviewKind::kDismissed;
    GENTLE_RETURN_IF_ERROR(ReadReviewHead(r, item, path, &v));
    GENTLE_ASSIGN_OR_RETURN(auto commit, r.OptionalString(item, path, "commit_id"));
    if (commit && !commit->empty()) v.commit_id = std::move(commit);
    return verdicts->Add(std::move(v), page.source, path);
  });
}

// A line member: Gitea writes 0 for "none".
Result<std::optional<int64_t>> Line(const FieldReader& r, const Json& item, const std::string& path,
                                    std::string_view key) {
  GENTLE_ASSIGN_OR_RETURN(auto line, r.OptionalInteger(item, path, key, 0));
  if (line == 0) line.reset();
  return line;
}

Status ReadReviewComments(const ForgePage& page, const std::set<std::string>& skipped,
                          IdUnion<ContextComment>* comments) {
  return ForEachObject(page, [&](const FieldReader& r, const Json& item, const std::string& path) {
    ContextComment c;
    c.channel = CommentChannel::kInline;
    GENTLE_RETURN_IF_ERROR(ReadCommentHead(r, item, path, &c));
    GENTLE_ASSIGN_OR_RETURN(auto review, r.OptionalId(item, path, "pull_request_review_id"));
    GENTLE_ASSIGN_OR_RETURN(std::string file, r.String(item, path, "path"));
    c.path = std::move(file);
    GENTLE_ASSIGN_OR_RETURN(auto line, Line(r, item, path, "position"));
    GENTLE_ASSIGN_OR_RETURN(auto original, Line(r, item, path, "original_position"));
    c.line = line ? line : original;
    if (review && skipped.count(*review) != 0) return Status::Ok();  // part of a draft review
    return comments->Add(std::move(c), page.source, path);
  });
}

}  // namespace

Result<ReviewContext> ImportGitea(const GiteaInput& input) {
  return ImportRest(Forge::kGitea, input, RestReaders{ReadPull, ReadReviews, ReadReviewComments});
}

}  // namespace gentle::forge
