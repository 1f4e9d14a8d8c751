// review start.
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/budget_flags.h"
#include "cli/context_flags.h"
#include "cli/render.h"
#include "cli/selector_flags.h"
#include "cli/verb.h"
#include "transaction/start.h"

namespace gentle::cli {
namespace {

// review start's options (its selector flags are status's too: cli/selector_flags.h).
struct StartOptions {
  transaction::Selector selector;
  ContextFlagText context;  // --context FILE, --context-unavailable REASON
  BudgetFlagText budget;    // --max-bytes N, --runtime NAME
};

int RunStart(const CommonOptions& common, const transaction::Selector& selector,
             const transaction::ContextFlags& context,
             const Result<std::optional<uint64_t>>& budget) {
  if (!budget.ok()) return ReportError(budget.status(), common.json);
  auto checked = ReadCheckedContext(context);
  if (!checked.ok()) return ReportError(checked.status(), common.json);
  auto result = transaction::Start({common.cwd, selector, *checked, *budget});
  if (!result.ok()) return ReportError(result.status(), common.json);
  const transaction::StartResult& r = *result;
  if (common.json) {
    nlohmann::ordered_json out;
    out["schema"] = "gentle-ai.review-start/v1";
    out["lineage"] = r.lineage;
    out["revision"] = r.revision;
    out["target_identity"] = r.target_identity;
    out["state"] = r.state.name();
    out["kind"] = r.kind;
    out["changed_path_count"] = r.changed_path_count;
    out["created"] = r.created;
    return PrintJson(out);
  }
  std::cout << (r.created ? "started " : "already started ") << r.lineage << "\n"
            << "  revision:        " << r.revision << "\n"
            << "  target identity: " << r.target_identity << "\n"
            << "  state:           " << r.state.name() << "\n"
            << "  kind:            " << r.kind << "\n"
            << "  changed paths:   " << r.changed_path_count << "\n";
  return 0;
}

}  // namespace

void DefineStart(CLI::App* review, const Verb& verb, Invocation* in) {
  StartOptions* o = in->Hold<StartOptions>();
  Command start = AddCommand(review, verb, in);
  AddSelectorFlags(start, &o->selector);
  AddContextFlags(start, &o->context);
  AddBudgetFlags(start, &o->budget,
                 "The reviewer's budget in bytes (4096 to 4194304): each part of the review "
                 "view holds at most N; frozen in the round (default 4194304)",
                 "The reviewer's runtime, whose budget the round takes: claude, claude-code, pi "
                 "(524288); codex, opencode (1048576)");
  start.OnParsed([in, o, start] {
    const transaction::ContextFlags context = GivenContextFlags(start, o->context);
    const Result<std::optional<uint64_t>> budget = GivenBudget(start, o->budget);
    in->Choose(
        [in, o, context, budget] { return RunStart(in->common, o->selector, context, budget); });
  });
}

}  // namespace gentle::cli
