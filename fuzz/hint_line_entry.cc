// FuzzHintLine: see fuzz/entries.h. The parser accepts only the canonical line, so an accepted
// input must be exactly the line its fields render to, restated here independently.
#include "fuzz/entries.h"
#include "loop/hint.h"

namespace gentle::fuzz {

std::string FuzzHintLine(std::string_view data) {
  auto hint = loop::ParseHint(data);
  if (!hint.ok()) {
    return hint.status().code() == Code::kUsage ? "" : "a refused hint is not usage";
  }
  std::string line = "[pr-daemon] " + loop::FormatPrKey(hint->pr) + " reason=";
  for (size_t i = 0; i < hint->reasons.size(); ++i) {
    if (i > 0) line += ",";
    line += hint->reasons[i];
  }
  line += " skill=" + hint->skill + " updated=" + hint->updated;
  if (line != data) return "an accepted hint is not the line its fields render to";
  if (hint->skill != "land" && hint->skill != "review-pr") return "accepted another skill";
  if (hint->pr.number < 1) return "accepted a PR number below 1";
  for (char c : data) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7f) return "accepted a control or non-ASCII byte";
  }
  return "";
}

}  // namespace gentle::fuzz
