#include "watch/pr_meta.h"

#include <time.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "forge/json_field.h"
#include "forge/timestamp.h"
#include "store/strict_json.h"

namespace gentle::watch {
namespace {

using forge::FieldReader;
using forge::Json;

constexpr size_t kMaxDepth = 32;

Status Corrupted(const Status& status) {
  return Status(Code::kCorrupted, "forge answer: " + status.message());
}

Result<Json> ParseAnswer(std::string_view json, std::string_view what) {
  Json out;
  store::StrictJsonRefusal why;
  if (!store::ParseStrictJson(json, kMaxDepth, &out, &why)) {
    return Status(
        Code::kCorrupted,
        "forge answer " + std::string(what) + ": not JSON (" +
            (why.kind == store::StrictJsonRefusal::Kind::kTooDeep  ? std::string("nested too deep")
             : why.kind == store::StrictJsonRefusal::Kind::kSyntax ? std::string("syntax")
                                                                   : "a duplicate key") +
            ")");
  }
  return out;
}

Result<std::string> UtcSeconds(const FieldReader& fields, const std::string& path,
                               const std::string& text) {
  std::optional<forge::Instant> instant = forge::ParseTimestamp(text);
  if (!instant) return fields.Error(path, "not an RFC 3339 time");
  const time_t seconds = static_cast<time_t>(instant->seconds);
  struct tm tm {};
  if (gmtime_r(&seconds, &tm) == nullptr || tm.tm_year + 1900 < 0 || tm.tm_year + 1900 > 9999) {
    return fields.Error(path, "a time out of range");
  }
  char out[32];
  strftime(out, sizeof out, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return std::string(out);
}

Result<PrMeta> ReadPr(const FieldReader& fields, const Json& pr, const std::string& path) {
  GENTLE_RETURN_IF_ERROR(fields.ExpectObject(pr, path));
  PrMeta meta;
  GENTLE_ASSIGN_OR_RETURN(std::optional<int64_t> number,
                          fields.OptionalInteger(pr, path, "number", 1));
  if (!number) return fields.Error(forge::MemberPath(path, "number"), "missing");
  meta.number = *number;
  GENTLE_ASSIGN_OR_RETURN(std::string state_text, fields.String(pr, path, "state"));
  // The forge says open or closed; merged is its own member.
  const std::optional<ForgePrState> state = ParseForgePrState(state_text);
  if (!state || *state == ForgePrState::kMerged) {
    return fields.Error(forge::MemberPath(path, "state"), "expected open or closed");
  }
  GENTLE_ASSIGN_OR_RETURN(bool merged, fields.OptionalBool(pr, path, "merged", false));
  GENTLE_ASSIGN_OR_RETURN(std::optional<std::string> merged_at,
                          fields.OptionalString(pr, path, "merged_at"));
  meta.state = merged || merged_at ? ForgePrState::kMerged : *state;
  GENTLE_ASSIGN_OR_RETURN(meta.draft, fields.OptionalBool(pr, path, "draft", false));
  auto mergeable = pr.find("mergeable");
  if (mergeable != pr.end() && !mergeable->is_null()) {
    if (!mergeable->is_boolean()) {
      return fields.Error(forge::MemberPath(path, "mergeable"), "expected a boolean");
    }
    meta.mergeable = mergeable->get<bool>();
  }
  GENTLE_ASSIGN_OR_RETURN(const Json* head, fields.OptionalObject(pr, path, "head"));
  if (head == nullptr) return fields.Error(forge::MemberPath(path, "head"), "missing");
  const std::string head_path = forge::MemberPath(path, "head");
  GENTLE_ASSIGN_OR_RETURN(meta.head_sha, fields.String(*head, head_path, "sha"));
  GENTLE_ASSIGN_OR_RETURN(meta.head_ref, fields.String(*head, head_path, "ref"));
  GENTLE_ASSIGN_OR_RETURN(std::string updated, fields.String(pr, path, "updated_at"));
  GENTLE_ASSIGN_OR_RETURN(meta.updated_at,
                          UtcSeconds(fields, forge::MemberPath(path, "updated_at"), updated));
  auto labels = pr.find("labels");
  if (labels != pr.end() && !labels->is_null()) {
    const std::string labels_path = forge::MemberPath(path, "labels");
    GENTLE_RETURN_IF_ERROR(fields.ExpectArray(*labels, labels_path));
    if (labels->size() > kMaxLabels) return fields.Error(labels_path, "more than 100 labels");
    for (size_t i = 0; i < labels->size(); ++i) {
      GENTLE_ASSIGN_OR_RETURN(
          std::string name, fields.String((*labels)[i], forge::IndexPath(labels_path, i), "name"));
      meta.labels.push_back(std::move(name));
    }
    std::sort(meta.labels.begin(), meta.labels.end());
  }
  return meta;
}

FieldReader Reader(std::string_view what) {
  return FieldReader(forge::Source{std::string(what), "forge"});
}

}  // namespace

Result<PrMeta> ParsePrMeta(std::string_view json, std::string_view what) {
  GENTLE_ASSIGN_OR_RETURN(Json pr, ParseAnswer(json, what));
  auto meta = ReadPr(Reader(what), pr, "");
  if (!meta.ok()) return Corrupted(meta.status());
  return meta;
}

Result<std::vector<PrMeta>> ParsePrList(std::string_view json, std::string_view what) {
  GENTLE_ASSIGN_OR_RETURN(Json list, ParseAnswer(json, what));
  const FieldReader fields = Reader(what);
  if (Status array = fields.ExpectArray(list, ""); !array.ok()) return Corrupted(array);
  if (list.size() > kMaxListedIds) return Status(Code::kCorrupted, "forge answer: too many PRs");
  std::vector<PrMeta> out;
  for (size_t i = 0; i < list.size(); ++i) {
    auto meta = ReadPr(fields, list[i], forge::IndexPath("", i));
    if (!meta.ok()) return Corrupted(meta.status());
    out.push_back(std::move(meta).value());
  }
  return out;
}

Result<std::vector<std::string>> ParseIdList(std::string_view json, std::string_view what,
                                             std::vector<int64_t>* comment_counts) {
  GENTLE_ASSIGN_OR_RETURN(Json list, ParseAnswer(json, what));
  const FieldReader fields = Reader(what);
  if (Status array = fields.ExpectArray(list, ""); !array.ok()) return Corrupted(array);
  if (list.size() > kMaxListedIds) return Status(Code::kCorrupted, "forge answer: too many ids");
  std::vector<std::string> out;
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string path = forge::IndexPath("", i);
    if (Status object = fields.ExpectObject(list[i], path); !object.ok()) return Corrupted(object);
    auto id = fields.Id(list[i], path, "id");
    if (!id.ok()) return Corrupted(id.status());
    out.push_back(std::move(id).value());
    if (comment_counts != nullptr) {
      auto count = fields.OptionalInteger(list[i], path, "comments_count", 0);
      if (!count.ok()) return Corrupted(count.status());
      comment_counts->push_back(count->value_or(0));
    }
  }
  return out;
}

std::string EncodePrMeta(const PrMeta& meta) {
  nlohmann::ordered_json out;
  out["number"] = meta.number;
  const bool merged = meta.state == ForgePrState::kMerged;
  out["state"] = ForgePrStateName(merged ? ForgePrState::kClosed : meta.state);
  out["merged"] = merged;
  out["draft"] = meta.draft;
  out["mergeable"] = meta.mergeable ? nlohmann::ordered_json(*meta.mergeable) : nullptr;
  out["head"] = {{"sha", meta.head_sha}, {"ref", meta.head_ref}};
  out["updated_at"] = meta.updated_at;
  out["labels"] = nlohmann::ordered_json::array();
  for (const std::string& label : meta.labels) out["labels"].push_back({{"name", label}});
  return out.dump();
}

Result<PrMeta> DecodePrMeta(std::string_view json) { return ParsePrMeta(json, "watch state"); }

}  // namespace gentle::watch
