// review store reset.
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/render.h"
#include "cli/verb.h"
#include "transaction/store_reset.h"

namespace gentle::cli {
namespace {

struct StoreResetOptions {
  bool yes = false;  // really remove (else: print the plan)
};

int RunStoreReset(const CommonOptions& common, const StoreResetOptions& o) {
  auto result = transaction::ResetStore(common.cwd, o.yes);
  if (!result.ok()) return ReportError(result.status(), common.json);
  const transaction::ResetPlan& r = *result;
  if (common.json) {
    nlohmann::ordered_json out;
    out["schema"] = "gentle-ai.review-store-reset/v1";
    out["performed"] = r.performed;
    out["root"] = r.root;
    out["paths"] = r.paths;
    out["pin_refs"] = r.history_refs;
    return PrintJson(out);
  }
  std::cout << (r.performed ? "removed:\n" : "would remove (run again with --yes):\n");
  for (const std::string& path : r.paths) std::cout << "  " << path << "\n";
  for (const std::string& ref : r.history_refs) std::cout << "  " << ref << "\n";
  if (r.paths.empty() && r.history_refs.empty()) std::cout << "  nothing\n";
  return 0;
}

}  // namespace

void DefineStore(CLI::App* review, const Verb& verb, Invocation* in) {
  StoreResetOptions* o = in->Hold<StoreResetOptions>();
  CLI::App* store = AddGroup(review, verb);
  Command reset =
      AddCommand(store, "reset",
                 "Remove the whole store and its history refs (prints the plan unless --yes)", in);
  reset.AddFlag("--yes", &o->yes, "Really remove");
  reset.OnParsed([in, o] { in->Choose([in, o] { return RunStoreReset(in->common, *o); }); });
}

}  // namespace gentle::cli
