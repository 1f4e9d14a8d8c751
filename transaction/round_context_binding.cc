#include "transaction/round_context_binding.h"

#include <algorithm>

#include "forge/review_context.h"
#include "loop/context_ids.h"
#include "store/go_json.h"
#include "store/named_file.h"
#include "store/round_context.h"
#include "store/sha256.h"

namespace gentle::transaction {
namespace {

constexpr size_t kMaxReasonBytes = 512;

Status Refuse(const std::string& file, const std::string& why) {
  return Status(Code::kUsage, "--context " + file + ": " + why).WithDetail(DetailKey::kFile, file);
}

Result<std::string> ReadContextFile(const std::string& file) {
  auto bytes = store::ReadNamedFile(file, kMaxContextFileBytes);
  if (!bytes.ok()) return Refuse(file, bytes.status().message());
  return bytes;
}

// The sorted, distinct comment ids of a ReviewContext document, read by the format's one lenient
// reader (loop/context_ids.h); its refusal worded as --context's.
Result<std::vector<std::string>> LedgerIds(const std::string& file, const std::string& bytes) {
  std::vector<loop::SeenId> read;
  loop::ContextIdsRefusal why;
  if (!loop::ReadContextIdList(bytes, &read, &why)) {
    using Kind = loop::ContextIdsRefusal::Kind;
    const std::string at = why.path == "$" ? "$" : "$." + why.path;
    switch (why.kind) {
      case Kind::kTooLarge:
        return Refuse(file, why.reason);
      case Kind::kNotJson:
        return Refuse(file, "not valid JSON");
      case Kind::kNotObject:
        // A list item that is no object has no string id.
        return Refuse(file, at == "$" ? "$: expected an object" : at + ".id: expected a string");
      case Kind::kSchema:
        return Refuse(file, at + ": expected \"" + std::string(forge::kReviewContextSchema) + "\"");
      case Kind::kNotArray:
        return Refuse(file, at + ": expected an array");
      case Kind::kIdNotString:
        return Refuse(file, at + ": expected a string");
      case Kind::kIdInvalid:
        return Refuse(file, at + ": expected a decimal comment id");
    }
    return Refuse(file, "not valid JSON");
  }
  std::vector<std::string> ids;
  for (const loop::SeenId& id : read) {
    if (id.kind == store::ForgeIdKind::kComment) ids.push_back(id.id);
  }
  // Numeric order: ids have no leading zeros, so shorter is smaller. The reader gives each once.
  std::sort(ids.begin(), ids.end(), [](const std::string& a, const std::string& b) {
    return a.size() != b.size() ? a.size() < b.size() : a < b;
  });
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
    GENTLE_ASSIGN_OR_RETURN(round, store::ReadRoundContext(repo, tip->id, record.round));
  }
  const std::string digest = round ? round->context_digest : "";
  const std::string reason = round ? round->unavailable_reason : "";
  if (digest == wanted.context_digest && reason == wanted.unavailable_reason) return Status::Ok();
  return Status(Code::kConflict, "lineage " + record.lineage_id + " already holds this candidate " +
                                     "in round " + std::to_string(record.round) +
                                     " with another review-context binding")
      .WithLineage(record.lineage_id)
      .WithDetail(DetailKey::kContextDigest, digest)
      .WithDetail(DetailKey::kContextUnavailable, reason);
}

}  // namespace gentle::transaction
