#include "export/context_export.h"

#include <nlohmann/json.hpp>

#include "export/base64.h"
#include "export/engine.h"
#include "export/git_flags.h"
#include "export/round_generated.h"
#include "export/round_record.h"
#include "store/catalog.h"
#include "store/fetched_lineage.h"
#include "store/file_io.h"
#include "store/go_marshal.h"
#include "store/history_evidence.h"
#include "store/history_ref.h"
#include "store/layout.h"
#include "store/lineage_id.h"
#include "store/provenance.h"
#include "store/round_context.h"
#include "store/sha256.h"
#include "store/store_guard.h"

namespace gentle::exporter {

namespace {

Status ReadOnlyCompat(const std::string& lineage) {
  return Status(Code::kReadOnly,
                "lineage " + lineage +
                    " is a historical-compatibility record (retired fields); it is read-only")
      .WithLineage(lineage);
}

Result<store::RecordView> LoadLocal(const store::git::Repository& repo,
                                    const store::StoreLayout& layout, const std::string& lineage) {
  auto record = store::LoadRecord(layout, lineage);
  if (record.ok()) {
    if (record->historical_compat) return ReadOnlyCompat(lineage);
    // A live record whose lineage is also burned is a duplicate claim (one keyed index lookup).
    // Only a tombstone file can make it one: with none in the store (no burn yet), the index
    // need not be opened.
    if (!store::MayHoldTombstones(layout)) return record;
    Status burned = store::FindBurnClaim(layout, lineage);
    if (burned.code() == Code::kConsumed) {
      return Status(Code::kAmbiguous, "lineage " + lineage + " has a live record and a tombstone")
          .WithLineage(lineage)
          .WithDetail(DetailKey::kTombstone, burned.has_detail(DetailKey::kTombstone)
                                                 ? *burned.detail(DetailKey::kTombstone)
                                                 : std::string());
    }
    return record;
  }
  if (record.status().code() != Code::kNotFound) return record.status();
  return store::AnswerRecordless(repo, layout, lineage);
}

}  // namespace

Result<LoadedRecord> LoadForRead(const store::git::Repository& repo, const std::string& lineage) {
  const store::StoreLayout layout(repo.common_dir());
  auto local = LoadLocal(repo, layout, lineage);
  if (local.ok()) {
    GENTLE_ASSIGN_OR_RETURN(std::string source, store::ImportedSource(repo, layout, lineage));
    return LoadedRecord{std::move(local).value(), std::move(source), false};
  }
  if (local.status().code() != Code::kNotFound) return local.status();
  GENTLE_ASSIGN_OR_RETURN(std::optional<store::FetchedLineage> fetched,
                          store::ReadFetchedLineage(repo, lineage));
  if (!fetched) return local.status();
  GENTLE_RETURN_IF_ERROR(store::TerminalAnswer(*fetched, lineage));
  if (fetched->chain.record.historical_compat) return ReadOnlyCompat(lineage);
  return LoadedRecord{fetched->chain.record, fetched->remote, true};
}

namespace {

// The round's review-context binding, as information: nothing when it cannot be read.
void SetRoundContext(const store::git::Repository& repo, const std::string& tip, int64_t round,
                     ContextExport* out) {
  auto bound = store::ReadRoundContext(repo, tip, round);
  if (!bound.ok() || !*bound) return;
  out->context_digest = (*bound)->context_digest;
  out->context_unavailable = (*bound)->unavailable_reason;
}

}  // namespace

Result<ContextExport> ExportContext(const ContextRequest& request) {
  GENTLE_RETURN_IF_ERROR(store::ValidateLineageId(request.lineage));
  if (request.round && *request.round < 1) {
    return Status(Code::kUsage, "--round must be >= 1, got " + std::to_string(*request.round));
  }
  GENTLE_ASSIGN_OR_RETURN(store::git::Repository repo,
                          store::git::Repository::Discover(request.cwd));
  const store::StoreLayout layout(repo.common_dir());
  GENTLE_ASSIGN_OR_RETURN(store::StoreGuard guard, store::StoreGuard::ForRead(layout));
  ContextExport out;
  std::optional<store::HistoryCommit> marks_tip;  // the history the review view's marks come from
  bool consumed = false;                          // a burned lineage's round, read from its history
  if (request.round) {
    GENTLE_ASSIGN_OR_RETURN(RoundHistory history, ReadRoundHistory(repo, request.lineage));
    GENTLE_ASSIGN_OR_RETURN(store::RecordView round,
                            RoundRecordOf(repo, request.lineage, history, *request.round));
    out.round = *request.round;
    out.snapshot = round.current_snapshot;
    out.round_revision = round.revision;
    if (history.tip && request.context_binding) {
      SetRoundContext(repo, history.tip->id, out.round, &out);
    }
    marks_tip = history.tip;
    out.record = std::move(history.record);
    out.state =
        history.consumed ? store::StateName(store::TerminalState::kConsumed) : out.record.state;
    out.source = std::move(history.source);
    out.fetched = history.fetched;
    consumed = history.consumed;
  } else {
    GENTLE_ASSIGN_OR_RETURN(LoadedRecord loaded, LoadForRead(repo, request.lineage));
    out.record = std::move(loaded.record);
    out.state = out.record.state;
    out.source = std::move(loaded.source);
    out.fetched = loaded.fetched;
    out.round = out.record.round;
    out.snapshot = out.record.current_snapshot;
    if (!out.fetched && request.context_binding) {
      auto tip = store::ReadHistoryTip(repo, request.lineage);
      if (tip.ok() && *tip) SetRoundContext(repo, (*tip)->id, out.round, &out);
    }
  }
  auto derived = [&]() -> Result<Derived> {
    if (!request.part) {
      return DeriveContext(repo, out.snapshot, request.engine, PathsCheck::kListAndDigest,
                           kMaxContextBytes, request.spool);
    }
    std::vector<std::string> generated;
    if (request.part->view == View::kReview) {
      if (!request.round) {
        GENTLE_ASSIGN_OR_RETURN(RoundHistory history, ReadRoundHistory(repo, request.lineage));
        marks_tip = std::move(history.tip);
      }
      GENTLE_ASSIGN_OR_RETURN(generated, ReadRoundGenerated(repo, marks_tip, out.round));
    }
    return DeriveContextPart(repo, out.snapshot, PathsCheck::kListAndDigest, *request.part,
                             generated);
  }();
  if (!derived.ok()) {
    Status st = derived.status();
    return st.WithLineage(request.lineage);
  }
  out.derived = std::move(derived).value();
  out.standing = Standing{"unrelated", "none", "candidate_burned"};
  if (request.standing && !consumed) {
    auto standing = request.standing(repo, out.record, out.fetched ? out.source : "");
    if (!standing.ok()) {
      Status st = standing.status();
      return st.WithLineage(request.lineage);
    }
    out.standing = std::move(standing).value();
  }
  store::git::LeaveToExit(std::move(repo));
  return out;
}

void RenderDerivedMembers(const Derived& derived, nlohmann::ordered_json* out) {
  using Json = nlohmann::ordered_json;
  Json& j = *out;
  const std::string& patch = derived.patch;
  Json& diff = j["candidate_diff"];
  diff["encoding"] = "base64";
  diff["data"] = EncodeBase64(patch);
  diff["sha256"] = "sha256:" + store::Sha256Hex(patch);
  diff["byte_size"] = patch.size();
  j["changed_path_manifest"] = Json::array();
  for (const ManifestEntry& e : derived.manifest) {
    Json entry;
    entry["path"] = e.path;
    entry["status"] = std::string(1, e.status);
    entry["old_mode"] = e.old_mode;
    entry["new_mode"] = e.new_mode;
    entry["old_oid"] = e.old_oid;
    entry["new_oid"] = e.new_oid;
    j["changed_path_manifest"].push_back(entry);
  }
  Json& derivation = j["derivation"];
  derivation["git_flags"] = PinnedDiffFlags();
  derivation["engine"] = std::string(EngineName(derived.engine));
  derivation["tool_version"] = kToolVersion;
  j["budget"]["max_bytes"] = kMaxContextBytes;
  j["budget"]["used_bytes"] = patch.size();
  if (!derived.part) return;
  const DerivedPart& part = *derived.part;
  j["view"] = std::string(ViewName(part.view));
  j["part"] = part.part;
  j["parts"] = part.parts;
  j["part_max_bytes"] = part.max_bytes == kNoPartLimit ? Json(nullptr) : Json(part.max_bytes);
  j["part_paths"] = part.paths;
  j["summarised_paths"] = part.summarised_paths;
}

std::string RenderEnvelope(const ContextExport& c) {
  using Json = nlohmann::ordered_json;
  const store::Snapshot& s = c.snapshot;
  Json j;
  j["schema"] = "gentle-ai.review-context-export/v1";
  j["lineage"] = c.record.lineage_id;
  j["revision"] = c.record.revision;
  j["round"] = c.round;
  if (!c.round_revision.empty()) j["round_revision"] = c.round_revision;
  Json& snapshot = j["snapshot"];
  snapshot["kind"] = s.kind;
  snapshot["base_tree"] = s.base_tree;
  snapshot["candidate_tree"] = s.candidate_tree;
  snapshot["paths_digest"] = s.paths_digest;
  snapshot["intended_untracked"] = s.intended_untracked;
  snapshot["identity"] = s.identity;
  snapshot["projection"] = s.projection.empty() ? "workspace" : s.projection;
  snapshot["unborn_head"] = s.unborn_head;
  snapshot["ledger_ids"] = s.ledger_ids;
  j["state"] = c.state.name();
  j["applicability"] = c.standing.applicability;
  j["source"] = c.source.empty() ? Json(nullptr) : Json(c.source);
  RenderDerivedMembers(c.derived, &j);
  j["context_digest"] = c.context_digest.empty() ? Json(nullptr) : Json(c.context_digest);
  j["context_unavailable"] =
      c.context_unavailable.empty() ? Json(nullptr) : Json(c.context_unavailable);
  j["next"] = c.standing.next;
  j["next_reason"] = c.standing.next_reason;
  return store::MarshalCompact(j);
}

}  // namespace gentle::exporter
