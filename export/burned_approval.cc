#include "export/burned_approval.h"

#include <optional>

#include "store/history_ref.h"
#include "store/history_verb.h"

namespace gentle::exporter {

Result<store::RecordView> BurnedApproval(const store::git::Repository& repo,
                                         const std::string& lineage) {
  GENTLE_ASSIGN_OR_RETURN(std::optional<store::HistoryCommit> tip,
                          store::ReadHistoryTip(repo, lineage));
  if (!tip || !tip->verb.Is(store::HistoryVerb::kBurn)) {
    return Status(Code::kConsumed,
                  "lineage " + lineage + " was burned and no history holds its approval")
        .WithLineage(lineage);
  }
  auto record = store::ParseRecordFile(tip->record_file, lineage);
  if (!record.ok()) {
    return Status(Code::kCorrupted,
                  "the burn commit of lineage " + lineage +
                      " holds a record that does not verify: " + record.status().message())
        .WithLineage(lineage);
  }
  return record;
}

}  // namespace gentle::exporter
