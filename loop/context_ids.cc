#include "loop/context_ids.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>

#include "forge/review_context.h"
#include "loop/comment_id.h"
#include "store/strict_json.h"

namespace gentle::loop {
namespace {

constexpr size_t kMaxDepth = 64;

Status Bad(const std::string& name, const std::string& path, const std::string& why) {
  return Status(Code::kUsage, "context " + name + ": " + path + ": " + why)
      .WithDetail("file", name)
      .WithDetail("json_path", path);
}

// The ids of the array `key` of `doc` (each object's string `id`), as `kind`, appended to `out`
// each once.
Status AppendIds(const nlohmann::json& doc, const std::string& key, store::ForgeIdKind kind,
                 const std::string& name, std::vector<SeenId>* out, std::set<SeenId>* seen) {
  const nlohmann::json& list = doc.at(key);
  for (size_t i = 0; i < list.size(); ++i) {
    const nlohmann::json& item = list[i];
    const std::string at = key + "[" + std::to_string(i) + "]";
    if (!item.is_object()) return Bad(name, at, "must be an object");
    auto id = item.find("id");
    if (id == item.end() || !id->is_string()) return Bad(name, at + ".id", "must be a string");
    const std::string& text_id = id->get_ref<const std::string&>();
    if (Status st = CheckCommentId(text_id); !st.ok()) return Bad(name, at + ".id", st.message());
    SeenId typed{kind, text_id};
    if (seen->insert(typed).second) out->push_back(std::move(typed));
  }
  return Status::Ok();
}

}  // namespace

Result<std::vector<SeenId>> ParseContextIds(std::string_view text, const std::string& name) {
  if (text.size() > kMaxContextBytes) {
    return Status(Code::kUsage, "context " + name + ": larger than 64 MiB (67108864 bytes)")
        .WithDetail("file", name);
  }
  nlohmann::json doc;
  store::StrictJsonRefusal why;
  if (!store::ParseStrictJson(text, kMaxDepth, &doc, &why)) {
    std::string reason = "not valid JSON";
    if (why.kind == store::StrictJsonRefusal::Kind::kDuplicateKey) {
      reason = "an object holds the key \"" + why.detail + "\" twice";
    } else if (why.kind == store::StrictJsonRefusal::Kind::kTooDeep) {
      reason = "nested deeper than " + std::to_string(kMaxDepth) + " levels";
    }
    return Bad(name, "$", reason);
  }
  if (!doc.is_object()) return Bad(name, "$", "must be an object");
  auto schema = doc.find("schema");
  if (schema == doc.end() || !schema->is_string() ||
      schema->get_ref<const std::string&>() != forge::kReviewContextSchema) {
    return Bad(name, "schema", "must be \"" + std::string(forge::kReviewContextSchema) + "\"");
  }
  auto comments = doc.find("comments");
  if (comments == doc.end() || !comments->is_array()) {
    return Bad(name, "comments", "must be an array");
  }
  auto verdicts = doc.find("verdicts");
  if (verdicts != doc.end() && !verdicts->is_array()) {
    return Bad(name, "verdicts", "must be an array");
  }
  std::vector<SeenId> ids;
  std::set<SeenId> seen;
  GENTLE_RETURN_IF_ERROR(
      AppendIds(doc, "comments", store::ForgeIdKind::kComment, name, &ids, &seen));
  if (verdicts != doc.end()) {
    GENTLE_RETURN_IF_ERROR(
        AppendIds(doc, "verdicts", store::ForgeIdKind::kReview, name, &ids, &seen));
  }
  return ids;
}

Result<std::vector<SeenId>> ReadContextIds(const std::string& path) {
  std::FILE* in = std::fopen(path.c_str(), "rb");
  if (in == nullptr) {
    return Status(Code::kUsage, "context " + path + ": cannot be read").WithDetail("file", path);
  }
  std::string text;
  char buffer[65536];
  while (text.size() <= kMaxContextBytes) {
    const size_t n =
        std::fread(buffer, 1, std::min(sizeof buffer, kMaxContextBytes + 1 - text.size()), in);
    if (n == 0) break;
    text.append(buffer, n);
  }
  const bool failed = std::ferror(in) != 0;
  std::fclose(in);
  if (failed) {
    return Status(Code::kUsage, "context " + path + ": cannot be read").WithDetail("file", path);
  }
  return ParseContextIds(text, path);
}

}  // namespace gentle::loop
