// FuzzLineageId: see fuzz/entries.h. The reference is the regex ^[a-z0-9]+(-[a-z0-9]+)*$ restated
// independently of the implementation: the id split at '-' gives only non-empty runs of [a-z0-9].
// (Not std::regex: libstdc++'s matcher recurses per character, and gcc 12 warns inside it under
// -fsanitize=address -Werror.)
#include "fuzz/entries.h"
#include "store/layout.h"
#include "store/lineage_id.h"

namespace gentle::fuzz {
namespace {

bool ReferenceValid(std::string_view id) {
  if (id.empty() || id.size() > 128) return false;
  size_t start = 0;
  while (true) {
    const size_t dash = id.find('-', start);
    const std::string_view part =
        id.substr(start, dash == std::string_view::npos ? std::string_view::npos : dash - start);
    if (part.empty()) return false;
    for (char c : part) {
      if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) return false;
    }
    if (dash == std::string_view::npos) return true;
    start = dash + 1;
  }
}

}  // namespace

std::string FuzzLineageId(std::string_view data) {
  const bool valid = store::IsValidLineageId(data);
  const Status status = store::ValidateLineageId(data);
  if (valid != status.ok()) return "IsValidLineageId and ValidateLineageId disagree";
  if (!valid && status.code() != Code::kUsage) return "an invalid id is not usage";
  if (valid != ReferenceValid(data)) {
    return valid ? "accepted an id the syntax refuses" : "refused a valid id";
  }
  if (valid) {
    const std::string id(data);
    const std::string path = store::StoreLayout("/c").record_path(id);
    if (path != "/c/gentle-ai/review-transactions/v2/" + id + "/review-state.json" ||
        id.find_first_of("/.\\") != std::string::npos) {
      return "a valid id builds a path outside its lineage directory";
    }
  }
  return "";
}

}  // namespace gentle::fuzz
