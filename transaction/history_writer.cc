#include "transaction/history_writer.h"

#include <nlohmann/json.hpp>

#include "store/fault_point.h"
#include "store/history_sync.h"
#include "store/record.h"

namespace gentle::transaction {

namespace {

struct Placement {
  std::optional<std::string> from;    // the ref's current target
  std::optional<std::string> parent;  // the new commit's parent
};

// Where the next commit goes on `tip`; fills spec->created_at from it when empty.
Placement PlaceOn(const std::optional<store::HistoryCommit>& tip, store::HistoryCommitSpec* spec) {
  Placement out;
  if (tip) {
    out.from = tip->id;
    if (!tip->legacy_pin) out.parent = tip->id;  // an old pin (without a record) is replaced
    if (spec->created_at.empty()) spec->created_at = tip->created_at;
  }
  return out;
}

}  // namespace

Result<std::optional<PreparedHistory>> PrepareHistoryCommit(const store::git::Repository& repo,
                                                            const store::StoreLayout& layout,
                                                            store::HistoryCommitSpec spec) {
  GENTLE_ASSIGN_OR_RETURN(store::HistoryCheck check,
                          store::CheckHistory(repo, layout, spec.lineage));
  if (check.drift != store::HistoryDrift::kNone) return std::optional<PreparedHistory>();
  const Placement place = PlaceOn(check.tip, &spec);
  GENTLE_ASSIGN_OR_RETURN(std::string id, store::WriteHistoryCommit(repo, spec, place.parent));
  return std::optional<PreparedHistory>(PreparedHistory{place.from, std::move(id)});
}

Status AppendHistory(const store::git::Repository& repo, const store::StoreLayout& layout,
                     store::HistoryCommitSpec spec,
                     const std::optional<PreparedHistory>& prepared) {
  // First the history is brought level with the files: a prepared tip the record never followed
  // is rolled back, a record the history does not hold gets a sync commit. One check answers the
  // usual case, a history already level.
  GENTLE_ASSIGN_OR_RETURN(store::HistoryCheck check,
                          store::CheckHistory(repo, layout, spec.lineage));
  std::optional<store::HistoryCommit> tip = std::move(check.tip);
  if (check.drift != store::HistoryDrift::kNone) {
    GENTLE_RETURN_IF_ERROR(store::RollBackAhead(repo, layout, spec.lineage));
    GENTLE_RETURN_IF_ERROR(store::SyncHistory(repo, layout, spec.lineage, spec.at).status());
    GENTLE_ASSIGN_OR_RETURN(tip, store::ReadHistoryTip(repo, spec.lineage));
  }
  const Placement place = PlaceOn(tip, &spec);
  std::string id;
  if (prepared && prepared->from == place.from) {
    id = prepared->id;
  } else {
    GENTLE_ASSIGN_OR_RETURN(id, store::WriteHistoryCommit(repo, spec, place.parent));
  }
  GENTLE_RETURN_IF_ERROR(store::MoveHistoryRef(repo, spec.lineage, place.from, id));
  store::FaultPoint(std::string(store::HistoryVerbName(spec.verb)) + ":history-prepared");
  return Status::Ok();
}

std::string VerdictFile(store::Verdict verdict, const std::string& actor, store::ReviewerRole role,
                        const std::string& at, const std::string& from_state,
                        const std::string& to_state, const std::string& body_sha256,
                        const std::string& body) {
  auto q = [](std::string_view s) {
    return nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  };
  std::string out = "---\n";
  out += "verdict: " + q(store::VerdictName(verdict)) + "\n";
  out += "actor: " + q(actor) + "\n";
  out += "role: " + q(store::ReviewerRoleName(role)) + "\n";
  out += "at: " + q(at) + "\n";
  out += "from_state: " + q(from_state) + "\n";
  out += "to_state: " + q(to_state) + "\n";
  out += "body_sha256: " + q(body_sha256) + "\n";
  out += "---\n";
  out += body;
  return out;
}

}  // namespace gentle::transaction
