#include "loop/pr_key.h"

#include "store/forge_name.h"

namespace gentle::loop {
namespace {

Status CheckName(std::string_view what, std::string_view s) {
  if (s.empty() || s.size() > kMaxPrNameBytes) {
    return Status(Code::kUsage, std::string(what) + " must be 1 to " +
                                    std::to_string(kMaxPrNameBytes) + " bytes");
  }
  if (s == "." || s == "..") {
    return Status(Code::kUsage, std::string(what) + " must not be . or ..");
  }
  for (char c : s) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '_' || c == '-';
    if (!ok) {
      return Status(Code::kUsage,
                    std::string(what) + " may hold only A-Z a-z 0-9 . _ - characters");
    }
  }
  return Status::Ok();
}

}  // namespace

Status CheckDecimal(std::string_view what, std::string_view text, size_t max_digits) {
  if (text.empty() || text.size() > max_digits || text[0] == '0' ||
      text.find_first_not_of("0123456789") != std::string_view::npos) {
    return Status(Code::kUsage, std::string(what) + " must be a decimal number >= 1 of at most " +
                                    std::to_string(max_digits) + " digits, without leading zeros");
  }
  return Status::Ok();
}

Result<PrKey> ParsePrKey(std::string_view text) {
  const std::string_view shape = " (expected FORGE:OWNER/REPO#N)";
  const size_t colon = text.find(':');
  if (colon == std::string_view::npos) {
    return Status(Code::kUsage, "PR key: no ':' after the forge" + std::string(shape));
  }
  const std::optional<store::Forge> forge = store::ParseForge(text.substr(0, colon));
  if (!forge) {
    return Status(Code::kUsage, "PR key: the forge must be github, gitea or aone");
  }
  const std::string_view rest = text.substr(colon + 1);
  const size_t slash = rest.find('/');
  const size_t hash = rest.find('#');
  if (slash == std::string_view::npos || hash == std::string_view::npos || hash < slash) {
    return Status(Code::kUsage, "PR key: no OWNER/REPO#N after the forge" + std::string(shape));
  }
  PrKey key;
  key.forge = *forge;
  const std::string_view owner = rest.substr(0, slash);
  const std::string_view repo = rest.substr(slash + 1, hash - slash - 1);
  const std::string_view number = rest.substr(hash + 1);
  GENTLE_RETURN_IF_ERROR(CheckName("PR key: the owner", owner));
  GENTLE_RETURN_IF_ERROR(CheckName("PR key: the repository", repo));
  GENTLE_RETURN_IF_ERROR(CheckDecimal("PR key: the number", number, kMaxPrNumberDigits));
  key.owner = std::string(owner);
  key.repo = std::string(repo);
  key.number = std::stoll(std::string(number));
  return key;
}

std::string FormatPrKey(const PrKey& key) {
  return std::string(store::ForgeName(key.forge)) + ":" + key.owner + "/" + key.repo + "#" +
         std::to_string(key.number);
}

}  // namespace gentle::loop
