// review invalidate.
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/render.h"
#include "cli/verb.h"
#include "transaction/invalidate.h"

namespace gentle::cli {
namespace {

struct InvalidateOptions {
  std::string lineage;
  std::string reason;
  std::string actor;
  std::optional<std::string> expected_revision;
  std::string revision_text;  // as parsed
};

int RunInvalidate(const CommonOptions& common, const InvalidateOptions& o) {
  auto result =
      transaction::Invalidate({common.cwd, o.lineage, o.reason, o.actor, o.expected_revision});
  if (!result.ok()) return ReportError(result.status(), common.json);
  const transaction::InvalidateResult& r = *result;
  if (common.json) {
    nlohmann::ordered_json out;
    out["schema"] = "gentle-ai.review-invalidate/v1";
    out["lineage"] = r.lineage;
    out["state"] = r.state.name();
    out["previous_revision"] = r.previous_revision;
    out["revision"] = r.revision;
    return PrintJson(out);
  }
  std::cout << "invalidated " << r.lineage << "\n  revision: " << r.revision << "\n";
  return 0;
}

}  // namespace

void DefineInvalidate(CLI::App* review, const Verb& verb, Invocation* in) {
  InvalidateOptions* o = in->Hold<InvalidateOptions>();
  Command invalidate = AddCommand(review, verb, in);
  AddLineageFlag(invalidate, &o->lineage);
  invalidate.AddOption("--reason", &o->reason, "Why").Required();
  invalidate.AddOption("--actor", &o->actor, "Who decides").Required();
  AddRevisionFlag(invalidate, &o->revision_text, false);
  invalidate.OnParsed([in, o, invalidate] {
    if (Given(invalidate, "--expected-revision")) o->expected_revision = o->revision_text;
    in->Choose([in, o] { return RunInvalidate(in->common, *o); });
  });
}

}  // namespace gentle::cli
