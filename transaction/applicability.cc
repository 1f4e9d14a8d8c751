#include "transaction/applicability.h"

#include "store/name_table.h"

namespace gentle::transaction {

namespace {
constexpr store::NameTable kApplicabilityNames = store::MakeNameTable<Applicability>({
    {Applicability::kCurrentTarget, "current_target"},
    {Applicability::kAmbiguous, "ambiguous"},
    {Applicability::kUnrelated, "unrelated"},
    {Applicability::kCorrupted, "corrupted"},
    {Applicability::kIncomplete, "incomplete"},
});
}  // namespace

std::string_view ApplicabilityName(Applicability applicability) {
  return kApplicabilityNames.Name(applicability);
}

}  // namespace gentle::transaction
