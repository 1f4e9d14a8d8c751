// review status.
#include <iostream>
#include <nlohmann/json.hpp>

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
};

using store::VisibleText;

int RunStatus(const CommonOptions& common, const std::optional<std::string>& lineage,
              const std::optional<transaction::Selector>& selector,
              const std::optional<std::string>& role_name) {
  std::optional<transaction::StatusRole> role;
  if (role_name) {
    role = transaction::ParseStatusRole(*role_name);
    if (!role) {
      return ReportError(Status(Code::kUsage, "--role must be author or reviewer"), common.json);
    }
  }
  auto result = transaction::InspectStatus(common.cwd, lineage, selector, role);
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
      out["lineages"].push_back(entry);
    }
    out["next"] = std::string(transaction::NextActionName(result->next.action));
    out["next_reason"] = std::string(transaction::NextReasonName(result->next.reason));
    out["next_lineage"] = NullIfEmpty(result->next_lineage);
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
                 "lineages) or reviewer (export, verdict, post: every lineage of the clone); "
                 "default both, for this worktree's lineages")
      .TypeName("ROLE");
  AddSelectorFlags(status, &o->selector);
  status.OnParsed([in, o, status] {
    std::optional<std::string> lineage, role;
    if (Given(status, "--lineage")) lineage = o->lineage;
    if (Given(status, "--role")) role = o->role;
    std::optional<transaction::Selector> selector;
    if (SelectorGiven(status)) selector = o->selector;
    in->Choose(
        [in, lineage, selector, role] { return RunStatus(in->common, lineage, selector, role); });
  });
}

}  // namespace gentle::cli
