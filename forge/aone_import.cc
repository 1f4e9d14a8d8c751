#include "forge/aone_import.h"

#include "forge/forge_name.h"
#include "forge/id_union.h"

namespace gentle::forge {
namespace {

// account, then username, of the author object `key`; "" when neither (or no author) is there.
Result<std::string> Account(const FieldReader& r, const Json& parent, const std::string& path,
                            std::string_view key) {
  GENTLE_ASSIGN_OR_RETURN(const Json* author, r.OptionalObject(parent, path, key));
  if (author == nullptr) return std::string();
  const std::string at = MemberPath(path, key);
  GENTLE_ASSIGN_OR_RETURN(auto account, r.OptionalString(*author, at, "account"));
  if (account && !account->empty()) return *account;
  GENTLE_ASSIGN_OR_RETURN(auto username, r.OptionalString(*author, at, "username"));
  return username.value_or("");
}

Status ReadMrView(const ForgePage& page, ReviewContext* out) {
  const FieldReader r(page.source);
  const Json& v = page.json;
  GENTLE_RETURN_IF_ERROR(r.ExpectObject(v, ""));
  GENTLE_ASSIGN_OR_RETURN(out->title, r.String(v, "", "title"));
  GENTLE_ASSIGN_OR_RETURN(auto description, r.OptionalString(v, "", "description"));
  out->body = description.value_or("");
  GENTLE_ASSIGN_OR_RETURN(out->author_login, Account(r, v, "", "author"));
  GENTLE_ASSIGN_OR_RETURN(out->state, r.String(v, "", "state"));
  GENTLE_ASSIGN_OR_RETURN(out->base_ref_name, r.String(v, "", "targetBranch"));
  GENTLE_ASSIGN_OR_RETURN(out->head_ref_name, r.String(v, "", "sourceBranch"));
  out->head_ref_oid = out->head_ref_name;
  return Status::Ok();
}

Status ReadComments(const ForgePage& page, IdUnion<ContextComment>* comments) {
  const FieldReader r(page.source);
  GENTLE_RETURN_IF_ERROR(r.ExpectArray(page.json, ""));
  for (size_t i = 0; i < page.json.size(); ++i) {
    const Json& item = page.json[i];
    const std::string path = IndexPath("", i);
    GENTLE_RETURN_IF_ERROR(r.ExpectObject(item, path));
    ContextComment c;
    GENTLE_ASSIGN_OR_RETURN(c.id, r.Id(item, path, "id"));
    GENTLE_ASSIGN_OR_RETURN(const bool draft, r.OptionalBool(item, path, "isDraft", false));
    GENTLE_ASSIGN_OR_RETURN(c.author, Account(r, item, path, "author"));
    GENTLE_ASSIGN_OR_RETURN(c.body, r.String(item, path, "body"));
    GENTLE_ASSIGN_OR_RETURN(auto created, r.OptionalString(item, path, "createdAt"));
    c.created_at = created.value_or("");
    if (!IsTimeOrEmpty(c.created_at)) {
      return r.Error(MemberPath(path, "createdAt"),
                     "expected an RFC 3339 timestamp, got \"" + c.created_at + "\"");
    }
    GENTLE_ASSIGN_OR_RETURN(auto file, r.OptionalString(item, path, "path"));
    GENTLE_ASSIGN_OR_RETURN(auto line, r.OptionalInteger(item, path, "line", 1));
    if (file && !file->empty()) {
      c.channel = CommentChannel::kInline;
      c.path = std::move(file);
      c.line = line;
    } else {
      c.channel = CommentChannel::kThread;
    }
    GENTLE_ASSIGN_OR_RETURN(c.parent_id, r.OptionalId(item, path, "parentNoteId"));
    if (draft) continue;
    GENTLE_RETURN_IF_ERROR(comments->Add(std::move(c), page.source, path));
  }
  return Status::Ok();
}

}  // namespace

Result<ReviewContext> ImportAone(const AoneInput& input) {
  ReviewContext out;
  out.forge = Forge::kAone;
  GENTLE_RETURN_IF_ERROR(ReadMrView(input.mr_view, &out));
  IdUnion<ContextComment> comments;
  for (const auto* page : {&input.comments, &input.resolved_comments}) {
    if (*page) GENTLE_RETURN_IF_ERROR(ReadComments(**page, &comments));
  }
  out.comments = comments.Take();
  for (const ContextComment& c : out.comments) {
    if (c.channel != CommentChannel::kThread || c.body.empty()) continue;
    out.ledger_carriers.push_back(CarrierOf(c));
  }
  SortReviewContext(&out);
  return out;
}

}  // namespace gentle::forge
