// RoundGenerated: the generated paths of one review round, as frozen in the lineage's history
// (store/generated_paths.h: the `generated-paths` file of the start or revise commit that opened
// the round, found as store/round_context.h finds it). Read-only.
//
// Empty when the round's opening commit has no such file (no entry was marked), and when the
// history holds no opening commit of the round (a lineage without a history ref, or a round
// another tool opened): nothing is then summarised, and the review view shows every entry whole.
// A file that does not decode is `corrupted` (details file).
#ifndef GENTLE_EXPORT_ROUND_GENERATED_H_
#define GENTLE_EXPORT_ROUND_GENERATED_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/git/repository.h"
#include "store/history_ref.h"
#include "store/status.h"

namespace gentle::exporter {

// `tip`: the history commit to walk from (RoundHistory::tip, export/round_record.h).
Result<std::vector<std::string>> ReadRoundGenerated(const store::git::Repository& repo,
                                                    const std::optional<store::HistoryCommit>& tip,
                                                    int64_t round);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_ROUND_GENERATED_H_
