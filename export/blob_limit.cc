#include "export/blob_limit.h"

#include <string>

#include "store/git/git_util.h"

namespace gentle::exporter {

Status RefuseHugeBlob(const std::vector<TreeChange>& changes, const std::vector<ChangeFacts>& facts,
                      uint64_t max_blob_bytes) {
  for (size_t i = 0; i < changes.size() && i < facts.size(); ++i) {
    if (!facts[i].known) break;
    const TreeChange& c = changes[i];
    const bool old_over = facts[i].old_side.size > max_blob_bytes;
    const bool new_over = facts[i].new_side.size > max_blob_bytes;
    if (!old_over && !new_over) continue;
    const uint64_t size = new_over ? facts[i].new_side.size : facts[i].old_side.size;
    const std::string object = store::git::OidHex(new_over ? c.new_oid : c.old_oid);
    const std::string limit = std::to_string(max_blob_bytes);
    return Status(Code::kBudgetExceeded, "the blob of " + c.path + " is " + std::to_string(size) +
                                             " bytes, over the limit of " + limit +
                                             " bytes on one blob; nothing is truncated")
        .WithDetail(DetailKey::kPath, c.path)
        .WithDetail(DetailKey::kObject, object)
        .WithDetail(DetailKey::kSize, std::to_string(size))
        .WithDetail(DetailKey::kLimit, limit);
  }
  return Status::Ok();
}

}  // namespace gentle::exporter
