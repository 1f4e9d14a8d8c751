#include "export/interdiff_export.h"

#include <nlohmann/json.hpp>

#include "export/context_export.h"
#include "export/engine.h"
#include "export/round_generated.h"
#include "export/round_record.h"
#include "store/go_marshal.h"
#include "store/layout.h"
#include "store/lineage_id.h"
#include "store/store_guard.h"

namespace gentle::exporter {

Result<InterdiffExport> ExportInterdiff(const InterdiffRequest& request) {
  GENTLE_RETURN_IF_ERROR(store::ValidateLineageId(request.lineage));
  if (request.since_round < 1) {
    return Status(Code::kUsage,
                  "--since-round must be >= 1, got " + std::to_string(request.since_round));
  }
  GENTLE_ASSIGN_OR_RETURN(store::git::Repository repo,
                          store::git::Repository::Discover(request.cwd));
  const store::StoreLayout layout(repo.common_dir());
  GENTLE_ASSIGN_OR_RETURN(store::StoreGuard guard, store::StoreGuard::ForRead(layout));
  GENTLE_ASSIGN_OR_RETURN(RoundHistory history, ReadRoundHistory(repo, request.lineage));
  GENTLE_ASSIGN_OR_RETURN(store::RecordView from,
                          RoundRecordOf(repo, request.lineage, history, request.since_round));
  InterdiffExport out;
  out.lineage = request.lineage;
  out.revision = history.record.revision;
  out.state =
      history.consumed ? store::StateName(store::TerminalState::kConsumed) : history.record.state;
  out.source = history.source;
  out.from = {request.since_round, from.revision, from.current_snapshot.candidate_tree};
  out.to = {history.record.round, history.record.revision,
            history.record.current_snapshot.candidate_tree};
  auto derived = [&]() -> Result<Derived> {
    if (!request.part) {
      return DeriveInterdiff(repo, out.from.candidate_tree, out.to.candidate_tree, request.engine);
    }
    std::vector<std::string> generated;
    if (request.part->view == View::kReview) {
      for (const int64_t round : {out.from.round, out.to.round}) {
        GENTLE_ASSIGN_OR_RETURN(std::vector<std::string> marked,
                                ReadRoundGenerated(repo, history.tip, round));
        generated.insert(generated.end(), marked.begin(), marked.end());
      }
    }
    return DeriveInterdiffPart(repo, out.from.candidate_tree, out.to.candidate_tree, *request.part,
                               generated);
  }();
  if (!derived.ok()) {
    Status st = derived.status();
    return st.WithLineage(request.lineage);
  }
  out.derived = std::move(derived).value();
  return out;
}

std::string RenderInterdiffEnvelope(const InterdiffExport& d) {
  using Json = nlohmann::ordered_json;
  auto end = [](const InterdiffEnd& e) {
    Json j;
    j["round"] = e.round;
    j["revision"] = e.revision;
    j["candidate_tree"] = e.candidate_tree;
    return j;
  };
  Json j;
  j["schema"] = std::string(kInterdiffSchema);
  j["lineage"] = d.lineage;
  j["revision"] = d.revision;
  j["state"] = d.state.name();
  j["source"] = d.source.empty() ? Json(nullptr) : Json(d.source);
  j["from"] = end(d.from);
  j["to"] = end(d.to);
  RenderDerivedMembers(d.derived, &j);
  return store::MarshalCompact(j);
}

}  // namespace gentle::exporter
