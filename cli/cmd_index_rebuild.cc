// review index rebuild.
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/progress.h"
#include "cli/render.h"
#include "cli/verb.h"
#include "transaction/index_rebuild.h"

namespace gentle::cli {
namespace {

int RunIndexRebuild(const CommonOptions& common) {
  ProgressLine progress("index rebuild", common.json);
  auto result = transaction::RebuildIndexCommand(common.cwd, progress.get());
  progress.Finish();
  if (!result.ok()) return ReportError(result.status(), common.json);
  const store::index::RebuildReport& r = *result;
  if (common.json) {
    nlohmann::ordered_json out;
    out["schema"] = "gentle-ai.review-index-rebuild/v1";
    out["lineages"] = r.lineages;
    out["tombstones"] = r.tombstones;
    out["quarantine"] = r.quarantine;
    out["repinned"] = r.repinned;
    out["recovered"] = r.recovered;
    // The schema_version of a newer release's index this rebuild replaced, else null.
    out["replaced_newer_schema_version"] = r.replaced_schema_version > 0
                                               ? nlohmann::ordered_json(r.replaced_schema_version)
                                               : nlohmann::ordered_json(nullptr);
    return PrintJson(out);
  }
  std::cout << "index rebuilt: " << r.lineages << " lineage(s), " << r.tombstones
            << " tombstone(s), " << r.quarantine << " quarantine entr"
            << (r.quarantine == 1 ? "y" : "ies") << "; " << r.repinned << " pin ref(s) restored, "
            << r.recovered << " interrupted mutation(s) recovered\n";
  if (r.replaced_schema_version > 0) {
    std::cout << "replaced an index from a newer release (schema_version "
              << r.replaced_schema_version
              << ") with one built from the files; a newer release migrates it forward when it "
                 "next writes\n";
  }
  return 0;
}

}  // namespace

void DefineIndex(CLI::App* review, const Verb& verb, Invocation* in) {
  CLI::App* index = AddGroup(review, verb);
  Command rebuild =
      AddCommand(index, "rebuild", "Regenerate index.sqlite from the files alone", in);
  rebuild.OnParsed([in] { in->Choose([in] { return RunIndexRebuild(in->common); }); });
}

}  // namespace gentle::cli
