// review pr-state show | set (docs/watch.md "PR state").
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/render.h"
#include "loop/pr_key.h"
#include "store/clock.h"
#include "store/git/repository.h"
#include "watch/pr_state.h"

namespace gentle::cli {
namespace {

using Json = nlohmann::ordered_json;

int Print(const CommonOptions& common, const watch::PrState& state) {
  if (!common.json) {
    PrintHuman(watch::RenderPrStateMarkdown(state));
    return 0;
  }
  Json out;
  out["schema"] = watch::kPrStateSchema;
  out["pr"] = state.pr;
  out["phase"] = state.phase;
  out["head_sha"] = NullIfEmpty(state.head_sha);
  out["blocked_on"] = NullIfEmpty(state.blocked_on);
  out["rounds"] = Json::array();
  for (const watch::PrRound& round : state.rounds) {
    out["rounds"].push_back({{"round", round.round}, {"asked", round.asked}});
  }
  out["updated_at"] = state.updated_at;
  return PrintJson(out);
}

Result<watch::PrStateUpdate> UpdateOf(const PrStateOptions& o) {
  watch::PrStateUpdate update;
  update.phase = o.phase;
  update.head_sha = o.head_sha;
  update.blocked_on = o.blocked_on;
  if (o.round.has_value() != o.asked.has_value()) {
    return Status(Code::kUsage, "pr-state: --round and --asked go together");
  }
  if (o.round) {
    GENTLE_RETURN_IF_ERROR(loop::CheckDecimal("--round", *o.round, 9));
    update.round = watch::PrRound{std::stoll(*o.round), *o.asked};
  }
  GENTLE_RETURN_IF_ERROR(watch::CheckPrStateUpdate(update));
  return update;
}

Result<watch::PrState> Run(const CommonOptions& common, const PrStateOptions& o,
                           const std::string& pr) {
  std::optional<watch::PrStateUpdate> update;
  if (o.verb == PrStateVerb::kSet) {
    GENTLE_ASSIGN_OR_RETURN(update, UpdateOf(o));
  }
  GENTLE_ASSIGN_OR_RETURN(store::git::Repository repo,
                          store::git::Repository::Discover(common.cwd));
  GENTLE_ASSIGN_OR_RETURN(watch::WatchDb db, update
                                                 ? watch::WatchDb::Open(repo.common_dir(), true)
                                                 : watch::WatchDb::OpenReadOnly(repo.common_dir()));
  if (update) return watch::SetPrState(db, pr, *update, store::NowRfc3339());
  GENTLE_ASSIGN_OR_RETURN(std::optional<watch::PrState> state, watch::LoadPrState(db, pr));
  if (!state) return Status(Code::kNotFound, "pr-state: no state recorded for " + pr);
  return *state;
}

}  // namespace

int RunPrState(const CommonOptions& common, const PrStateOptions& o) {
  auto key = loop::ParsePrKey(o.pr);
  if (!key.ok()) return ReportError(key.status(), common.json);
  auto state = Run(common, o, loop::FormatPrKey(*key));
  if (!state.ok()) return ReportError(state.status(), common.json);
  return Print(common, *state);
}

}  // namespace gentle::cli
