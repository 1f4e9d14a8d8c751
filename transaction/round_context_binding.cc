#include "transaction/round_context_binding.h"

#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "store/go_json.h"
#include "store/round_context.h"
#include "store/sha256.h"

namespace gentle::transaction {
namespace {

constexpr size_t kMaxReasonBytes = 512;

Status Refuse(const std::string& file, const std::string& why) {
  return Status(Code::kUsage, "--context " + file + ": " + why).WithDetail("file", file);
}

bool IsDecimalId(const std::string& id) {
  return !id.empty() && id.size() <= 20 && id[0] != '0' &&
         std::all_of(id.begin(), id.end(), [](char c) { return c >= '0' && c <= '9'; });
}

Result<std::string> ReadContextFile(const std::string& file) {
  struct stat st;
  if (stat(file.c_str(), &st) != 0) return Refuse(file, "cannot read the file");
  if (!S_ISREG(st.st_mode)) return Refuse(file, "not a regular file");
  if (static_cast<size_t>(st.st_size) > kMaxContextFileBytes) {
    return Refuse(file, "larger than " + std::to_string(kMaxContextFileBytes) + " bytes");
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) return Refuse(file, "cannot read the file");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (bytes.str().size() > kMaxContextFileBytes) {
    return Refuse(file, "larger than " + std::to_string(kMaxContextFileBytes) + " bytes");
  }
  return bytes.str();
}

// The sorted, distinct comment ids of a ReviewContext document.
Result<std::vector<std::string>> LedgerIds(const std::string& file, const std::string& bytes) {
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(bytes);
  } catch (const nlohmann::json::exception&) {
    return Refuse(file, "not valid JSON");
  }
  if (!doc.is_object()) return Refuse(file, "$: expected an object");
  auto schema = doc.find("schema");
  if (schema == doc.end() || !schema->is_string() || *schema != kReviewContextSchema) {
    return Refuse(file, "$.schema: expected \"" + std::string(kReviewContextSchema) + "\"");
  }
  auto comments = doc.find("comments");
  if (comments == doc.end() || !comments->is_array()) {
    return Refuse(file, "$.comments: expected an array");
  }
  std::vector<std::string> ids;
  for (size_t i = 0; i < comments->size(); ++i) {
    const nlohmann::json& comment = (*comments)[i];
    const std::string where = "$.comments[" + std::to_string(i) + "].id";
    if (!comment.is_object() || !comment.contains("id") || !comment["id"].is_string()) {
      return Refuse(file, where + ": expected a string");
    }
    const std::string id = comment["id"];
    if (!IsDecimalId(id)) return Refuse(file, where + ": expected a decimal comment id");
    ids.push_back(id);
  }
  // Numeric order: ids have no leading zeros, so shorter is smaller.
  std::sort(ids.begin(), ids.end(), [](const std::string& a, const std::string& b) {
    return a.size() != b.size() ? a.size() < b.size() : a < b;
  });
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

Status CheckReason(const std::string& reason) {
  if (reason.empty() || reason.size() > kMaxReasonBytes || !store::IsValidUtf8(reason) ||
      reason.front() == ' ' || reason.back() == ' ' ||
      std::any_of(reason.begin(), reason.end(),
                  [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; })) {
    return Status(Code::kUsage, "--context-unavailable needs a one-line reason of 1 to " +
                                    std::to_string(kMaxReasonBytes) +
                                    " bytes without control characters or edge spaces");
  }
  return Status::Ok();
}

}  // namespace

Result<RoundContextBinding> ReadContextBinding(const ContextFlags& flags) {
  RoundContextBinding binding;
  if (flags.context_file && flags.unavailable_reason) {
    return Status(Code::kUsage, "--context and --context-unavailable exclude each other");
  }
  if (flags.unavailable_reason) {
    GENTLE_RETURN_IF_ERROR(CheckReason(*flags.unavailable_reason));
    binding.unavailable_reason = *flags.unavailable_reason;
  }
  if (flags.context_file) {
    if (flags.context_bytes) {
      binding.context_bytes = *flags.context_bytes;
    } else {
      GENTLE_ASSIGN_OR_RETURN(binding.context_bytes, ReadContextFile(*flags.context_file));
    }
    GENTLE_ASSIGN_OR_RETURN(binding.ledger_ids,
                            LedgerIds(*flags.context_file, binding.context_bytes));
    binding.context_digest = "sha256:" + store::Sha256Hex(binding.context_bytes);
  }
  return binding;
}

void AddToHistoryCommit(const RoundContextBinding& binding, store::HistoryCommitSpec* commit) {
  if (!binding.context_digest.empty()) {
    commit->files.emplace_back("context.json", binding.context_bytes);
    commit->trailers.emplace_back("Context", binding.context_digest);
  }
  if (!binding.unavailable_reason.empty()) {
    commit->trailers.emplace_back("Context-Unavailable", binding.unavailable_reason);
  }
}

Status CheckSameBinding(const store::git::Repository& repo, const store::RecordView& record,
                        const RoundContextBinding& wanted) {
  GENTLE_ASSIGN_OR_RETURN(std::optional<store::HistoryCommit> tip,
                          store::ReadHistoryTip(repo, record.lineage_id));
  std::optional<store::RoundContext> round;
  if (tip) {
    GENTLE_ASSIGN_OR_RETURN(round, store::ReadRoundContext(repo, tip->id, record.generation));
  }
  const std::string digest = round ? round->context_digest : "";
  const std::string reason = round ? round->unavailable_reason : "";
  if (digest == wanted.context_digest && reason == wanted.unavailable_reason) return Status::Ok();
  return Status(Code::kConflict, "lineage " + record.lineage_id + " already holds this candidate " +
                                     "in round " + std::to_string(record.generation) +
                                     " with another review-context binding")
      .WithLineage(record.lineage_id)
      .WithDetail("context_digest", digest)
      .WithDetail("context_unavailable", reason);
}

}  // namespace gentle::transaction
