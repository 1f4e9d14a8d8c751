#include "forge/rest_fields.h"

namespace gentle::forge {

Result<std::string> UserLogin(const FieldReader& r, const Json& parent, const std::string& path,
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

Status ForEachObject(const ForgePage& page,
                     const std::function<Status(const FieldReader& r, const Json& item,
                                                const std::string& path)>& each) {
  const FieldReader r(page.source);
  GENTLE_RETURN_IF_ERROR(r.ExpectArray(page.json, ""));
  for (size_t i = 0; i < page.json.size(); ++i) {
    const std::string path = IndexPath("", i);
    GENTLE_RETURN_IF_ERROR(r.ExpectObject(page.json[i], path));
    GENTLE_RETURN_IF_ERROR(each(r, page.json[i], path));
  }
  return Status::Ok();
}

Status ReadCommentHead(const FieldReader& r, const Json& item, const std::string& path,
                       ContextComment* out) {
  GENTLE_ASSIGN_OR_RETURN(out->id, r.Id(item, path, "id"));
  GENTLE_ASSIGN_OR_RETURN(out->author, UserLogin(r, item, path, "user"));
  GENTLE_ASSIGN_OR_RETURN(out->body, r.String(item, path, "body"));
  GENTLE_ASSIGN_OR_RETURN(std::string created, r.String(item, path, "created_at"));
  GENTLE_ASSIGN_OR_RETURN(out->created_at, CheckedTime(r, path, "created_at", created));
  return Status::Ok();
}

Status ReadReviewHead(const FieldReader& r, const Json& item, const std::string& path,
                      ContextVerdict* out) {
  GENTLE_ASSIGN_OR_RETURN(out->author, UserLogin(r, item, path, "user"));
  GENTLE_ASSIGN_OR_RETURN(out->body, r.String(item, path, "body"));
  GENTLE_ASSIGN_OR_RETURN(auto submitted, r.OptionalString(item, path, "submitted_at"));
  GENTLE_ASSIGN_OR_RETURN(out->submitted_at,
                          CheckedTime(r, path, "submitted_at", submitted.value_or("")));
  return Status::Ok();
}

namespace {

Status CheckNotSkipped(const std::vector<ContextVerdict>& verdicts,
                       const std::set<std::string>& skipped) {
  for (const ContextVerdict& v : verdicts) {
    if (skipped.count(v.id) != 0) {
      return Status(Code::kUsage, "review " + v.id +
                                      " is PENDING on one reviews page and submitted on another "
                                      "(fetch the pages again)")
          .WithDetail(DetailKey::kInput, "reviews");
    }
  }
  return Status::Ok();
}

Status ReadIssueComments(const ForgePage& page, IdUnion<ContextComment>* comments) {
  return ForEachObject(page, [&](const FieldReader& r, const Json& item, const std::string& path) {
    ContextComment c;
    c.channel = CommentChannel::kThread;
    GENTLE_RETURN_IF_ERROR(ReadCommentHead(r, item, path, &c));
    return comments->Add(std::move(c), page.source, path);
  });
}

}  // namespace

Result<ReviewContext> ImportRest(Forge forge, const RestInput& input, const RestReaders& readers) {
  ReviewContext out;
  out.forge = forge;
  GENTLE_RETURN_IF_ERROR(readers.pull(input.pr_view, &out));
  IdUnion<ContextVerdict> verdicts;
  std::set<std::string> skipped;
  for (const ForgePage& page : input.reviews) {
    GENTLE_RETURN_IF_ERROR(readers.reviews(page, &verdicts, &skipped));
  }
  out.verdicts = verdicts.Take();
  GENTLE_RETURN_IF_ERROR(CheckNotSkipped(out.verdicts, skipped));
  IdUnion<ContextComment> comments;
  for (const ForgePage& page : input.issue_comments) {
    GENTLE_RETURN_IF_ERROR(ReadIssueComments(page, &comments));
  }
  for (const ForgePage& page : input.review_comments) {
    GENTLE_RETURN_IF_ERROR(readers.review_comments(page, skipped, &comments));
  }
  out.comments = comments.Take();
  for (const ContextVerdict& v : out.verdicts) {
    if (!v.body.empty()) out.ledger_carriers.push_back(v);
  }
  SortReviewContext(&out);
  return out;
}

}  // namespace gentle::forge
