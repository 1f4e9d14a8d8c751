#include "forge/forge_name.h"

#include <array>
#include <utility>

namespace gentle::forge {
namespace {

constexpr std::array<std::pair<Forge, std::string_view>, 3> kNames = {{
    {Forge::kGithub, "github"},
    {Forge::kAone, "aone"},
    {Forge::kGitea, "gitea"},
}};

}  // namespace

std::string_view ForgeName(Forge forge) {
  for (const auto& [value, name] : kNames) {
    if (value == forge) return name;
  }
  return "unknown";
}

std::optional<Forge> ParseForge(std::string_view name) {
  for (const auto& [value, known] : kNames) {
    if (known == name) return value;
  }
  return std::nullopt;
}

std::string ForgeNameList() {
  std::string out;
  for (size_t i = 0; i < kNames.size(); ++i) {
    if (i != 0) out += i + 1 == kNames.size() ? " or " : ", ";
    out += kNames[i].second;
  }
  return out;
}

}  // namespace gentle::forge
