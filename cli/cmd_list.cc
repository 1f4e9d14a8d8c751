// review list.
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/render.h"
#include "cli/terminal.h"
#include "cli/verb.h"
#include "store/go_marshal.h"
#include "store/visible_text.h"
#include "transaction/list.h"

namespace gentle::cli {
namespace {

using store::VisibleText;

nlohmann::ordered_json ListEntry(const transaction::LineageSummary& s) {
  nlohmann::ordered_json entry;
  entry["lineage"] = s.lineage;
  entry["state"] = s.ListedState();
  entry["kind"] = NullIfEmpty(s.kind);
  entry["created_at"] = NullIfEmpty(s.created_at);
  entry["path_count"] = s.path_count;
  if (!s.evidence.empty()) {
    if (s.standing == transaction::ListState::kConsumed) entry["tombstone"] = s.evidence;
    if (s.standing == transaction::ListState::kRetired) entry["audit_record"] = s.evidence;
  }
  entry["source"] = NullIfEmpty(s.source);
  return entry;
}

// Streams: each entry is printed as it is read, so output of any size needs constant memory. The
// first entry is held back until a second one (or the end) proves the listing started cleanly,
// so an error before any output still prints the plain error envelope.
int RunList(const CommonOptions& common) {
  size_t count = 0;
  std::string pending;
  const bool colour = ColourWanted(1, common.json);
  auto emit = [&](const std::string& text) {
    if (count == 1) {
      std::cout << pending;
      pending.clear();
    }
    if (count == 0) {
      pending = text;
    } else {
      std::cout << text;
    }
    ++count;
  };
  Status status = transaction::VisitLineages(common.cwd, [&](const transaction::LineageSummary& s) {
    if (common.json) {
      emit((count == 0 ? "{\"schema\":\"gentle-ai.review-list/v1\",\"lineages\":[" : ",") +
           store::MarshalCompact(ListEntry(s)));
    } else {
      std::ostringstream line;
      line << VisibleText(s.lineage) << "  "
           << Paint(VisibleText(s.ListedState()), ListTone(s), colour) << "  "
           << (s.kind.empty() ? "-" : VisibleText(s.kind)) << "  "
           << (s.created_at.empty() ? "-" : VisibleText(s.created_at)) << "  " << s.path_count
           << " path(s)" << (s.evidence.empty() ? "" : "  " + VisibleText(s.evidence))
           << (s.source.empty() ? "" : "  [from " + VisibleText(s.source) + "]") << "\n";
      emit(line.str());
    }
  });
  if (!status.ok()) {
    if (count <= 1) return ReportError(status, common.json);
    std::cout << std::endl;  // the partial listing stays unterminated: not valid JSON
    return ReportError(status, /*json=*/false);
  }
  std::cout << pending;
  if (common.json) {
    if (count == 0) std::cout << "{\"schema\":\"gentle-ai.review-list/v1\",\"lineages\":[";
    std::cout << "]}\n";
  } else if (count == 0) {
    std::cout << "no lineages\n";
  }
  std::cout.flush();
  return 0;
}

}  // namespace

void DefineList(CLI::App* review, const Verb& verb, Invocation* in) {
  Command list = AddCommand(review, verb, in);
  list.OnParsed([in] { in->Choose([in] { return RunList(in->common); }); });
}

}  // namespace gentle::cli
