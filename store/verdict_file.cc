#include "store/verdict_file.h"

#include <nlohmann/json.hpp>
#include <set>
#include <utility>

namespace gentle::store {
namespace {

Status Bad(const std::string& why) {
  return Status(Code::kCorrupted, "verdict file does not parse: " + why);
}

// The front matter's values as written, before the words among them are parsed.
struct RawFields {
  std::string verdict, actor, role, at, from_state, to_state, body_sha256;
};

std::string* FieldOf(RawFields* out, std::string_view key) {
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
  RawFields raw;
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
    std::string* field = FieldOf(&raw, key);
    if (field == nullptr) return Bad("unknown key " + std::string(key));
    if (!seen.emplace(key).second) return Bad("key " + std::string(key) + " twice");
    const auto value = nlohmann::json::parse(line.substr(colon + 2), nullptr, false);
    if (!value.is_string()) return Bad("the value of " + std::string(key) + " is not a string");
    *field = value.get<std::string>();
  }
  VerdictFileFields out;
  out.verdict = VerdictWord::FromText(std::move(raw.verdict));
  out.role = RoleWord::FromText(std::move(raw.role));
  out.from_state = StateName::FromText(std::move(raw.from_state));
  out.to_state = StateName::FromText(std::move(raw.to_state));
  out.actor = std::move(raw.actor);
  out.at = std::move(raw.at);
  out.body_sha256 = std::move(raw.body_sha256);
  out.body = std::string(text.substr(at));
  return out;
}

}  // namespace gentle::store
