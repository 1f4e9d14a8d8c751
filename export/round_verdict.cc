#include "export/round_verdict.h"

#include "export/context_export.h"
#include "store/fetched_lineage.h"
#include "store/history_ref.h"
#include "store/layout.h"
#include "store/lineage_id.h"
#include "store/record.h"
#include "store/store_guard.h"
#include "store/verdict_file.h"

namespace gentle::exporter {
namespace {

// A first-parent chain longer than this is not one this tool wrote.
constexpr int kMaxWalkedCommits = 100000;

// The tip of the history the lineage's reads use, and the generation of its record.
struct HistoryTip {
  std::optional<store::HistoryCommit> commit;
  int64_t generation = 0;
  std::string source;
};

Result<HistoryTip> TipOf(const store::git::Repository& repo, const std::string& lineage) {
  HistoryTip out;
  auto loaded = LoadForRead(repo, lineage);
  const bool consumed = !loaded.ok() && loaded.status().code() == Code::kConsumed;
  if (!loaded.ok() && !consumed) return loaded.status();
  const bool fetched =
      consumed ? loaded.status().details().count("source") > 0 : !loaded->source.empty();
  if (fetched) {
    GENTLE_ASSIGN_OR_RETURN(std::optional<store::FetchedLineage> history,
                            store::ReadFetchedLineage(repo, lineage));
    if (!history) {
      if (consumed) return loaded.status();
      return Status(Code::kNotFound, "lineage " + lineage + " is not known");
    }
    GENTLE_ASSIGN_OR_RETURN(out.commit, store::ReadHistoryCommit(repo, history->chain.tip().id));
    out.source = history->remote;
  } else {
    GENTLE_ASSIGN_OR_RETURN(out.commit, store::ReadHistoryTip(repo, lineage));
    if (consumed && (!out.commit || out.commit->legacy_pin)) return loaded.status();
  }
  if (!consumed) {
    out.generation = loaded->record.generation;
  } else {
    GENTLE_ASSIGN_OR_RETURN(store::RecordView record,
                            store::ParseRecordFile(out.commit->record_file, lineage));
    out.generation = record.generation;
  }
  return out;
}

}  // namespace

Result<RoundVerdict> ReadRoundVerdict(const std::string& cwd, const std::string& lineage,
                                      std::optional<int64_t> round) {
  GENTLE_RETURN_IF_ERROR(store::ValidateLineageId(lineage));
  if (round && *round < 1) {
    return Status(Code::kUsage, "--round must be >= 1, got " + std::to_string(*round));
  }
  GENTLE_ASSIGN_OR_RETURN(store::git::Repository repo, store::git::Repository::Discover(cwd));
  const store::StoreLayout layout(repo.common_dir());
  GENTLE_ASSIGN_OR_RETURN(store::StoreGuard guard, store::StoreGuard::ForRead(layout));
  GENTLE_ASSIGN_OR_RETURN(HistoryTip tip, TipOf(repo, lineage));
  const int64_t wanted = round.value_or(tip.generation);
  auto none = [&] {
    return Status(Code::kNotFound,
                  "lineage " + lineage + " has no verdict for round " + std::to_string(wanted))
        .WithLineage(lineage)
        .WithDetail("round", std::to_string(wanted));
  };
  std::optional<store::HistoryCommit> commit = tip.commit;
  for (int walked = 0; commit && walked < kMaxWalkedCommits; ++walked) {
    if (commit->legacy_pin) break;
    if (commit->verb == "verdict") {
      auto record = store::ParseRecordFile(commit->record_file, lineage);
      if (!record.ok()) return Status(record.status()).WithLineage(lineage);
      if (record->generation == wanted) {
        const std::string name = "verdicts/" + std::to_string(wanted) + ".md";
        GENTLE_ASSIGN_OR_RETURN(std::optional<std::string> file,
                                store::ReadHistoryFile(repo, commit->id, name));
        if (!file) {
          return Status(Code::kCorrupted, "the verdict commit " + commit->id + " of lineage " +
                                              lineage + " has no " + name)
              .WithLineage(lineage);
        }
        auto fields = store::ParseVerdictFile(*file);
        if (!fields.ok()) return Status(fields.status()).WithLineage(lineage);
        RoundVerdict out;
        out.lineage = lineage;
        out.round = wanted;
        out.revision = record->revision;
        out.verdict = fields->verdict;
        out.actor = fields->actor;
        out.role = fields->role;
        out.body = fields->body;
        out.source = tip.source;
        return out;
      }
    }
    if (!commit->parent) break;
    GENTLE_ASSIGN_OR_RETURN(commit, store::ReadHistoryCommit(repo, *commit->parent));
  }
  return none();
}

}  // namespace gentle::exporter
