#include "export/round_verdict.h"

#include "export/round_record.h"
#include "store/history_ref.h"
#include "store/history_verb.h"
#include "store/layout.h"
#include "store/lineage_id.h"
#include "store/record.h"
#include "store/store_guard.h"
#include "store/verdict_file.h"
#include "store/verdict_name.h"

namespace gentle::exporter {

Result<RoundVerdict> ReadRoundVerdict(const std::string& cwd, const std::string& lineage,
                                      std::optional<int64_t> round,
                                      const std::optional<store::RoleWord>& role) {
  GENTLE_RETURN_IF_ERROR(store::ValidateLineageId(lineage));
  if (role && !role->value()) {
    return Status(Code::kUsage,
                  "--role must be reviewer or docs-reviewer, got \"" + role->text() + "\"");
  }
  if (round && *round < 1) {
    return Status(Code::kUsage, "--round must be >= 1, got " + std::to_string(*round));
  }
  GENTLE_ASSIGN_OR_RETURN(store::git::Repository repo, store::git::Repository::Discover(cwd));
  const store::StoreLayout layout(repo.common_dir());
  GENTLE_ASSIGN_OR_RETURN(store::StoreGuard guard, store::StoreGuard::ForRead(layout));
  GENTLE_ASSIGN_OR_RETURN(RoundHistory history, ReadRoundHistory(repo, lineage));
  const int64_t wanted = round.value_or(history.record.round);
  auto none = [&] {
    Status st(Code::kNotFound, "lineage " + lineage + " has no verdict" +
                                   (role ? " by role " + role->text() : std::string()) +
                                   " for round " + std::to_string(wanted));
    st.WithLineage(lineage).WithDetail(DetailKey::kRound, std::to_string(wanted));
    if (role) st.WithDetail(DetailKey::kRole, role->text());
    return st;
  };
  // The newest verdict or co-approval commit of the round, then older ones of the same round
  // until the role matches. Each step starts below the last commit read, so the walk stays one
  // pass of the chain.
  std::optional<store::HistoryCommit> from = history.tip;
  const std::string round_file = "verdicts/" + std::to_string(wanted) + ".md";
  for (;;) {
    GENTLE_ASSIGN_OR_RETURN(std::optional<RoundCommit> found,
                            FindRoundCommit(repo, lineage, from, wanted));
    if (!found) return none();
    const bool co_approval = found->commit.verb.Is(store::HistoryVerb::kCoApprove);
    if (!co_approval && !found->commit.verb.Is(store::HistoryVerb::kVerdict)) {
      if (!found->commit.parent) return none();
      GENTLE_ASSIGN_OR_RETURN(from, store::ReadHistoryCommit(repo, *found->commit.parent));
      continue;
    }
    const std::string name = co_approval ? std::string(store::kHistoryCoApprovalName) : round_file;
    GENTLE_ASSIGN_OR_RETURN(std::optional<std::string> file,
                            store::ReadHistoryFile(repo, found->commit.id, name));
    if (!file) {
      return Status(Code::kCorrupted, "the verdict commit " + found->commit.id + " of lineage " +
                                          lineage + " has no " + name)
          .WithLineage(lineage);
    }
    auto fields = store::ParseVerdictFile(*file);
    if (!fields.ok()) return Status(fields.status()).WithLineage(lineage);
    if (role && fields->role.value() != role->value()) {
      if (!found->commit.parent) return none();
      GENTLE_ASSIGN_OR_RETURN(from, store::ReadHistoryCommit(repo, *found->commit.parent));
      continue;
    }
    RoundVerdict out;
    out.lineage = lineage;
    out.round = wanted;
    out.revision = found->record.revision;
    out.verdict = fields->verdict;
    out.actor = fields->actor;
    out.role = fields->role;
    out.body = fields->body;
    out.source = history.source;
    return out;
  }
}
}  // namespace gentle::exporter
