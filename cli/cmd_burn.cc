// review burn.
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/render.h"
#include "cli/verb.h"
#include "transaction/burn.h"

namespace gentle::cli {
namespace {

struct BurnOptions {
  std::string lineage;
  std::string token;
  std::optional<std::string> expected_revision;
  std::string revision_text;  // as parsed
};

int RunBurn(const CommonOptions& common, const BurnOptions& o) {
  auto result =
      transaction::Burn({common.cwd, o.lineage, o.token, o.expected_revision.value_or("")});
  if (!result.ok()) return ReportError(result.status(), common.json);
  const transaction::BurnResult& r = *result;
  if (common.json) {
    nlohmann::ordered_json out;
    out["schema"] = "gentle-ai.review-burn/v1";
    out["lineage"] = r.lineage;
    out["state"] = "consumed";
    out["revision"] = r.revision;
    out["target_identity"] = r.target_identity;
    out["repository"] = r.repository;
    out["tombstone"] = r.tombstone;
    out["original_worktree"] = r.original_worktree;
    return PrintJson(out);
  }
  std::cout << "burned " << r.lineage << "\n  tombstone: " << r.tombstone << "\n";
  return 0;
}

}  // namespace

void DefineBurn(CLI::App* review, const Verb& verb, Invocation* in) {
  BurnOptions* o = in->Hold<BurnOptions>();
  Command burn = AddCommand(review, verb, in);
  AddLineageFlag(burn, &o->lineage);
  burn.AddOption("--token", &o->token, "The token APPROVE returned").Required();
  AddRevisionFlag(burn, &o->revision_text, true);
  burn.OnParsed([in, o, burn] {
    if (Given(burn, "--expected-revision")) o->expected_revision = o->revision_text;
    in->Choose([in, o] { return RunBurn(in->common, *o); });
  });
}

}  // namespace gentle::cli
