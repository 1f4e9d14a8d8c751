// review pr-state show | set (docs/watch.md "PR state").
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/pr_state_verb.h"
#include "cli/render.h"
#include "cli/verb.h"
#include "loop/pr_key.h"
#include "store/clock.h"
#include "store/git/repository.h"
#include "watch/pr_state.h"

namespace gentle::cli {
namespace {

// review pr-state show|set --pr P: a session's PR state, Markdown or JSON (docs/watch.md).
struct PrStateOptions {
  PrStateVerb verb = PrStateVerb::kShow;
  std::string pr;
  std::optional<std::string> phase, head_sha, blocked_on, round, asked;
  std::string phase_text, head_sha_text, blocked_on_text, round_text, asked_text;  // as parsed
};

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

int RunPrState(const CommonOptions& common, const PrStateOptions& o) {
  auto key = loop::ParsePrKey(o.pr);
  if (!key.ok()) return ReportError(key.status(), common.json);
  auto state = Run(common, o, loop::FormatPrKey(*key));
  if (!state.ok()) return ReportError(state.status(), common.json);
  return Print(common, *state);
}

}  // namespace

// review pr-state show|set: a session's PR state (docs/watch.md).
void DefinePrState(CLI::App* review, const Verb& verb, Invocation* in) {
  PrStateOptions* o = in->Hold<PrStateOptions>();
  CLI::App* group = AddGroup(review, verb);
  Command show = AddCommand(group, PrStateVerbName(PrStateVerb::kShow),
                            "Print the PR's state as Markdown (read-only)", in);
  Command set =
      AddCommand(group, PrStateVerbName(PrStateVerb::kSet), "Record fields of the PR's state", in);
  for (Command command : {show, set}) {
    command.AddOption("--pr", &o->pr, "The pull request: FORGE:OWNER/REPO#N").Required();
  }
  set.AddOption("--phase", &o->phase_text, "The current phase (one line)");
  set.AddOption("--head-sha", &o->head_sha_text, "The head commit the session works on");
  set.AddOption("--blocked-on", &o->blocked_on_text,
                "What the PR is blocked on (one line; empty clears it)");
  set.AddOption("--round", &o->round_text, "A round of feedback (N >= 1), with --asked");
  set.AddOption("--asked", &o->asked_text, "What that round asked for");
  show.OnParsed([in, o] {
    o->verb = PrStateVerb::kShow;
    in->Choose([in, o] { return RunPrState(in->common, *o); });
  });
  set.OnParsed([in, o, set] {
    o->verb = PrStateVerb::kSet;
    if (Given(set, "--phase")) o->phase = o->phase_text;
    if (Given(set, "--head-sha")) o->head_sha = o->head_sha_text;
    if (Given(set, "--blocked-on")) o->blocked_on = o->blocked_on_text;
    if (Given(set, "--round")) o->round = o->round_text;
    if (Given(set, "--asked")) o->asked = o->asked_text;
    in->Choose([in, o] { return RunPrState(in->common, *o); });
  });
}

}  // namespace gentle::cli
