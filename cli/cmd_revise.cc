// review revise.
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/budget_flags.h"
#include "cli/context_flags.h"
#include "cli/render.h"
#include "cli/verb.h"
#include "transaction/revise.h"

namespace gentle::cli {
namespace {

struct ReviseOptions {
  std::string lineage;
  std::optional<std::string> expected_revision;
  transaction::ContextFlags context;  // --context / --context-unavailable, when given
  std::string revision_text;          // as parsed
  ContextFlagText context_text;       // as parsed
  BudgetFlagText budget_text;         // as parsed
  Result<std::optional<uint64_t>> budget = std::optional<uint64_t>();  // --max-bytes / --runtime
};

int RunRevise(const CommonOptions& common, const ReviseOptions& o) {
  if (!o.budget.ok()) return ReportError(o.budget.status(), common.json);
  auto checked = ReadCheckedContext(o.context);
  if (!checked.ok()) return ReportError(checked.status(), common.json);
  auto result =
      transaction::Revise({common.cwd, o.lineage, o.expected_revision, *checked, *o.budget});
  if (!result.ok()) return ReportError(result.status(), common.json);
  const transaction::ReviseResult& r = *result;
  if (common.json) {
    nlohmann::ordered_json out;
    out["schema"] = "gentle-ai.review-revise/v1";
    out["lineage"] = r.lineage;
    out["previous_revision"] = r.previous_revision;
    out["revision"] = r.revision;
    out["previous_state"] = r.previous_state.name();
    out["state"] = r.state.name();
    out["round"] = r.round;
    out["target_identity"] = r.target_identity;
    out["changed_path_count"] = r.changed_path_count;
    return PrintJson(out);
  }
  std::cout << "round " << r.round << " of " << r.lineage << " (" << r.state.name() << ", "
            << r.changed_path_count << " changed path" << (r.changed_path_count == 1 ? "" : "s")
            << ")\n  revision: " << r.revision << "\n";
  return 0;
}

}  // namespace

void DefineRevise(CLI::App* review, const Verb& verb, Invocation* in) {
  ReviseOptions* o = in->Hold<ReviseOptions>();
  Command revise = AddCommand(review, verb, in);
  AddLineageFlag(revise, &o->lineage);
  AddRevisionFlag(revise, &o->revision_text, false);
  AddContextFlags(revise, &o->context_text);
  AddBudgetFlags(revise, &o->budget_text,
                 "The new round's reviewer budget in bytes (4096 to 4194304); default: the "
                 "current round's",
                 "The reviewer's runtime, whose budget the new round takes (as for start)");
  revise.OnParsed([in, o, revise] {
    o->context = GivenContextFlags(revise, o->context_text);
    o->budget = GivenBudget(revise, o->budget_text);
    if (Given(revise, "--expected-revision")) o->expected_revision = o->revision_text;
    in->Choose([in, o] { return RunRevise(in->common, *o); });
  });
}

}  // namespace gentle::cli
