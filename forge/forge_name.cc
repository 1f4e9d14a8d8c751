#include "forge/forge_name.h"

#include <array>

namespace gentle::forge {

std::string ForgeNameList() {
  constexpr std::array<Forge, 3> kOrder = {Forge::kGithub, Forge::kAone, Forge::kGitea};
  std::string out;
  for (size_t i = 0; i < kOrder.size(); ++i) {
    if (i != 0) out += i + 1 == kOrder.size() ? " or " : ", ";
    out += ForgeName(kOrder[i]);
  }
  return out;
}

}  // namespace gentle::forge
