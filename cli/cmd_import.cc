// review import.
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/commands.h"
#include "cli/progress.h"
#include "cli/render.h"
#include "transaction/import.h"

namespace gentle::cli {

int RunImport(const CommonOptions& common, const ImportOptions& options) {
  ProgressLine progress("import", common.json);
  transaction::ImportRequest request;
  request.cwd = common.cwd;
  request.lineage = options.lineage;
  request.remote = options.remote;
  request.accept_terminal = options.accept_terminal;
  request.progress = progress.get();
  auto result = transaction::Import(request);
  progress.Finish();
  if (!result.ok()) return ReportError(result.status(), common.json);
  const transaction::ImportResult& r = *result;
  if (common.json) {
    nlohmann::ordered_json out;
    out["schema"] = "gentle-ai.review-import/v1";
    out["lineage"] = r.lineage;
    out["remote"] = r.remote;
    out["outcome"] = transaction::ImportOutcomeName(r.outcome);
    out["state"] = r.state;
    out["revision"] = r.revision;
    out["fetched_tip"] = r.fetched_tip;
    out["local_tip_before"] = NullIfEmpty(r.local_tip_before);
    out["commits"] = r.commits;
    return PrintJson(out);
  }
  std::ostringstream human;
  if (r.outcome == transaction::ImportOutcome::kUpToDate) {
    human << "lineage " << r.lineage << " is up to date with " << r.remote << " (" << r.state
          << ")\n";
  } else {
    human << "imported " << r.lineage << " from " << r.remote << ": " << r.state << ", "
          << r.commits << " new history commit(s)\n";
  }
  PrintHuman(human.str());
  return 0;
}

}  // namespace gentle::cli
