// review start, review status, review list.
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/commands.h"
#include "cli/render.h"
#include "store/go_marshal.h"
#include "transaction/inspect.h"
#include "transaction/start.h"

namespace gentle::cli {

int RunStart(const CommonOptions& common, const transaction::Selector& selector) {
  auto result = transaction::Start({common.cwd, selector});
  if (!result.ok()) return ReportError(result.status(), common.json);
  const transaction::StartResult& r = *result;
  if (common.json) {
    nlohmann::ordered_json out;
    out["schema"] = "gentle-ai.review-start/v1";
    out["lineage"] = r.lineage;
    out["revision"] = r.revision;
    out["target_identity"] = r.target_identity;
    out["state"] = r.state;
    out["kind"] = r.kind;
    out["changed_path_count"] = r.changed_path_count;
    out["created"] = r.created;
    return PrintJson(out);
  }
  std::cout << (r.created ? "started " : "already started ") << r.lineage << "\n"
            << "  revision:        " << r.revision << "\n"
            << "  target identity: " << r.target_identity << "\n"
            << "  state:           " << r.state << "\n"
            << "  kind:            " << r.kind << "\n"
            << "  changed paths:   " << r.changed_path_count << "\n";
  return 0;
}

int RunStatus(const CommonOptions& common, const std::optional<std::string>& lineage) {
  auto result = transaction::InspectStatus(common.cwd, lineage);
  if (!result.ok()) return ReportError(result.status(), common.json);
  if (common.json) {
    nlohmann::ordered_json out;
    out["schema"] = "gentle-ai.review-status/v1";
    out["lineages"] = nlohmann::ordered_json::array();
    for (const auto& s : *result) {
      nlohmann::ordered_json entry;
      entry["lineage"] = s.lineage;
      entry["state"] = NullIfEmpty(s.state);
      entry["kind"] = NullIfEmpty(s.kind);
      entry["applicability"] = s.applicability;
      entry["revision"] = NullIfEmpty(s.revision);
      entry["target_identity"] = NullIfEmpty(s.target_identity);
      entry["live_target_identity"] = NullIfEmpty(s.live_target_identity);
      if (!s.detail.empty()) entry["detail"] = s.detail;
      out["lineages"].push_back(entry);
    }
    return PrintJson(out);
  }
  if (result->empty()) std::cout << "no lineages\n";
  for (const auto& s : *result) {
    std::cout << s.lineage << "  " << (s.state.empty() ? "-" : s.state) << "  " << s.applicability;
    if (!s.detail.empty()) std::cout << "  (" << s.detail << ")";
    std::cout << "\n";
  }
  return 0;
}

namespace {

nlohmann::ordered_json ListEntry(const transaction::LineageSummary& s) {
  nlohmann::ordered_json entry;
  entry["lineage"] = s.lineage;
  entry["state"] = s.state;
  entry["kind"] = NullIfEmpty(s.kind);
  entry["created_at"] = NullIfEmpty(s.created_at);
  entry["path_count"] = s.path_count;
  if (s.state == "consumed") entry["tombstone"] = s.evidence;
  if (s.state == "retired") entry["audit_record"] = s.evidence;
  return entry;
}

}  // namespace

// Streams: each entry is printed as it is read, so output of any size needs constant memory. The
// first entry is held back until a second one (or the end) proves the listing started cleanly,
// so an error before any output still prints the plain error envelope.
int RunList(const CommonOptions& common) {
  size_t count = 0;
  std::string pending;
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
      line << s.lineage << "  " << s.state << "  " << (s.kind.empty() ? "-" : s.kind) << "  "
           << (s.created_at.empty() ? "-" : s.created_at) << "  " << s.path_count << " path(s)"
           << (s.evidence.empty() ? "" : "  " + s.evidence) << "\n";
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

}  // namespace gentle::cli
