#include "store/provenance.h"

#include <nlohmann/json.hpp>

#include "store/file_io.h"
#include "store/history_chain.h"
#include "store/history_ref.h"
#include "store/json_member.h"
#include "store/strict_json.h"

namespace gentle::store {
namespace {

constexpr size_t kMaxProvenanceBytes = 4096;

bool IsCommitHex(const std::string& s) {
  if (s.size() != 40) return false;
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

}  // namespace

std::string ProvenanceDir(const StoreLayout& layout) { return layout.root() + "/provenance"; }

std::string ProvenancePath(const StoreLayout& layout, const std::string& lineage) {
  return ProvenanceDir(layout) + "/" + lineage + ".json";
}

std::string EncodeProvenance(const std::string& lineage, const std::string& remote,
                             const std::string& tip) {
  nlohmann::ordered_json j;
  j["schema"] = kProvenanceSchema;
  j["lineage_id"] = lineage;
  j["remote"] = remote;
  j["tip"] = tip;
  return j.dump() + "\n";
}

Result<std::optional<Provenance>> ReadProvenance(const git::Repository& repo,
                                                 const StoreLayout& layout,
                                                 const std::string& lineage) {
  const std::string path = ProvenancePath(layout, lineage);
  GENTLE_RETURN_IF_ERROR(CheckNoSymlinks(layout.common_dir(), path));
  auto bytes = ReadFileLimited(path, kMaxProvenanceBytes);
  if (!bytes.ok()) {
    if (bytes.status().code() == Code::kNotFound) return std::optional<Provenance>();
    return Status(bytes.status()).WithLineage(lineage).WithDetail(DetailKey::kPath, path);
  }
  auto parsed = ParseStrictJsonFile(*bytes, 2, "provenance " + path);
  if (!parsed.ok())
    return Status(parsed.status()).WithLineage(lineage).WithDetail(DetailKey::kPath, path);
  const std::string remote = StringMember(*parsed, "remote");
  const std::string tip = StringMember(*parsed, "tip");
  if (!parsed->is_object() || parsed->size() != 4 ||
      StringMember(*parsed, "schema") != kProvenanceSchema ||
      StringMember(*parsed, "lineage_id") != lineage || !ValidateRemoteName(remote).ok() ||
      !IsCommitHex(tip)) {
    return Status(Code::kCorrupted, "provenance " + path + " is not a " +
                                        std::string(kProvenanceSchema) + " file of lineage " +
                                        lineage)
        .WithLineage(lineage)
        .WithDetail(DetailKey::kPath, path);
  }
  GENTLE_ASSIGN_OR_RETURN(std::optional<std::string> local, LocalHistoryTip(repo, lineage));
  if (!local || *local != tip) return std::optional<Provenance>();
  return std::optional<Provenance>(Provenance{remote, tip});
}

Result<std::string> ImportedSource(const git::Repository& repo, const StoreLayout& layout,
                                   const std::string& lineage) {
  GENTLE_ASSIGN_OR_RETURN(std::optional<Provenance> provenance,
                          ReadProvenance(repo, layout, lineage));
  return provenance ? provenance->remote : std::string();
}

Status WithSource(Status answer, const std::string& remote, const std::string& tip) {
  answer.WithDetail(DetailKey::kSource, remote).WithDetail(DetailKey::kTip, tip);
  return answer;
}

Result<std::set<std::string>> ImportedLineages(const StoreLayout& layout) {
  std::set<std::string> out;
  GENTLE_RETURN_IF_ERROR(CheckNoSymlinks(layout.common_dir(), ProvenanceDir(layout)));
  auto names = ListDirectory(ProvenanceDir(layout));
  if (!names.ok()) {
    if (names.status().code() == Code::kNotFound) return out;
    return names.status();
  }
  constexpr std::string_view kSuffix = ".json";
  for (const std::string& name : *names) {
    if (name.size() > kSuffix.size() &&
        name.compare(name.size() - kSuffix.size(), kSuffix.size(), kSuffix) == 0) {
      out.insert(name.substr(0, name.size() - kSuffix.size()));
    }
  }
  return out;
}

}  // namespace gentle::store
