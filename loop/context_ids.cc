#include "loop/context_ids.h"

#include <nlohmann/json.hpp>
#include <set>
#include <utility>

#include "forge/review_context.h"
#include "loop/comment_id.h"
#include "store/named_file.h"
#include "store/strict_json.h"

namespace gentle::loop {
namespace {

constexpr size_t kMaxDepth = 64;
using Kind = ContextIdsRefusal::Kind;

bool Refuse(Kind kind, std::string path, std::string reason, ContextIdsRefusal* why) {
  *why = ContextIdsRefusal{kind, std::move(path), std::move(reason)};
  return false;
}

// The ids of the array `key` of `doc` (each object's string `id`), as `kind`, appended to `out`
// each once.
bool AppendIds(const nlohmann::json& doc, const std::string& key, store::ForgeIdKind kind,
               std::vector<SeenId>* out, std::set<SeenId>* seen, ContextIdsRefusal* why) {
  const nlohmann::json& list = doc.at(key);
  for (size_t i = 0; i < list.size(); ++i) {
    const nlohmann::json& item = list[i];
    const std::string at = key + "[" + std::to_string(i) + "]";
    if (!item.is_object()) return Refuse(Kind::kNotObject, at, "must be an object", why);
    auto id = item.find("id");
    if (id == item.end() || !id->is_string()) {
      return Refuse(Kind::kIdNotString, at + ".id", "must be a string", why);
    }
    const std::string& text_id = id->get_ref<const std::string&>();
    if (Status st = CheckCommentId(text_id); !st.ok()) {
      return Refuse(Kind::kIdInvalid, at + ".id", st.message(), why);
    }
    SeenId typed{kind, text_id};
    if (seen->insert(typed).second) out->push_back(std::move(typed));
  }
  return true;
}

}  // namespace

bool ReadContextIdList(std::string_view text, std::vector<SeenId>* ids, ContextIdsRefusal* why) {
  ids->clear();
  if (text.size() > kMaxContextBytes) {
    return Refuse(Kind::kTooLarge, "$", "larger than 64 MiB (67108864 bytes)", why);
  }
  nlohmann::json doc;
  store::StrictJsonRefusal refusal;
  if (!store::ParseStrictJson(text, kMaxDepth, &doc, &refusal)) {
    std::string reason = "not valid JSON";
    if (refusal.kind == store::StrictJsonRefusal::Kind::kDuplicateKey) {
      reason = "an object holds the key \"" + refusal.detail + "\" twice";
    } else if (refusal.kind == store::StrictJsonRefusal::Kind::kTooDeep) {
      reason = "nested deeper than " + std::to_string(kMaxDepth) + " levels";
    }
    return Refuse(Kind::kNotJson, "$", reason, why);
  }
  if (!doc.is_object()) return Refuse(Kind::kNotObject, "$", "must be an object", why);
  auto schema = doc.find("schema");
  if (schema == doc.end() || !schema->is_string() ||
      schema->get_ref<const std::string&>() != forge::kReviewContextSchema) {
    return Refuse(Kind::kSchema, "schema",
                  "must be \"" + std::string(forge::kReviewContextSchema) + "\"", why);
  }
  auto comments = doc.find("comments");
  if (comments == doc.end() || !comments->is_array()) {
    return Refuse(Kind::kNotArray, "comments", "must be an array", why);
  }
  auto verdicts = doc.find("verdicts");
  if (verdicts != doc.end() && !verdicts->is_array()) {
    return Refuse(Kind::kNotArray, "verdicts", "must be an array", why);
  }
  std::set<SeenId> seen;
  if (!AppendIds(doc, "comments", store::ForgeIdKind::kComment, ids, &seen, why)) return false;
  return verdicts == doc.end() ||
         AppendIds(doc, "verdicts", store::ForgeIdKind::kReview, ids, &seen, why);
}

Result<std::vector<SeenId>> ParseContextIds(std::string_view text, const std::string& name) {
  std::vector<SeenId> ids;
  ContextIdsRefusal why;
  if (ReadContextIdList(text, &ids, &why)) return ids;
  if (why.kind == Kind::kTooLarge) {
    return Status(Code::kUsage, "context " + name + ": " + why.reason)
        .WithDetail(DetailKey::kFile, name);
  }
  return Status(Code::kUsage, "context " + name + ": " + why.path + ": " + why.reason)
      .WithDetail(DetailKey::kFile, name)
      .WithDetail(DetailKey::kJsonPath, why.path);
}

Result<std::vector<SeenId>> ReadContextIds(const std::string& path) {
  // One byte past the limit is read, so that ParseContextIds refuses a larger file by its size.
  auto text = store::ReadNamedFile(path, kMaxContextBytes + 1);
  if (!text.ok()) {
    return Status(Code::kUsage, "context " + path + ": " + text.status().message())
        .WithDetail(DetailKey::kFile, path);
  }
  return ParseContextIds(*text, path);
}

}  // namespace gentle::loop
