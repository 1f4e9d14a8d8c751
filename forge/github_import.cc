#include "forge/github_import.h"

#include <set>

#include "forge/id_union.h"
#include "store/forge_name.h"

namespace gentle::forge {
namespace {

// The login of the user object `key` ("" when it is null or missing: a deleted account).
Result<std::string> Login(const FieldReader& r, const Json& parent, const std::string& path,
                          std::string_view key) {
  GENTLE_ASSIGN_OR_RETURN(const Json* user, r.OptionalObject(parent, path, key));
  if (user == nullptr) return std::string();
  return r.String(*user, MemberPath(path, key), "login");
}

Result<std::string> CheckedTime(const FieldReader& r, const std::string& path, std::string_view key,
                                std::string time) {
  if (!IsTimeOrEmpty(time)) {
    return r.Error(MemberPath(path, key), "expected an RFC 3339 timestamp, got \"" + time + "\"");
  }
  return time;
}

Status ReadPrView(const ForgePage& page, ReviewContext* out) {
  const FieldReader r(page.source);
  const Json& v = page.json;
  GENTLE_RETURN_IF_ERROR(r.ExpectObject(v, ""));
  GENTLE_ASSIGN_OR_RETURN(out->title, r.String(v, "", "title"));
  GENTLE_ASSIGN_OR_RETURN(out->body, r.String(v, "", "body"));
  GENTLE_ASSIGN_OR_RETURN(out->author_login, Login(r, v, "", "author"));
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
  const FieldReader r(page.source);
  GENTLE_RETURN_IF_ERROR(r.ExpectArray(page.json, ""));
  for (size_t i = 0; i < page.json.size(); ++i) {
    const Json& item = page.json[i];
    const std::string path = IndexPath("", i);
    GENTLE_RETURN_IF_ERROR(r.ExpectObject(item, path));
    ContextVerdict v;
    GENTLE_ASSIGN_OR_RETURN(v.id, r.Id(item, path, "id"));
    GENTLE_ASSIGN_OR_RETURN(v.state, r.String(item, path, "state"));
    if (v.state == "PENDING") {
      pending->insert(v.id);
      continue;
    }
    GENTLE_ASSIGN_OR_RETURN(v.author, Login(r, item, path, "user"));
    GENTLE_ASSIGN_OR_RETURN(v.body, r.String(item, path, "body"));
    GENTLE_ASSIGN_OR_RETURN(auto submitted, r.OptionalString(item, path, "submitted_at"));
    GENTLE_ASSIGN_OR_RETURN(v.submitted_at,
                            CheckedTime(r, path, "submitted_at", submitted.value_or("")));
    GENTLE_ASSIGN_OR_RETURN(v.commit_id, r.OptionalString(item, path, "commit_id"));
    GENTLE_RETURN_IF_ERROR(verdicts->Add(std::move(v), page.source, path));
  }
  return Status::Ok();
}

Status ReadIssueComments(const ForgePage& page, IdUnion<ContextComment>* comments) {
  const FieldReader r(page.source);
  GENTLE_RETURN_IF_ERROR(r.ExpectArray(page.json, ""));
  for (size_t i = 0; i < page.json.size(); ++i) {
    const Json& item = page.json[i];
    const std::string path = IndexPath("", i);
    GENTLE_RETURN_IF_ERROR(r.ExpectObject(item, path));
    ContextComment c;
    c.channel = kChannelThread;
    GENTLE_ASSIGN_OR_RETURN(c.id, r.Id(item, path, "id"));
    GENTLE_ASSIGN_OR_RETURN(c.author, Login(r, item, path, "user"));
    GENTLE_ASSIGN_OR_RETURN(c.body, r.String(item, path, "body"));
    GENTLE_ASSIGN_OR_RETURN(std::string created, r.String(item, path, "created_at"));
    GENTLE_ASSIGN_OR_RETURN(c.created_at, CheckedTime(r, path, "created_at", created));
    GENTLE_RETURN_IF_ERROR(comments->Add(std::move(c), page.source, path));
  }
  return Status::Ok();
}

Status ReadReviewComments(const ForgePage& page, const std::set<std::string>& pending,
                          IdUnion<ContextComment>* comments) {
  const FieldReader r(page.source);
  GENTLE_RETURN_IF_ERROR(r.ExpectArray(page.json, ""));
  for (size_t i = 0; i < page.json.size(); ++i) {
    const Json& item = page.json[i];
    const std::string path = IndexPath("", i);
    GENTLE_RETURN_IF_ERROR(r.ExpectObject(item, path));
    ContextComment c;
    c.channel = kChannelInline;
    GENTLE_ASSIGN_OR_RETURN(c.id, r.Id(item, path, "id"));
    GENTLE_ASSIGN_OR_RETURN(auto review, r.OptionalId(item, path, "pull_request_review_id"));
    GENTLE_ASSIGN_OR_RETURN(c.author, Login(r, item, path, "user"));
    GENTLE_ASSIGN_OR_RETURN(c.body, r.String(item, path, "body"));
    GENTLE_ASSIGN_OR_RETURN(std::string created, r.String(item, path, "created_at"));
    GENTLE_ASSIGN_OR_RETURN(c.created_at, CheckedTime(r, path, "created_at", created));
    GENTLE_ASSIGN_OR_RETURN(std::string file, r.String(item, path, "path"));
    c.path = std::move(file);
    GENTLE_ASSIGN_OR_RETURN(auto line, r.OptionalInteger(item, path, "line", 1));
    GENTLE_ASSIGN_OR_RETURN(auto original, r.OptionalInteger(item, path, "original_line", 1));
    c.line = line ? line : original;
    GENTLE_ASSIGN_OR_RETURN(c.parent_id, r.OptionalId(item, path, "in_reply_to_id"));
    if (review && pending.count(*review) != 0) continue;  // part of a draft review
    GENTLE_RETURN_IF_ERROR(comments->Add(std::move(c), page.source, path));
  }
  return Status::Ok();
}

}  // namespace

Result<ReviewContext> ImportGithub(const GithubInput& input) {
  ReviewContext out;
  out.forge = store::ForgeName(store::Forge::kGithub);
  GENTLE_RETURN_IF_ERROR(ReadPrView(input.pr_view, &out));
  IdUnion<ContextVerdict> verdicts;
  std::set<std::string> pending;
  for (const ForgePage& page : input.reviews) {
    GENTLE_RETURN_IF_ERROR(ReadReviews(page, &verdicts, &pending));
  }
  out.verdicts = verdicts.Take();
  for (const ContextVerdict& v : out.verdicts) {
    if (pending.count(v.id) != 0) {
      return Status(Code::kUsage, "review " + v.id +
                                      " is PENDING on one reviews page and submitted on another "
                                      "(fetch the pages again)")
          .WithDetail("input", "reviews");
    }
  }
  IdUnion<ContextComment> comments;
  for (const ForgePage& page : input.issue_comments) {
    GENTLE_RETURN_IF_ERROR(ReadIssueComments(page, &comments));
  }
  for (const ForgePage& page : input.review_comments) {
    GENTLE_RETURN_IF_ERROR(ReadReviewComments(page, pending, &comments));
  }
  out.comments = comments.Take();
  for (const ContextVerdict& v : out.verdicts) {
    if (!v.body.empty()) out.ledger_carriers.push_back(v);
  }
  SortReviewContext(&out);
  return out;
}

}  // namespace gentle::forge
