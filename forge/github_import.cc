#include "forge/github_import.h"

#include <set>

#include "forge/forge_name.h"
#include "forge/id_union.h"
#include "forge/rest_fields.h"

namespace gentle::forge {
namespace {

Status ReadPrView(const ForgePage& page, ReviewContext* out) {
  const FieldReader r(page.source);
  const Json& v = page.json;
  GENTLE_RETURN_IF_ERROR(r.ExpectObject(v, ""));
  GENTLE_ASSIGN_OR_RETURN(out->title, r.String(v, "", "title"));
  GENTLE_ASSIGN_OR_RETURN(out->body, r.String(v, "", "body"));
  GENTLE_ASSIGN_OR_RETURN(out->author_login, UserLogin(r, v, "", "author"));
  GENTLE_ASSIGN_OR_RETURN(out->state, r.String(v, "", "state"));
  GENTLE_ASSIGN_OR_RETURN(out->base_ref_name, r.String(v, "", "baseRefName"));
  GENTLE_ASSIGN_OR_RETURN(out->head_ref_name, r.String(v, "", "headRefName"));
  GENTLE_ASSIGN_OR_RETURN(out->head_ref_oid, r.String(v, "", "headRefOid"));
  GENTLE_ASSIGN_OR_RETURN(out->additions, r.OptionalInteger(v, "", "additions", 0));
  GENTLE_ASSIGN_OR_RETURN(out->deletions, r.OptionalInteger(v, "", "deletions", 0));
  GENTLE_ASSIGN_OR_RETURN(out->changed_files, r.OptionalInteger(v, "", "changedFiles", 0));
  return Status::Ok();
}

// Reviews: every non-PENDING one is a verdict; the ids of PENDING ones are collected.
Status ReadReviews(const ForgePage& page, IdUnion<ContextVerdict>* verdicts,
                   std::set<std::string>* pending) {
  return ForEachObject(page, [&](const FieldReader& r, const Json& item, const std::string& path) {
    ContextVerdict v;
    GENTLE_ASSIGN_OR_RETURN(v.id, r.Id(item, path, "id"));
    GENTLE_ASSIGN_OR_RETURN(std::string state, r.String(item, path, "state"));
    v.state = ForgeReviewState::FromText(std::move(state));
    if (v.state.kind() == ForgeReviewKind::kPending) {
      pending->insert(v.id);
      return Status::Ok();
    }
    GENTLE_RETURN_IF_ERROR(ReadReviewHead(r, item, path, &v));
    GENTLE_ASSIGN_OR_RETURN(v.commit_id, r.OptionalString(item, path, "commit_id"));
    return verdicts->Add(std::move(v), page.source, path);
  });
}

Status ReadReviewComments(const ForgePage& page, const std::set<std::string>& pending,
                          IdUnion<ContextComment>* comments) {
  return ForEachObject(page, [&](const FieldReader& r, const Json& item, const std::string& path) {
    ContextComment c;
    c.channel = CommentChannel::kInline;
    GENTLE_RETURN_IF_ERROR(ReadCommentHead(r, item, path, &c));
    GENTLE_ASSIGN_OR_RETURN(auto review, r.OptionalId(item, path, "pull_request_review_id"));
    GENTLE_ASSIGN_OR_RETURN(std::string file, r.String(item, path, "path"));
    c.path = std::move(file);
    GENTLE_ASSIGN_OR_RETURN(auto line, r.OptionalInteger(item, path, "line", 1));
    GENTLE_ASSIGN_OR_RETURN(auto original, r.OptionalInteger(item, path, "original_line", 1));
    c.line = line ? line : original;
    GENTLE_ASSIGN_OR_RETURN(c.parent_id, r.OptionalId(item, path, "in_reply_to_id"));
    if (review && pending.count(*review) != 0) return Status::Ok();  // part of a draft review
    return comments->Add(std::move(c), page.source, path);
  });
}

}  // namespace

Result<ReviewContext> ImportGithub(const GithubInput& input) {
  return ImportRest(Forge::kGithub, input,
                    RestReaders{ReadPrView, ReadReviews, ReadReviewComments});
}

}  // namespace gentle::forge
