// review fsck.
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/progress.h"
#include "cli/render.h"
#include "cli/terminal.h"
#include "cli/verb.h"
#include "store/visible_text.h"
#include "transaction/fsck.h"

namespace gentle::cli {
namespace {

int RunFsck(const CommonOptions& common) {
  ProgressLine progress("fsck", common.json);
  auto result = transaction::Fsck(common.cwd, progress.get());
  progress.Finish();
  if (!result.ok()) return ReportError(result.status(), common.json);
  const transaction::FsckReport& r = *result;
  const int exit_code = r.clean() ? 0 : ExitCodeFor(Code::kCorrupted);
  if (common.json) {
    nlohmann::ordered_json out;
    out["schema"] = "gentle-ai.review-fsck/v1";
    out["clean"] = r.clean();
    out["index_present"] = r.index_present;
    out["live_writer"] = r.live_writer;
    out["counts"]["lineages"] = r.lineages;
    out["counts"]["tombstones"] = r.tombstones;
    out["counts"]["quarantine"] = r.quarantine;
    out["counts"]["pin_refs"] = r.history_refs;
    out["findings"] = nlohmann::ordered_json::array();
    for (const auto& f : r.findings) {
      nlohmann::ordered_json entry;
      entry["code"] = std::string(store::FindingCodeName(f.code));
      entry["lineage"] = NullIfEmpty(f.lineage);
      entry["path"] = NullIfEmpty(f.path);
      entry["message"] = f.message;
      out["findings"].push_back(entry);
    }
    PrintJson(out);
    return exit_code;
  }
  const bool colour = ColourWanted(1, common.json);
  for (const auto& f : r.findings) {
    std::cout << Paint(store::FindingCodeName(f.code), Tone::kRed, colour) << "  "
              << (f.lineage.empty() ? "-" : store::VisibleText(f.lineage)) << "  "
              << (f.path.empty() ? "-" : store::VisibleText(f.path)) << "  "
              << store::VisibleText(f.message) << "\n";
  }
  if (r.live_writer) {
    std::cout << "a writer was at work during the check: its work in progress is not reported\n";
  }
  std::cout << (r.clean() ? Paint("clean", Tone::kGreen, colour)
                          : Paint("NOT clean", Tone::kRed, colour))
            << ": " << r.lineages << " lineage(s), " << r.tombstones << " tombstone(s), "
            << r.quarantine << " quarantine entr" << (r.quarantine == 1 ? "y" : "ies") << ", "
            << r.history_refs << " pin ref(s), " << r.findings.size() << " finding(s)\n";
  return exit_code;
}

}  // namespace

void DefineFsck(CLI::App* review, const Verb& verb, Invocation* in) {
  Command fsck = AddCommand(review, verb, in);
  fsck.OnParsed([in] { in->Choose([in] { return RunFsck(in->common); }); });
}

}  // namespace gentle::cli
