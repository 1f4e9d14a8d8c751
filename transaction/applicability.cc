#include "transaction/applicability.h"

namespace gentle::transaction {

std::string_view ApplicabilityName(Applicability applicability) {
  switch (applicability) {
    case Applicability::kCurrentTarget:
      return "current_target";
    case Applicability::kAmbiguous:
      return "ambiguous";
    case Applicability::kUnrelated:
      return "unrelated";
    case Applicability::kCorrupted:
      return "corrupted";
    case Applicability::kIncomplete:
      return "incomplete";
  }
  return "unrelated";  // unreachable: the switch names every enumerator
}

}  // namespace gentle::transaction
