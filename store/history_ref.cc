#include "store/history_ref.h"

#include <git2.h>

#include "store/audit_record.h"
#include "store/file_io.h"
#include "store/git/git_file_check.h"
#include "store/git/object_reader.h"
#include "store/git/raw_tree.h"
#include "store/git/tree_rows.h"
#include "store/layout.h"
#include "store/record.h"
#include "store/time_order.h"
#include "store/tombstone.h"

namespace gentle::store {
namespace {

struct ParsedCommit {
  git_oid tree;
  std::optional<std::string> parent;
  size_t parent_count = 0;
  std::string message;
};

Result<ParsedCommit> ReadCommitObject(git_odb* odb, const git_oid& id) {
  GENTLE_ASSIGN_OR_RETURN(git::OdbObjectPtr object,
                          git::ReadObject(odb, id, GIT_OBJECT_COMMIT, kMaxHistoryObjectBytes));
  const std::string_view data(static_cast<const char*>(git_odb_object_data(object.get())),
                              git_odb_object_size(object.get()));
  ParsedCommit out;
  const size_t body = data.find("\n\n");
  if (data.compare(0, 5, "tree ") != 0 || body == std::string_view::npos) {
    return Status(Code::kCorrupted, "history commit " + git::OidHex(id) + " does not parse");
  }
  GENTLE_ASSIGN_OR_RETURN(out.tree, git::ParseOidHex(std::string(data.substr(5, GIT_OID_HEXSZ))));
  for (size_t at = data.find("\nparent "); at != std::string_view::npos && at < body;
       at = data.find("\nparent ", at + 1)) {
    if (!out.parent) out.parent = std::string(data.substr(at + 8, GIT_OID_HEXSZ));
    ++out.parent_count;
  }
  out.message = std::string(data.substr(body + 2));
  return out;
}

std::string Trailer(const std::string& message, const std::string& key) {
  const std::string prefix = "\n" + key + ": ";
  const size_t at = message.find(prefix);
  if (at == std::string::npos) return "";
  const size_t begin = at + prefix.size();
  const size_t end = message.find('\n', begin);
  return message.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

// The blob of the history file `name`, refused over its limit before it is inflated.
Result<std::string> ReadBlob(git_odb* odb, const git_oid& id, std::string_view name) {
  auto object = git::ReadObject(odb, id, GIT_OBJECT_BLOB, HistoryFileLimit(name));
  if (!object.ok()) {
    Status st = object.status();
    return st.WithDetail(DetailKey::kFile, std::string(name));
  }
  return std::string(static_cast<const char*>(git_odb_object_data(object->get())),
                     git_odb_object_size(object->get()));
}

// A history tree, read within its size limit and refused unless canonical: with a name twice (or
// out of order) git reads one entry and a linear scan another.
Result<git::RawTree> ReadHistoryTree(git_odb* odb, const git_oid& id) {
  GENTLE_ASSIGN_OR_RETURN(git::RawTree tree, git::ReadTree(odb, id, kMaxHistoryObjectBytes));
  if (!tree.CanonicalOrder()) {
    return Status(Code::kCorrupted, "history tree " + git::OidHex(id) +
                                        " names an entry twice or is not in git's tree order")
        .WithDetail(DetailKey::kTree, git::OidHex(id));
  }
  return tree;
}

}  // namespace

uint64_t HistoryFileLimit(std::string_view name) {
  if (name == kHistoryRecordName) return kMaxRecordBytes;
  if (name == kHistoryTombstoneName) return kMaxTombstoneBytes;
  if (name == kHistoryAuditName) return kMaxAuditBytes;
  if (name == kHistoryContextName) return kMaxHistoryContextBytes;
  if (name == kHistoryGeneratedName) return kMaxRecordBytes;
  if (name == kHistoryBudgetName) return kMaxHistoryBudgetBytes;
  if (name == kHistoryCoApprovalName) return kMaxHistoryVerdictBytes;
  if (name.substr(0, 9) == "verdicts/") return kMaxHistoryVerdictBytes;
  return kMaxHistoryObjectBytes;
}

std::string HistoryRefName(const std::string& lineage) { return StoreLayout::HistoryRef(lineage); }

Result<HistoryCommit> ReadHistoryCommit(const git::Repository& repo, const std::string& id,
                                        RecordBytes record) {
  GENTLE_ASSIGN_OR_RETURN(git_oid oid, git::ParseOidHex(id));
  GENTLE_ASSIGN_OR_RETURN(git::OdbPtr odb, git::RepositoryOdb(repo.raw()));
  GENTLE_ASSIGN_OR_RETURN(ParsedCommit parsed, ReadCommitObject(odb.get(), oid));
  GENTLE_ASSIGN_OR_RETURN(git::RawTree tree, ReadHistoryTree(odb.get(), parsed.tree));
  HistoryCommit out;
  out.id = id;
  out.parent = parsed.parent;
  out.parent_count = parsed.parent_count;
  out.lineage = Trailer(parsed.message, "Lineage");
  out.subject = parsed.message.substr(0, parsed.message.find('\n'));
  const std::string& m = parsed.message;
  out.verb = HistoryVerbWord::FromText(m.substr(0, m.find_first_of(" \n")));
  out.revision = Trailer(m, "Revision");
  out.state = StateName::FromText(Trailer(m, "State"));
  out.at = Trailer(m, "At");
  out.created_at = Trailer(m, "Created-At");
  out.round = Trailer(m, "Round");
  out.context_digest = Trailer(m, "Context");
  out.context_unavailable = Trailer(m, "Context-Unavailable");
  out.verdict = VerdictWord::FromText(Trailer(m, "Verdict"));
  out.legacy_pin = true;
  for (const git::RawTreeEntry& e : tree.entries()) {
    if (e.name == "base") out.base_tree = git::OidHex(e.id);
    if (e.name == "candidate") out.candidate_tree = git::OidHex(e.id);
    if (e.name == kHistoryRecordName && !e.is_tree()) {
      out.record_blob = git::OidHex(e.id);
      if (record == RecordBytes::kRead) {
        GENTLE_ASSIGN_OR_RETURN(out.record_file, ReadBlob(odb.get(), e.id, kHistoryRecordName));
      }
      out.legacy_pin = false;
    }
  }
  if (out.legacy_pin) out.verb = HistoryVerbWord::FromText("pin");
  return out;
}

Result<uint64_t> HistoryRecordSize(const git::Repository& repo, const HistoryCommit& commit) {
  GENTLE_ASSIGN_OR_RETURN(git_oid oid, git::ParseOidHex(commit.record_blob));
  GENTLE_ASSIGN_OR_RETURN(git::OdbPtr odb, git::RepositoryOdb(repo.raw()));
  auto header = git::ReadObjectHeaderWithin(odb.get(), oid, HistoryFileLimit(kHistoryRecordName));
  if (!header.ok()) {
    Status st = header.status();
    return st.WithDetail(DetailKey::kFile, std::string(kHistoryRecordName));
  }
  return header->size;
}

Result<std::string> ReadHistoryRecord(const git::Repository& repo, const HistoryCommit& commit) {
  GENTLE_ASSIGN_OR_RETURN(git_oid oid, git::ParseOidHex(commit.record_blob));
  GENTLE_ASSIGN_OR_RETURN(git::OdbPtr odb, git::RepositoryOdb(repo.raw()));
  return ReadBlob(odb.get(), oid, kHistoryRecordName);
}

Result<std::optional<std::string>> LocalHistoryTip(const git::Repository& repo,
                                                   const std::string& lineage) {
  const std::string name = HistoryRefName(lineage);
  GENTLE_RETURN_IF_ERROR(git::CheckRefFile(repo, name).WithLineage(lineage));
  git_oid target;
  const int rc = git_reference_name_to_id(&target, repo.raw(), name.c_str());
  if (rc == GIT_ENOTFOUND) return std::optional<std::string>();
  if (rc != 0) return Status(Code::kInternal, "cannot read " + name + ": " + git::LastGitError());
  return std::optional<std::string>(git::OidHex(target));
}

Result<std::optional<HistoryCommit>> ReadHistoryTip(const git::Repository& repo,
                                                    const std::string& lineage) {
  GENTLE_ASSIGN_OR_RETURN(std::optional<std::string> id, LocalHistoryTip(repo, lineage));
  if (!id) return std::optional<HistoryCommit>();
  GENTLE_ASSIGN_OR_RETURN(HistoryCommit tip, ReadHistoryCommit(repo, *id));
  return std::optional<HistoryCommit>(std::move(tip));
}

Result<std::optional<std::string>> ReadHistoryFile(const git::Repository& repo,
                                                   const std::string& id, const std::string& name) {
  GENTLE_ASSIGN_OR_RETURN(git_oid oid, git::ParseOidHex(id));
  GENTLE_ASSIGN_OR_RETURN(git::OdbPtr odb, git::RepositoryOdb(repo.raw()));
  GENTLE_ASSIGN_OR_RETURN(ParsedCommit parsed, ReadCommitObject(odb.get(), oid));
  git_oid tree_id = parsed.tree;
  std::string rest = name;
  while (true) {
    GENTLE_ASSIGN_OR_RETURN(git::RawTree tree, ReadHistoryTree(odb.get(), tree_id));
    const size_t slash = rest.find('/');
    const std::string part = rest.substr(0, slash);
    const git::RawTreeEntry* found = nullptr;
    for (const git::RawTreeEntry& e : tree.entries()) {
      if (e.name == part) found = &e;
    }
    if (found == nullptr) return std::optional<std::string>();
    if (slash == std::string::npos) {
      if (found->is_tree()) return std::optional<std::string>();
      GENTLE_ASSIGN_OR_RETURN(std::string bytes, ReadBlob(odb.get(), found->id, name));
      return std::optional<std::string>(std::move(bytes));
    }
    if (!found->is_tree()) return std::optional<std::string>();
    tree_id = found->id;
    rest = rest.substr(slash + 1);
  }
}

Result<std::vector<std::pair<std::string, std::string>>> ReadHistoryVerdicts(
    const git::Repository& repo, const std::string& id) {
  GENTLE_ASSIGN_OR_RETURN(git_oid oid, git::ParseOidHex(id));
  GENTLE_ASSIGN_OR_RETURN(git::OdbPtr odb, git::RepositoryOdb(repo.raw()));
  GENTLE_ASSIGN_OR_RETURN(ParsedCommit parsed, ReadCommitObject(odb.get(), oid));
  GENTLE_ASSIGN_OR_RETURN(git::RawTree tree, ReadHistoryTree(odb.get(), parsed.tree));
  std::vector<std::pair<std::string, std::string>> out;
  for (const git::RawTreeEntry& e : tree.entries()) {
    if (e.name != "verdicts" || !e.is_tree()) continue;
    GENTLE_ASSIGN_OR_RETURN(git::RawTree sub, ReadHistoryTree(odb.get(), e.id));
    for (const git::RawTreeEntry& v : sub.entries()) {
      if (!v.is_tree()) out.emplace_back(std::string(v.name), git::OidHex(v.id));
    }
  }
  return out;
}

}  // namespace gentle::store
