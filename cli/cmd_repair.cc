// review repair.
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/progress.h"
#include "cli/render.h"
#include "cli/verb.h"
#include "transaction/repair.h"

namespace gentle::cli {
namespace {

struct RepairOptions {
  std::string lineage;  // --lineage, when given: only this lineage
};

int RunRepair(const CommonOptions& common, const std::optional<std::string>& lineage) {
  ProgressLine progress("repair", common.json);
  auto result = transaction::Repair(common.cwd, lineage, progress.get());
  progress.Finish();
  if (!result.ok()) return ReportError(result.status(), common.json);
  const transaction::RepairReport& r = *result;
  const int exit_code = r.clean() ? 0 : ExitCodeFor(Code::kCorrupted);
  if (common.json) {
    nlohmann::ordered_json out;
    out["schema"] = "gentle-ai.review-repair/v1";
    out["clean"] = r.clean();
    out["lineages"] = nlohmann::ordered_json::array();
    for (const auto& e : r.lineages) {
      nlohmann::ordered_json entry;
      entry["lineage"] = e.lineage;
      entry["found"] = e.found;
      entry["actions"] = e.actions;
      entry["left"] = e.left ? nlohmann::ordered_json(*e.left) : nlohmann::ordered_json(nullptr);
      entry["error"] = NullIfEmpty(e.error);
      out["lineages"].push_back(entry);
    }
    PrintJson(out);
    return exit_code;
  }
  std::ostringstream human;
  for (const auto& e : r.lineages) {
    human << e.lineage << "  " << e.found << "  ";
    if (e.actions.empty()) human << "nothing done";
    for (size_t i = 0; i < e.actions.size(); ++i) human << (i ? ", " : "") << e.actions[i];
    if (e.left) human << "  still " << *e.left;
    if (!e.error.empty()) human << " (" << e.error << ")";
    human << "\n";
  }
  if (r.lineages.empty()) {
    human << "nothing to repair\n";
  } else {
    human << (r.clean() ? "repaired" : "NOT all repaired") << ": " << r.lineages.size()
          << " lineage(s)\n";
  }
  PrintHuman(human.str());
  return exit_code;
}

}  // namespace

void DefineRepair(CLI::App* review, const Verb& verb, Invocation* in) {
  RepairOptions* o = in->Hold<RepairOptions>();
  Command repair = AddCommand(review, verb, in);
  repair.AddOption("--lineage", &o->lineage, "Only this lineage (default: all)");
  repair.OnParsed([in, o, repair] {
    std::optional<std::string> lineage;
    if (Given(repair, "--lineage")) lineage = o->lineage;
    in->Choose([in, lineage] { return RunRepair(in->common, lineage); });
  });
}

}  // namespace gentle::cli
