// FuzzLineageId: see fuzz/entries.h. The reference is std::regex, run only on inputs short enough
// for libstdc++'s recursive matcher (the cap is 128 bytes; anything longer must be refused anyway).
#include <regex>

#include "fuzz/entries.h"
#include "store/layout.h"
#include "store/lineage_id.h"

namespace gentle::fuzz {

std::string FuzzLineageId(std::string_view data) {
  const bool valid = store::IsValidLineageId(data);
  const Status status = store::ValidateLineageId(data);
  if (valid != status.ok()) return "IsValidLineageId and ValidateLineageId disagree";
  if (!valid && status.code() != Code::kUsage) return "an invalid id is not usage";
  bool reference = false;
  if (data.size() <= store::kMaxLineageIdBytes) {
    static const std::regex kSyntax("^[a-z0-9]+(-[a-z0-9]+)*$");
    reference = std::regex_match(data.begin(), data.end(), kSyntax);
  }
  if (valid != reference) return valid ? "accepted an id the regex refuses" : "refused a valid id";
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
