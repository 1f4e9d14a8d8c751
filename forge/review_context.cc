#include "forge/review_context.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "forge/forge_json.h"
#include "forge/forge_name.h"
#include "forge/json_field.h"
#include "forge/timestamp.h"

namespace gentle::forge {
namespace {

using Ordered = nlohmann::ordered_json;

// The sort key of a checked time: an empty one (or, defensively, an unreadable one) first.
std::optional<Instant> TimeKey(const std::string& text) {
  return text.empty() ? std::nullopt : ParseTimestamp(text);
}

bool TimeThenIdLess(const std::string& time_a, const std::string& id_a, const std::string& time_b,
                    const std::string& id_b) {
  const auto a = TimeKey(time_a);
  const auto b = TimeKey(time_b);
  if (a != b) return a < b;  // nullopt < any instant
  return IdLess(id_a, id_b);
}

Ordered RenderComment(const ContextComment& c) {
  Ordered out;
  out["id"] = c.id;
  out["channel"] = std::string(CommentChannelName(c.channel));
  out["author"] = c.author;
  out["body"] = c.body;
  out["createdAt"] = c.created_at;
  if (c.path) out["path"] = *c.path;
  if (c.line) out["line"] = *c.line;
  if (c.parent_id) out["parentId"] = *c.parent_id;
  return out;
}

Ordered RenderVerdict(const ContextVerdict& v) {
  Ordered out;
  out["id"] = v.id;
  out["author"] = v.author;
  out["body"] = v.body;
  out["state"] = v.state.text();
  out["submittedAt"] = v.submitted_at;
  if (v.commit_id) out["commitId"] = *v.commit_id;
  if (v.parent_id) out["parentId"] = *v.parent_id;
  return out;
}

// A decimal id string as RenderReviewContext writes it.
Result<std::string> IdString(const FieldReader& r, const Json& parent, const std::string& path,
                             std::string_view key) {
  GENTLE_ASSIGN_OR_RETURN(std::string id, r.String(parent, path, key));
  const bool ok = !id.empty() && id.size() <= 20 && id[0] != '0' &&
                  std::all_of(id.begin(), id.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (!ok) return r.Error(MemberPath(path, key), "expected a decimal id string");
  return id;
}

Result<std::optional<std::string>> OptionalIdString(const FieldReader& r, const Json& parent,
                                                    const std::string& path, std::string_view key) {
  if (!parent.contains(std::string(key))) return std::optional<std::string>();
  GENTLE_ASSIGN_OR_RETURN(std::string id, IdString(r, parent, path, key));
  return std::optional<std::string>(std::move(id));
}

Result<std::string> TimeString(const FieldReader& r, const Json& parent, const std::string& path,
                               std::string_view key) {
  GENTLE_ASSIGN_OR_RETURN(std::string time, r.String(parent, path, key));
  if (!IsTimeOrEmpty(time)) {
    return r.Error(MemberPath(path, key), "expected an RFC 3339 timestamp or \"\"");
  }
  return time;
}

Result<ContextComment> ParseComment(const FieldReader& r, const Json& value,
                                    const std::string& path) {
  GENTLE_RETURN_IF_ERROR(r.ExpectObject(value, path));
  ContextComment c;
  GENTLE_ASSIGN_OR_RETURN(c.id, IdString(r, value, path, "id"));
  GENTLE_ASSIGN_OR_RETURN(const std::string channel, r.String(value, path, "channel"));
  GENTLE_ASSIGN_OR_RETURN(c.author, r.String(value, path, "author"));
  GENTLE_ASSIGN_OR_RETURN(c.body, r.String(value, path, "body"));
  GENTLE_ASSIGN_OR_RETURN(c.created_at, TimeString(r, value, path, "createdAt"));
  GENTLE_ASSIGN_OR_RETURN(c.path, r.OptionalString(value, path, "path"));
  GENTLE_ASSIGN_OR_RETURN(c.line, r.OptionalInteger(value, path, "line", 1));
  GENTLE_ASSIGN_OR_RETURN(c.parent_id, OptionalIdString(r, value, path, "parentId"));
  const std::optional<CommentChannel> parsed = ParseCommentChannel(channel);
  if (!parsed) return r.Error(MemberPath(path, "channel"), "expected \"inline\" or \"thread\"");
  c.channel = *parsed;
  const bool inline_channel = c.channel == CommentChannel::kInline;
  if (inline_channel != c.path.has_value() || (!inline_channel && c.line)) {
    return r.Error(path,
                   "an inline comment has a path (and may have a line), a thread one neither");
  }
  return c;
}

Result<ContextVerdict> ParseVerdict(const FieldReader& r, const Json& value,
                                    const std::string& path) {
  GENTLE_RETURN_IF_ERROR(r.ExpectObject(value, path));
  ContextVerdict v;
  GENTLE_ASSIGN_OR_RETURN(v.id, IdString(r, value, path, "id"));
  GENTLE_ASSIGN_OR_RETURN(v.author, r.String(value, path, "author"));
  GENTLE_ASSIGN_OR_RETURN(v.body, r.String(value, path, "body"));
  GENTLE_ASSIGN_OR_RETURN(std::string state, r.String(value, path, "state"));
  v.state = ForgeReviewState::FromText(std::move(state));
  GENTLE_ASSIGN_OR_RETURN(v.submitted_at, TimeString(r, value, path, "submittedAt"));
  GENTLE_ASSIGN_OR_RETURN(v.commit_id, r.OptionalString(value, path, "commitId"));
  GENTLE_ASSIGN_OR_RETURN(v.parent_id, OptionalIdString(r, value, path, "parentId"));
  return v;
}

template <typename T, typename F>
Result<std::vector<T>> ParseList(const FieldReader& r, const Json& root, std::string_view key,
                                 F parse_one) {
  const std::string path(key);
  const auto it = root.find(path);
  if (it == root.end()) return r.Error(path, "missing (expected an array)");
  GENTLE_RETURN_IF_ERROR(r.ExpectArray(*it, path));
  std::vector<T> out;
  for (size_t i = 0; i < it->size(); ++i) {
    GENTLE_ASSIGN_OR_RETURN(T item, parse_one(r, (*it)[i], IndexPath(path, i)));
    out.push_back(std::move(item));
  }
  return out;
}

}  // namespace

bool IdLess(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return a.size() < b.size();
  return a < b;
}

bool IsTimeOrEmpty(std::string_view text) {
  return text.empty() || ParseTimestamp(text).has_value();
}

bool CommentBefore(const ContextComment& a, const ContextComment& b) {
  return TimeThenIdLess(a.created_at, a.id, b.created_at, b.id);
}

bool VerdictBefore(const ContextVerdict& a, const ContextVerdict& b) {
  return TimeThenIdLess(a.submitted_at, a.id, b.submitted_at, b.id);
}

ContextVerdict CarrierOf(const ContextComment& comment) {
  ContextVerdict carrier;
  carrier.id = comment.id;
  carrier.author = comment.author;
  carrier.body = comment.body;
  carrier.state = ForgeReviewKind::kCommented;
  carrier.submitted_at = comment.created_at;
  carrier.parent_id = comment.parent_id;
  return carrier;
}

void SortReviewContext(ReviewContext* context) {
  std::stable_sort(context->comments.begin(), context->comments.end(), CommentBefore);
  std::stable_sort(context->verdicts.begin(), context->verdicts.end(), VerdictBefore);
  std::stable_sort(context->ledger_carriers.begin(), context->ledger_carriers.end(), VerdictBefore);
}

std::string RenderReviewContext(const ReviewContext& context) {
  Ordered out;
  out["schema"] = kReviewContextSchema;
  out["forge"] = std::string(ForgeName(context.forge));
  out["title"] = context.title;
  out["body"] = context.body;
  out["authorLogin"] = context.author_login;
  out["state"] = context.state;
  out["baseRefName"] = context.base_ref_name;
  out["headRefName"] = context.head_ref_name;
  out["headRefOid"] = context.head_ref_oid;
  if (context.additions) out["additions"] = *context.additions;
  if (context.deletions) out["deletions"] = *context.deletions;
  if (context.changed_files) out["changedFiles"] = *context.changed_files;
  out["comments"] = Ordered::array();
  for (const auto& c : context.comments) out["comments"].push_back(RenderComment(c));
  out["verdicts"] = Ordered::array();
  for (const auto& v : context.verdicts) out["verdicts"].push_back(RenderVerdict(v));
  out["ledgerCarriers"] = Ordered::array();
  for (const auto& v : context.ledger_carriers) out["ledgerCarriers"].push_back(RenderVerdict(v));
  return out.dump(2, ' ', false) + "\n";
}

Result<ReviewContext> ParseReviewContext(std::string_view text, const std::string& file) {
  const FieldReader r(Source{"review context", file});
  GENTLE_ASSIGN_OR_RETURN(Json root, ParseForgeJson(r.source(), text));
  GENTLE_RETURN_IF_ERROR(r.ExpectObject(root, ""));
  GENTLE_ASSIGN_OR_RETURN(std::string schema, r.String(root, "", "schema"));
  if (schema != kReviewContextSchema) {
    return r.Error("schema", "expected \"" + std::string(kReviewContextSchema) + "\"");
  }
  ReviewContext c;
  GENTLE_ASSIGN_OR_RETURN(const std::string forge, r.String(root, "", "forge"));
  const std::optional<Forge> parsed = ParseForge(forge);
  if (!parsed) return r.Error("forge", "expected " + ForgeNameList());
  c.forge = *parsed;
  GENTLE_ASSIGN_OR_RETURN(c.title, r.String(root, "", "title"));
  GENTLE_ASSIGN_OR_RETURN(c.body, r.String(root, "", "body"));
  GENTLE_ASSIGN_OR_RETURN(c.author_login, r.String(root, "", "authorLogin"));
  GENTLE_ASSIGN_OR_RETURN(c.state, r.String(root, "", "state"));
  GENTLE_ASSIGN_OR_RETURN(c.base_ref_name, r.String(root, "", "baseRefName"));
  GENTLE_ASSIGN_OR_RETURN(c.head_ref_name, r.String(root, "", "headRefName"));
  GENTLE_ASSIGN_OR_RETURN(c.head_ref_oid, r.String(root, "", "headRefOid"));
  GENTLE_ASSIGN_OR_RETURN(c.additions, r.OptionalInteger(root, "", "additions", 0));
  GENTLE_ASSIGN_OR_RETURN(c.deletions, r.OptionalInteger(root, "", "deletions", 0));
  GENTLE_ASSIGN_OR_RETURN(c.changed_files, r.OptionalInteger(root, "", "changedFiles", 0));
  GENTLE_ASSIGN_OR_RETURN(c.comments, ParseList<ContextComment>(r, root, "comments", ParseComment));
  GENTLE_ASSIGN_OR_RETURN(c.verdicts, ParseList<ContextVerdict>(r, root, "verdicts", ParseVerdict));
  GENTLE_ASSIGN_OR_RETURN(c.ledger_carriers,
                          ParseList<ContextVerdict>(r, root, "ledgerCarriers", ParseVerdict));
  // Sorted (the stable sort keeps a canonical file's order), each id once per list.
  ReviewContext sorted = c;
  SortReviewContext(&sorted);
  auto unique = [&](std::vector<std::string> ids, const std::string& path) {
    std::sort(ids.begin(), ids.end());
    const auto twice = std::adjacent_find(ids.begin(), ids.end());
    return twice == ids.end() ? Status::Ok() : r.Error(path, "id " + *twice + " twice");
  };
  std::vector<std::string> ids;
  for (const ContextComment& comment : c.comments) ids.push_back(comment.id);
  GENTLE_RETURN_IF_ERROR(unique(ids, "comments"));
  ids.clear();
  for (const ContextVerdict& verdict : c.verdicts) ids.push_back(verdict.id);
  GENTLE_RETURN_IF_ERROR(unique(ids, "verdicts"));
  ids.clear();
  for (const ContextVerdict& carrier : c.ledger_carriers) ids.push_back(carrier.id);
  GENTLE_RETURN_IF_ERROR(unique(ids, "ledgerCarriers"));
  if (RenderReviewContext(sorted) != text) {
    return r.Error("",
                   "not the canonical form `review context import` writes (members, order, "
                   "sorting, indentation or the final newline differ)");
  }
  return c;
}

}  // namespace gentle::forge
