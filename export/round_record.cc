#include "export/round_record.h"

#include "export/context_export.h"
#include "store/fetched_lineage.h"

namespace gentle::exporter {
namespace {

// A first-parent chain longer than this is not one this tool wrote.
constexpr int kMaxWalkedCommits = 100000;

}  // namespace

Result<RoundHistory> ReadRoundHistory(const store::git::Repository& repo,
                                      const std::string& lineage) {
  RoundHistory out;
  auto loaded = LoadForRead(repo, lineage);
  const bool consumed = !loaded.ok() && loaded.status().code() == Code::kConsumed;
  if (!loaded.ok() && !consumed) return loaded.status();
  const bool fetched = consumed ? store::FromFetchedHistory(loaded.status()) : loaded->fetched;
  if (fetched) {
    GENTLE_ASSIGN_OR_RETURN(std::optional<store::FetchedLineage> history,
                            store::ReadFetchedLineage(repo, lineage));
    if (!history) {
      if (consumed) return loaded.status();
      return Status(Code::kNotFound, "lineage " + lineage + " is not known");
    }
    GENTLE_ASSIGN_OR_RETURN(out.tip, store::ReadHistoryCommit(repo, history->chain.tip().id));
    out.source = history->remote;
    out.fetched = true;
  } else {
    GENTLE_ASSIGN_OR_RETURN(out.tip, store::ReadHistoryTip(repo, lineage));
    if (consumed && (!out.tip || out.tip->legacy_pin)) return loaded.status();
    // A burned imported lineage names its remote in the answer (store/history_evidence.h).
    if (consumed) {
      const std::string* source = loaded.status().detail(DetailKey::kSource);
      if (source != nullptr) out.source = *source;
    } else {
      out.source = loaded->source;
    }
  }
  out.consumed = consumed;
  if (!consumed) {
    out.record = std::move(loaded->record);
  } else {
    GENTLE_ASSIGN_OR_RETURN(out.record, store::ParseRecordFile(out.tip->record_file, lineage));
  }
  return out;
}

Result<std::optional<RoundCommit>> FindRoundCommit(const store::git::Repository& repo,
                                                   const std::string& lineage,
                                                   const std::optional<store::HistoryCommit>& tip,
                                                   int64_t round,
                                                   std::optional<store::HistoryVerb> verb) {
  std::optional<store::HistoryCommit> commit = tip;
  for (int walked = 0; commit && walked < kMaxWalkedCommits; ++walked) {
    if (commit->legacy_pin) break;
    auto record = store::ParseRecordFile(commit->record_file, lineage);
    if (!record.ok()) return Status(record.status()).WithLineage(lineage);
    if (record->round < round) break;
    if (record->round == round && (!verb || commit->verb.Is(*verb))) {
      return std::optional<RoundCommit>(RoundCommit{std::move(*commit), std::move(record).value()});
    }
    if (!commit->parent) break;
    GENTLE_ASSIGN_OR_RETURN(commit, store::ReadHistoryCommit(repo, *commit->parent));
  }
  return std::optional<RoundCommit>();
}

Result<store::RecordView> RoundRecordOf(const store::git::Repository& repo,
                                        const std::string& lineage, const RoundHistory& history,
                                        int64_t round) {
  if (round == history.record.round) return history.record;
  auto none = [&](const std::string& why) {
    return Status(Code::kNotFound,
                  "lineage " + lineage + " has no round " + std::to_string(round) + ": " + why)
        .WithLineage(lineage)
        .WithDetail(DetailKey::kRound, std::to_string(round));
  };
  if (round > history.record.round) {
    return none("its current round is " + std::to_string(history.record.round));
  }
  GENTLE_ASSIGN_OR_RETURN(std::optional<RoundCommit> found,
                          FindRoundCommit(repo, lineage, history.tip, round));
  if (!found) return none("its history holds no record of that round");
  return std::move(found->record);
}

}  // namespace gentle::exporter
