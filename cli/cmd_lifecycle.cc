// review verdict, burn, abandon, reclaim, invalidate, store reset, fsck, index rebuild.
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/render.h"
#include "transaction/burn.h"
#include "transaction/fsck.h"
#include "transaction/invalidate.h"
#include "transaction/retire.h"
#include "transaction/store_reset.h"
#include "transaction/verdict.h"

namespace gentle::cli {
namespace {

constexpr size_t kMaxBodyBytes = 1u << 20;

nlohmann::ordered_json OrNull(const std::string& text) {
  return text.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(text);
}

Result<std::string> ReadBody(const LifecycleOptions& o) {
  if (o.body.has_value() == o.body_file.has_value()) {
    return Status(Code::kUsage, "give exactly one of --body and --body-file");
  }
  if (o.body) return *o.body;
  std::ifstream in(*o.body_file, std::ios::binary);
  if (!in) return Status(Code::kUsage, "cannot read --body-file " + *o.body_file);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (text.size() > kMaxBodyBytes) return Status(Code::kUsage, "--body-file exceeds 1 MiB");
  return text;
}

int PrintRetired(const CommonOptions& common, const transaction::RetireResult& r,
                 const char* schema) {
  if (common.json) {
    nlohmann::ordered_json out;
    out["schema"] = schema;
    out["operation"] = r.operation;
    out["lineage"] = r.lineage;
    out["state"] = "retired";
    out["audit_record"] = r.audit_record;
    out["quarantine_path"] = r.quarantine_path;
    out["reason"] = r.reason;
    out["actor"] = r.actor;
    out["reclaimed_at"] = r.reclaimed_at;
    out["revision"] = OrNull(r.revision);
    return PrintJson(out);
  }
  std::cout << "retired " << r.lineage << "\n  audit record: " << r.audit_record << "\n";
  return 0;
}

}  // namespace

int RunVerdict(const CommonOptions& common, const LifecycleOptions& o) {
  transaction::VerdictRequest request{common.cwd, o.lineage, o.verdict,          o.actor,
                                      o.role,     "",        o.expected_revision};
  if (Status st = transaction::ValidateVerdictRequest(request); !st.ok()) {
    return ReportError(st, common.json);
  }
  auto body = ReadBody(o);
  if (!body.ok()) return ReportError(body.status(), common.json);
  request.body = *body;
  auto result = transaction::GiveVerdict(request);
  if (!result.ok()) return ReportError(result.status(), common.json);
  const transaction::VerdictResult& r = *result;
  if (common.json) {
    nlohmann::ordered_json out;
    out["schema"] = "gentle-ai.review-verdict/v1";
    out["lineage"] = r.lineage;
    out["verdict"] = r.verdict;
    out["previous_state"] = r.previous_state;
    out["state"] = r.state;
    out["previous_revision"] = r.previous_revision;
    out["revision"] = r.revision;
    out["body_sha256"] = r.body_sha256;
    out["at"] = r.at;
    out["token"] = OrNull(r.token);
    return PrintJson(out);
  }
  std::cout << r.verdict << " " << r.lineage << ": " << r.previous_state << " -> " << r.state
            << "\n  revision: " << r.revision << "\n";
  if (!r.token.empty()) {
    std::cout << "  token:    " << r.token
              << "\n  (shown once; `review burn` needs it with the revision above)\n";
  }
  return 0;
}

int RunBurn(const CommonOptions& common, const LifecycleOptions& o) {
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

int RunAbandon(const CommonOptions& common, const LifecycleOptions& o) {
  auto result =
      transaction::Abandon({common.cwd, o.lineage, o.reason, o.actor, o.expected_revision});
  if (!result.ok()) return ReportError(result.status(), common.json);
  return PrintRetired(common, *result, "gentle-ai.review-abandon/v1");
}

int RunReclaim(const CommonOptions& common, const LifecycleOptions& o) {
  auto result = transaction::Reclaim({common.cwd, o.lineage, o.reason, o.actor, std::nullopt});
  if (!result.ok()) return ReportError(result.status(), common.json);
  return PrintRetired(common, *result, "gentle-ai.review-reclaim/v1");
}

int RunInvalidate(const CommonOptions& common, const LifecycleOptions& o) {
  auto result =
      transaction::Invalidate({common.cwd, o.lineage, o.reason, o.actor, o.expected_revision});
  if (!result.ok()) return ReportError(result.status(), common.json);
  const transaction::InvalidateResult& r = *result;
  if (common.json) {
    nlohmann::ordered_json out;
    out["schema"] = "gentle-ai.review-invalidate/v1";
    out["lineage"] = r.lineage;
    out["state"] = r.state;
    out["previous_revision"] = r.previous_revision;
    out["revision"] = r.revision;
    return PrintJson(out);
  }
  std::cout << "invalidated " << r.lineage << "\n  revision: " << r.revision << "\n";
  return 0;
}

int RunStoreReset(const CommonOptions& common, const LifecycleOptions& o) {
  auto result = transaction::ResetStore(common.cwd, o.yes);
  if (!result.ok()) return ReportError(result.status(), common.json);
  const transaction::ResetPlan& r = *result;
  if (common.json) {
    nlohmann::ordered_json out;
    out["schema"] = "gentle-ai.review-store-reset/v1";
    out["performed"] = r.performed;
    out["root"] = r.root;
    out["paths"] = r.paths;
    out["pin_refs"] = r.pin_refs;
    return PrintJson(out);
  }
  std::cout << (r.performed ? "removed:\n" : "would remove (run again with --yes):\n");
  for (const std::string& path : r.paths) std::cout << "  " << path << "\n";
  for (const std::string& ref : r.pin_refs) std::cout << "  " << ref << "\n";
  if (r.paths.empty() && r.pin_refs.empty()) std::cout << "  nothing\n";
  return 0;
}

int RunFsck(const CommonOptions& common) {
  auto result = transaction::Fsck(common.cwd);
  if (!result.ok()) return ReportError(result.status(), common.json);
  const transaction::FsckReport& r = *result;
  const int exit_code = r.clean() ? 0 : ExitCodeFor(Code::kCorrupted);
  if (common.json) {
    nlohmann::ordered_json out;
    out["schema"] = "gentle-ai.review-fsck/v1";
    out["clean"] = r.clean();
    out["index_present"] = r.index_present;
    out["counts"]["lineages"] = r.lineages;
    out["counts"]["tombstones"] = r.tombstones;
    out["counts"]["quarantine"] = r.quarantine;
    out["counts"]["pin_refs"] = r.pin_refs;
    out["findings"] = nlohmann::ordered_json::array();
    for (const auto& f : r.findings) {
      nlohmann::ordered_json entry;
      entry["code"] = f.code;
      entry["lineage"] = OrNull(f.lineage);
      entry["path"] = OrNull(f.path);
      entry["message"] = f.message;
      out["findings"].push_back(entry);
    }
    PrintJson(out);
    return exit_code;
  }
  for (const auto& f : r.findings) {
    std::cout << f.code << "  " << (f.lineage.empty() ? "-" : f.lineage) << "  "
              << (f.path.empty() ? "-" : f.path) << "  " << f.message << "\n";
  }
  std::cout << (r.clean() ? "clean" : "NOT clean") << ": " << r.lineages << " lineage(s), "
            << r.tombstones << " tombstone(s), " << r.quarantine << " quarantine entr"
            << (r.quarantine == 1 ? "y" : "ies") << ", " << r.pin_refs << " pin ref(s), "
            << r.findings.size() << " finding(s)\n";
  return exit_code;
}

int RunIndexRebuild(const CommonOptions& common) {
  auto result = transaction::RebuildIndexCommand(common.cwd);
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

}  // namespace gentle::cli
