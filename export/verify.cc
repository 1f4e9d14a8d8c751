#include "export/verify.h"

#include "export/context_export.h"
#include "export/derivation.h"
#include "export/envelope_reader.h"
#include "store/digests.h"
#include "store/layout.h"
#include "store/lineage_id.h"
#include "store/sha256.h"
#include "store/store_guard.h"
#include "store/tree_rows.h"

namespace gentle::exporter {
namespace {

Result<std::string> TreeOf(const store::Repository& repo, const std::string& rev) {
  auto tree = store::PeelRevision(repo.raw(), rev, GIT_OBJECT_TREE);
  if (!tree.ok()) return Status(Code::kUsage, "--against: " + tree.status().message());
  return store::OidHex(*tree);
}

Status CheckAgainst(const store::Repository& repo, const std::optional<std::string>& against,
                    const std::string& candidate_tree, VerifyResult* result) {
  if (!against) return Status::Ok();
  GENTLE_ASSIGN_OR_RETURN(result->against_tree, TreeOf(repo, *against));
  if (result->against_tree != candidate_tree) {
    return Status(Code::kNotReviewed, "the tree of " + *against + " (" + result->against_tree +
                                          ") is not the reviewed candidate tree (" +
                                          candidate_tree + ")")
        .WithDetail("against_tree", result->against_tree)
        .WithDetail("candidate_tree", candidate_tree);
  }
  return Status::Ok();
}

void Fill(const Derived& derived, VerifyResult* result) {
  result->byte_size = derived.patch.size();
  result->sha256 = "sha256:" + store::Sha256Hex(derived.patch);
  result->engine = derived.engine;
}

}  // namespace

Result<VerifyResult> VerifyLineage(const std::string& cwd, const std::string& lineage,
                                   const std::optional<std::string>& against) {
  GENTLE_RETURN_IF_ERROR(store::ValidateLineageId(lineage));
  GENTLE_ASSIGN_OR_RETURN(store::Repository repo, store::Repository::Discover(cwd));
  const store::StoreLayout layout(repo.common_dir());
  GENTLE_ASSIGN_OR_RETURN(store::StoreGuard guard, store::StoreGuard::ForRead(layout));
  GENTLE_ASSIGN_OR_RETURN(store::RecordView record, LoadForRead(repo, lineage));
  auto derived = DeriveContext(repo, record.initial_snapshot, "native");
  if (!derived.ok()) {
    Status st = derived.status();
    return st.WithLineage(lineage);
  }
  VerifyResult result;
  result.lineage = lineage;
  result.state = record.state;
  result.candidate_tree = record.current_snapshot.candidate_tree;
  Fill(*derived, &result);
  Status against_status = CheckAgainst(repo, against, result.candidate_tree, &result);
  if (!against_status.ok()) return against_status.WithLineage(lineage);
  if (against && record.state != "approved") {
    return Status(Code::kWrongState, "lineage " + lineage + " is " + record.state +
                                         ", not approved; the merge is not authorised")
        .WithLineage(lineage);
  }
  return result;
}

Result<VerifyResult> VerifyEnvelope(const std::string& cwd, const std::string& envelope_json,
                                    const std::optional<std::string>& against) {
  GENTLE_ASSIGN_OR_RETURN(Envelope envelope, ParseEnvelope(envelope_json));
  if (!store::IsValidLineageId(envelope.lineage)) {
    return Status(Code::kIntegrityMismatch, "context envelope names an invalid lineage id");
  }
  if (store::ComputeSnapshotIdentity(envelope.snapshot) != envelope.snapshot.identity) {
    return Status(Code::kIntegrityMismatch,
                  "context envelope's snapshot identity does not bind its trees and digests")
        .WithLineage(envelope.lineage);
  }
  GENTLE_ASSIGN_OR_RETURN(store::Repository repo, store::Repository::Discover(cwd));
  auto derived = DeriveContext(repo, envelope.snapshot, "native", PathsCheck::kDigestOnly);
  if (!derived.ok()) {
    Status st = derived.status();
    return st.WithLineage(envelope.lineage);
  }
  if (derived->patch != envelope.patch) {
    return Status(
               Code::kIntegrityMismatch,
               "context envelope's bytes differ from the patch derived from this clone's objects")
        .WithLineage(envelope.lineage);
  }
  VerifyResult result;
  result.lineage = envelope.lineage;
  result.state = envelope.state;
  result.candidate_tree = envelope.snapshot.candidate_tree;
  Fill(*derived, &result);
  Status against_status = CheckAgainst(repo, against, result.candidate_tree, &result);
  if (!against_status.ok()) return against_status.WithLineage(envelope.lineage);
  return result;
}

}  // namespace gentle::exporter
