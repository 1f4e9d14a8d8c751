// review status.
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/budget_flags.h"
#include "cli/render.h"
#include "cli/selector_flags.h"
#include "cli/terminal.h"
#include "cli/verb.h"
#include "store/visible_text.h"
#include "transaction/status.h"
#include "transaction/status_role.h"

namespace gentle::cli {
namespace {

// review status's options: --lineage, --role and start's selector flags, each recorded only when
// given.
struct StatusOptions {
  std::string lineage;
  std::string role;
  transaction::Selector selector;
  BudgetFlagText budget;  // --max-bytes / --runtime: the budget a start would be given
};

using store::VisibleText;

// A next export's parts as JSON members: `parts` and `max_bytes`, null unless next is export.
void AddParts(const transaction::LineageStatus::Parts& parts, nlohmann::ordered_json* out) {
  (*out)["parts"] =
      parts.count == 0 ? nlohmann::ordered_json() : nlohmann::ordered_json(parts.count);
  (*out)["max_bytes"] =
      parts.count == 0 ? nlohmann::ordered_json() : nlohmann::ordered_json(parts.max_bytes);
}

int RunStatus(const CommonOptions& common, const std::optional<std::string>& lineage,
              const std::optional<transaction::Selector>& selector,
              const std::optional<std::string>& role_name,
              const Result<std::optional<uint64_t>>& budget) {
  if (!budget.ok()) return ReportError(budget.status(), common.json);
  // Without --role: the author's next (docs/loop.md, "Two roles").
  transaction::StatusRole role = transaction::StatusRole::kAuthor;
  if (role_name) {
    const std::optional<transaction::StatusRole> parsed = transaction::ParseStatusRole(*role_name);
    if (!parsed) {
      return ReportError(Status(Code::kUsage, "--role must be author or reviewer"), common.json);
    }
    role = *parsed;
  }
  auto result = transaction::InspectStatus(common.cwd, lineage, selector, role, *budget);
  if (!result.ok()) return ReportError(result.status(), common.json);
  if (common.json) {
    nlohmann::ordered_json out;
    out["schema"] = "gentle-ai.review-status/v1";
    out["lineages"] = nlohmann::ordered_json::array();
    for (const auto& s : result->lineages) {
      nlohmann::ordered_json entry;
      entry["lineage"] = s.lineage;
      entry["state"] = NullIfEmpty(s.state.name());
      entry["kind"] = NullIfEmpty(s.kind);
      entry["applicability"] = std::string(transaction::ApplicabilityName(s.applicability));
      entry["revision"] = NullIfEmpty(s.revision);
      entry["target_identity"] = NullIfEmpty(s.target_identity);
      entry["live_target_identity"] = NullIfEmpty(s.live_target_identity);
      if (!s.detail.empty()) entry["detail"] = s.detail;
      entry["source"] = NullIfEmpty(s.source);
      entry["context_digest"] = NullIfEmpty(s.context_digest);
      entry["context_unavailable"] = NullIfEmpty(s.context_unavailable);
      entry["next"] = std::string(transaction::NextActionName(s.next.action));
      entry["next_reason"] = std::string(transaction::NextReasonName(s.next.reason));
      AddParts(s.parts, &entry);
      out["lineages"].push_back(entry);
    }
    out["next"] = std::string(transaction::NextActionName(result->next.action));
    out["next_reason"] = std::string(transaction::NextReasonName(result->next.reason));
    out["next_lineage"] = NullIfEmpty(result->next_lineage);
    AddParts(result->parts, &out);
    return PrintJson(out);
  }
  if (result->lineages.empty()) std::cout << "no lineages\n";
  const bool colour = ColourWanted(1, false);
  for (const auto& s : result->lineages) {
    std::cout << VisibleText(s.lineage) << "  "
              << (s.state.empty() ? "-"
                                  : Paint(VisibleText(s.state.name()), StateTone(s.state), colour))
              << "  " << transaction::ApplicabilityName(s.applicability);
    if (!s.detail.empty()) std::cout << "  (" << VisibleText(s.detail) << ")";
    if (!s.source.empty()) std::cout << "  [from " << VisibleText(s.source) << "]";
    std::cout << "\n";
  }
  std::cout << "next: " << transaction::NextActionName(result->next.action) << " ("
            << transaction::NextReasonName(result->next.reason) << ")";
  if (!result->next_lineage.empty()) std::cout << "  lineage " << result->next_lineage;
  if (result->parts.count > 1) {
    std::cout << "  in " << result->parts.count << " parts of at most " << result->parts.max_bytes
              << " bytes";
  }
  std::cout << "\n";
  return 0;
}

}  // namespace

void DefineStatus(CLI::App* review, const Verb& verb, Invocation* in) {
  StatusOptions* o = in->Hold<StatusOptions>();
  Command status = AddCommand(review, verb, in);
  status.AddOption("--lineage", &o->lineage, "Only this lineage");
  status
      .AddOption("--role", &o->role,
                 "Whose actions next names: author (start, revise, burn: this worktree's "
                 "lineages; the default) or reviewer (export, verdict, post: every lineage of the "
                 "clone that awaits them)")
      .TypeName("ROLE");
  AddSelectorFlags(status, &o->selector);
  AddBudgetFlags(status, &o->budget,
                 "The budget a start of the candidate would be given (as for start): next names "
                 "start only if start takes the candidate under it",
                 "The reviewer's runtime a start would be given (as for start)");
  status.OnParsed([in, o, status] {
    std::optional<std::string> lineage, role;
    if (Given(status, "--lineage")) lineage = o->lineage;
    if (Given(status, "--role")) role = o->role;
    std::optional<transaction::Selector> selector;
    if (SelectorGiven(status)) selector = o->selector;
    const Result<std::optional<uint64_t>> budget = GivenBudget(status, o->budget);
    in->Choose([in, lineage, selector, role, budget] {
      return RunStatus(in->common, lineage, selector, role, budget);
    });
  });
}

}  // namespace gentle::cli
