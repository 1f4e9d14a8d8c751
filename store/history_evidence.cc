#include "store/history_evidence.h"

#include <nlohmann/json.hpp>
#include <optional>

#include "store/audit_record.h"
#include "store/catalog.h"
#include "store/digests.h"
#include "store/file_io.h"
#include "store/history_ref.h"
#include "store/history_verb.h"
#include "store/json_member.h"
#include "store/provenance.h"
#include "store/strict_json.h"
#include "store/tombstone.h"

namespace gentle::store {
namespace {

Status NotFound(const std::string& lineage) {
  return Status(Code::kNotFound, "no lineage " + lineage + " in this repository's store")
      .WithLineage(lineage);
}

Status Damaged(const std::string& lineage, const std::string& why) {
  return Status(Code::kCorrupted, why).WithLineage(lineage);
}

// The tombstone a burn commit's tombstone.json names, if the store still holds it.
Status FromTombstone(const StoreLayout& layout, const std::string& lineage,
                     const std::string& bytes) {
  auto doc = ParseStrictJsonFile(bytes, 1, "tombstone.json of " + lineage);
  const auto string = nlohmann::json::value_t::string;
  if (!doc.ok() || !doc->is_object() || TypedMember(*doc, "repository", string) == nullptr ||
      TypedMember(*doc, "target", string) == nullptr) {
    return Damaged(lineage, "the burn commit of " + lineage + " holds no readable tombstone.json");
  }
  const std::string repository = StringMember(*doc, "repository");
  const std::string target = StringMember(*doc, "target");
  if (!IsSha256Id(repository) || !IsSha256Id(target)) {
    return Damaged(lineage, "the burn commit of " + lineage +
                                " holds a tombstone.json with a malformed repository or target");
  }
  const std::string key = TombstoneKey(repository, target);
  auto row = LoadTombstone(layout, key);
  if (!row.ok() && row.status().code() == Code::kNotFound) return NotFound(lineage);
  const std::string path = TombstonePath(layout, key);
  if (!row.ok()) return Damaged(lineage, row.status().message() + ": " + path);
  if (row->lineage_id != lineage) {
    return Damaged(lineage, "store evidence names another lineage: " + path);
  }
  return ConsumedAnswer(lineage, path);
}

// The audit record an abandon commit's reclaim-record.json names, if the store still holds it.
Status FromAuditRecord(const StoreLayout& layout, const std::string& lineage,
                       const std::string& bytes) {
  auto committed = ParseAuditRecord(bytes);
  if (!committed.ok()) {
    return Damaged(lineage,
                   "the abandon commit of " + lineage + " holds no readable reclaim-record.json");
  }
  const std::string& qpath = committed->quarantine_path;
  const std::string name = qpath.substr(qpath.find_last_of('/') + 1);
  // The entry is <lineage>-<random>: a name that is not is no entry of this lineage's.
  if (name.compare(0, lineage.size() + 1, lineage + "-") != 0 ||
      name.size() == lineage.size() + 1) {
    return Damaged(lineage, "the abandon commit of " + lineage + " names the quarantine entry " +
                                qpath + ", not one of this lineage's");
  }
  const std::string path = AuditPath(layout, name);
  auto record = LoadAuditRecord(layout, name);
  if (!record.ok() && record.status().code() == Code::kNotFound) return NotFound(lineage);
  if (!record.ok()) return Damaged(lineage, record.status().message() + ": " + path);
  if (record->lineage_id != lineage) {
    return Damaged(lineage, "store evidence names another lineage: " + path);
  }
  // A prepared record counts only once its residue is in place (gentle-ai's rule).
  if (record->status != index::RowStatus::kCommitted &&
      KindOf(ResiduePath(layout, name)) != PathKind::kDirectory) {
    return NotFound(lineage);
  }
  return RetiredAnswer(lineage, path);
}

}  // namespace

Status ClassifyFromHistory(const git::Repository& repo, const StoreLayout& layout,
                           const std::string& lineage) {
  GENTLE_ASSIGN_OR_RETURN(std::optional<HistoryCommit> tip, ReadHistoryTip(repo, lineage));
  if (!tip || !tip->terminal()) return NotFound(lineage);
  const bool burn = tip->verb.Is(HistoryVerb::kBurn);
  const std::string name(burn ? kHistoryTombstoneName : kHistoryAuditName);
  GENTLE_ASSIGN_OR_RETURN(std::optional<std::string> bytes, ReadHistoryFile(repo, tip->id, name));
  if (!bytes) {
    return Damaged(lineage, "the " + tip->verb.text() + " commit " + tip->id + " of " + lineage +
                                " holds no " + name);
  }
  return burn ? FromTombstone(layout, lineage, *bytes) : FromAuditRecord(layout, lineage, *bytes);
}

Status ClassifyRecordlessHere(const git::Repository& repo, const StoreLayout& layout,
                              const std::string& lineage) {
  Status absent = ClassifyRecordless(layout, lineage);
  if (absent.code() != Code::kNotFound) return absent;
  Status here = ClassifyFromHistory(repo, layout, lineage);
  return here.code() == Code::kNotFound ? absent : here;
}

Status AnswerRecordless(const git::Repository& repo, const StoreLayout& layout,
                        const std::string& lineage) {
  Status answer = ClassifyRecordlessHere(repo, layout, lineage);
  if (answer.code() != Code::kConsumed && answer.code() != Code::kRetired) return answer;
  GENTLE_ASSIGN_OR_RETURN(std::optional<Provenance> imported,
                          ReadProvenance(repo, layout, lineage));
  return imported ? WithSource(std::move(answer), imported->remote, imported->tip) : answer;
}

}  // namespace gentle::store
