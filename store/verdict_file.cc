#include "store/verdict_file.h"

#include <nlohmann/json.hpp>
#include <set>

namespace gentle::store {
namespace {

Status Bad(const std::string& why) {
  return Status(Code::kCorrupted, "verdict file does not parse: " + why);
}

std::string* FieldOf(VerdictFileFields* out, std::string_view key) {
  if (key == "verdict") return &out->verdict;
  if (key == "actor") return &out->actor;
  if (key == "role") return &out->role;
  if (key == "at") return &out->at;
  if (key == "from_state") return &out->from_state;
  if (key == "to_state") return &out->to_state;
  if (key == "body_sha256") return &out->body_sha256;
  return nullptr;
}

}  // namespace

Result<VerdictFileFields> ParseVerdictFile(std::string_view text) {
  constexpr std::string_view kFence = "---\n";
  if (text.substr(0, kFence.size()) != kFence) return Bad("no opening ---");
  VerdictFileFields out;
  std::set<std::string, std::less<>> seen;
  size_t at = kFence.size();
  while (true) {
    const size_t end = text.find('\n', at);
    if (end == std::string_view::npos) return Bad("no closing ---");
    const std::string_view line = text.substr(at, end - at);
    at = end + 1;
    if (line == "---") break;
    const size_t colon = line.find(": ");
    if (colon == std::string_view::npos) return Bad("a front matter line without \": \"");
    const std::string_view key = line.substr(0, colon);
    std::string* field = FieldOf(&out, key);
    if (field == nullptr) return Bad("unknown key " + std::string(key));
    if (!seen.emplace(key).second) return Bad("key " + std::string(key) + " twice");
    const auto value = nlohmann::json::parse(line.substr(colon + 2), nullptr, false);
    if (!value.is_string()) return Bad("the value of " + std::string(key) + " is not a string");
    *field = value.get<std::string>();
  }
  out.body = std::string(text.substr(at));
  return out;
}

}  // namespace gentle::store
