#include "transaction/context_cap.h"

#include "transaction/config_flag.h"

namespace gentle::transaction {

RoundBinding BindingOf(const std::optional<store::RoundContext>& round) {
  if (round && !round->unavailable_reason.empty()) return RoundBinding::kUnavailable;
  if (round && !round->context_digest.empty()) return RoundBinding::kBound;
  return RoundBinding::kUnbound;
}

Result<bool> RequireContext(const store::git::Repository& repo) {
  return ConfigFlag(repo, kRequireContextKey);
}

bool RequireContextOrTrue(const store::git::Repository& repo) {
  const Result<bool> required = RequireContext(repo);
  return !required.ok() || *required;
}

bool ApproveCapped(RoundBinding binding, bool require_context) {
  switch (binding) {
    case RoundBinding::kBound:
      return false;
    case RoundBinding::kUnavailable:
      return true;
    case RoundBinding::kUnbound:
      return require_context;
  }
  return true;  // unreachable: the switch names every enumerator
}

}  // namespace gentle::transaction
