#include "store/lineage_id.h"

#include <string>

namespace gentle::store {

bool IsValidLineageId(std::string_view id) {
  if (id.empty() || id.size() > kMaxLineageIdBytes) return false;
  bool previous_was_dash = true;  // forbids a leading dash
  for (char c : id) {
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (c == '-') {
      if (previous_was_dash) return false;
      previous_was_dash = true;
    } else if (alnum) {
      previous_was_dash = false;
    } else {
      return false;
    }
  }
  return !previous_was_dash;
}

Status ValidateLineageId(std::string_view id) {
  if (IsValidLineageId(id)) return Status::Ok();
  std::string reason = id.empty()                       ? "is empty"
                       : id.size() > kMaxLineageIdBytes ? "is longer than 128 bytes"
                                                        : "must match ^[a-z0-9]+(-[a-z0-9]+)*$";
  return Status(Code::kUsage, "invalid lineage id: " + reason);
}

}  // namespace gentle::store
