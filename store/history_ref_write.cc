// The history's writes (store/history_ref.h): commit objects and the ref's compare-and-swap. In
// the store's write target.
#include <git2.h>
#include <git2/sys/repository.h>

#include <ctime>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

#include "store/file_io.h"
#include "store/git/git_file_check.h"
#include "store/git/git_util.h"
#include "store/git/memory_writes.h"
#include "store/git/object_reader.h"
#include "store/git/review_refs.h"
#include "store/git/tree_builder.h"
#include "store/history_ref.h"
#include "store/layout.h"
#include "store/time_order.h"
#include "store/writer_owner.h"

namespace gentle::store {
namespace {

constexpr const char* kIdentity = "gentle-ai <gentle-ai@invalid>";

// libgit2 fsyncs refs only while this option is on; it is on for the history ref's writes alone
// (the process is single-threaded). The history's objects are not written by libgit2's loose
// backend but in one batch (WriteHistoryCommit).
class FsyncScope {
 public:
  FsyncScope() { git_libgit2_opts(GIT_OPT_ENABLE_FSYNC_GITDIR, 1); }
  ~FsyncScope() { git_libgit2_opts(GIT_OPT_ENABLE_FSYNC_GITDIR, 0); }
  FsyncScope(const FsyncScope&) = delete;
  FsyncScope& operator=(const FsyncScope&) = delete;
};

// Seconds since the epoch of an RFC 3339 time; 0 when it does not parse.
int64_t EpochSeconds(const std::string& rfc3339) {
  const std::string key = TimeOrderKey(rfc3339);
  if (key.empty() || key[0] == '~' || key.size() < 19) return 0;
  std::tm tm{};
  if (sscanf(key.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
             &tm.tm_hour, &tm.tm_min, &tm.tm_sec) != 6) {
    return 0;
  }
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return static_cast<int64_t>(timegm(&tm));
}

// A trailer value on one line: plain text when it holds no control character, else JSON.
std::string TrailerValue(const std::string& value) {
  for (unsigned char c : value) {
    if (c < 0x20 || c == 0x7f) {
      return nlohmann::json(value).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
  }
  return value;
}

// Writes the object, or with kHashOnly only computes its id.
Result<git_oid> WriteObject(git_odb* odb, std::string_view data, git_object_t type,
                            git::ObjectWrites writes = git::ObjectWrites::kWrite) {
  git_oid id;
  const int rc = writes == git::ObjectWrites::kWrite
                     ? git_odb_write(&id, odb, data.data(), data.size(), type)
                     : git_odb_hash(&id, data.data(), data.size(), type);
  if (rc != 0) {
    return Status(Code::kInternal, "cannot write history objects: " + git::LastGitError());
  }
  return id;
}

// libgit2 reads GIT_OPT_ENABLE_FSYNC_GITDIR for refs once, when a repository's ref database is
// opened (refdb_fs keeps it in its backend), not at each write as it does for objects; the
// repository's ref database was opened by the first ref read of the command, with the option off.
// Without this, the ref's lock file and its directory were not fsynced at all (strace): the
// history could lose its moved tip to a power cut after the record was written. A ref database
// opened under the option makes libgit2 fsync the lock file before the rename and the directory
// after it. Once installed, later ref writes of the command go through it too.
Status UseFsyncingRefdb(git_repository* repo) {
  git_refdb* refdb = nullptr;
  if (git_refdb_open(&refdb, repo) != 0) {
    return Status(Code::kInternal, "cannot open the ref database: " + git::LastGitError());
  }
  const int rc = git_repository_set_refdb(repo, refdb);
  git_refdb_free(refdb);
  if (rc != 0) {
    return Status(Code::kInternal, "cannot open the ref database: " + git::LastGitError());
  }
  return Status::Ok();
}

Status RefMoved(const std::string& name) {
  return Status(Code::kConflict, name + " moved while it was being written");
}

}  // namespace

namespace {

// The unsigned commit's bytes; its blobs and trees are written with kWrite, only hashed with
// kHashOnly.
Result<std::string> HistoryCommitText(const git::Repository& repo, git_odb* odb,
                                      const HistoryCommitSpec& spec,
                                      const std::optional<std::string>& parent,
                                      git::ObjectWrites writes) {
  // The tree's rows by path (bytewise, as BuildTree needs them): base and candidate as subtrees,
  // the record, the parent's verdicts/ and this commit's files, which replace same-named ones.
  std::map<std::string, git::TreeRow> rows;
  auto add = [&](const std::string& path, uint32_t mode, const git_oid& id) {
    rows[path] = {path, mode, id};
  };
  GENTLE_ASSIGN_OR_RETURN(git_oid base, git::ParseOidHex(spec.base_tree));
  GENTLE_ASSIGN_OR_RETURN(git_oid candidate, git::ParseOidHex(spec.candidate_tree));
  add("base", 040000, base);
  add("candidate", 040000, candidate);
  GENTLE_ASSIGN_OR_RETURN(git_oid record,
                          WriteObject(odb, spec.record_file, GIT_OBJECT_BLOB, writes));
  add(std::string(kHistoryRecordName), 0100644, record);
  if (parent) {
    GENTLE_ASSIGN_OR_RETURN(auto carried, ReadHistoryVerdicts(repo, *parent));
    for (const auto& [name, hex] : carried) {
      GENTLE_ASSIGN_OR_RETURN(git_oid blob, git::ParseOidHex(hex));
      add("verdicts/" + name, 0100644, blob);
    }
  }
  for (const auto& [name, bytes] : spec.files) {
    GENTLE_ASSIGN_OR_RETURN(git_oid blob, WriteObject(odb, bytes, GIT_OBJECT_BLOB, writes));
    add(name, 0100644, blob);
  }
  git::TreeRows sorted;
  for (auto& [path, row] : rows) sorted.push_back(std::move(row));
  GENTLE_ASSIGN_OR_RETURN(git_oid tree, git::BuildTree(repo.raw(), sorted, writes));

  const std::string when = std::to_string(EpochSeconds(spec.at)) + " +0000";
  std::string commit = "tree " + git::OidHex(tree) + "\n";
  if (parent) commit += "parent " + *parent + "\n";
  commit += std::string("author ") + kIdentity + " " + when + "\n";
  commit += std::string("committer ") + kIdentity + " " + when + "\n\n";
  commit += std::string(HistoryVerbName(spec.verb)) + " " + spec.lineage + "\n\n";
  commit += "Lineage: " + spec.lineage + "\n";
  commit += "Revision: " + spec.revision + "\n";
  commit += "State: " + spec.state.name() + "\n";
  if (!spec.at.empty()) commit += "At: " + TrailerValue(spec.at) + "\n";
  if (!spec.created_at.empty()) commit += "Created-At: " + TrailerValue(spec.created_at) + "\n";
  for (const auto& [key, value] : spec.trailers) commit += key + ": " + TrailerValue(value) + "\n";
  return commit;
}

}  // namespace

namespace {

// The commit's objects, written to `repo`'s object database (held in memory by the caller); its id.
Result<std::string> WriteCommitObjects(const git::Repository& repo, const HistoryCommitSpec& spec,
                                       const std::optional<std::string>& parent) {
  GENTLE_ASSIGN_OR_RETURN(git::OdbPtr odb, git::RepositoryOdb(repo.raw()));
  if (spec.sign) {
    // Signed before anything is written: a refused signature leaves the object database as it
    // was. The objects are then written; the same spec gives the same bytes.
    GENTLE_ASSIGN_OR_RETURN(
        std::string unsigned_commit,
        HistoryCommitText(repo, odb.get(), spec, parent, git::ObjectWrites::kHashOnly));
    GENTLE_ASSIGN_OR_RETURN(std::string signature, spec.sign(unsigned_commit));
    GENTLE_ASSIGN_OR_RETURN(std::string commit, HistoryCommitText(repo, odb.get(), spec, parent,
                                                                  git::ObjectWrites::kWrite));
    git_oid id;
    if (git_commit_create_with_signature(&id, repo.raw(), commit.c_str(), signature.c_str(),
                                         "gpgsig") != 0) {
      return Status(Code::kInternal,
                    "cannot write the signed history commit: " + git::LastGitError());
    }
    return git::OidHex(id);
  }
  GENTLE_ASSIGN_OR_RETURN(std::string commit, HistoryCommitText(repo, odb.get(), spec, parent,
                                                                git::ObjectWrites::kWrite));
  GENTLE_ASSIGN_OR_RETURN(git_oid id, WriteObject(odb.get(), commit, GIT_OBJECT_COMMIT));
  return git::OidHex(id);
}

}  // namespace

Result<std::string> WriteHistoryCommit(const git::Repository& repo, const HistoryCommitSpec& spec,
                                       const std::optional<std::string>& parent) {
  // Held in memory, then written in one durable batch (store/git/loose_batch.h): one sync for the
  // commit's new objects instead of a file and a directory sync for each.
  GENTLE_ASSIGN_OR_RETURN(std::unique_ptr<git::MemoryWrites> held,
                          git::MemoryWrites::Divert(repo.raw()));
  GENTLE_ASSIGN_OR_RETURN(std::string id, WriteCommitObjects(repo, spec, parent));
  GENTLE_RETURN_IF_ERROR(held->Flush());
  return id;
}

Status MoveHistoryRef(const git::Repository& repo, const std::string& lineage,
                      const std::optional<std::string>& from,
                      const std::optional<std::string>& to) {
  FsyncScope fsync;
  GENTLE_RETURN_IF_ERROR(UseFsyncingRefdb(repo.raw()));
  const std::string name = HistoryRefName(lineage);
  GENTLE_RETURN_IF_ERROR(git::CheckRefFile(repo, name).WithLineage(lineage));
  // The locks libgit2 takes are named in the writer's owner record first, so that the next writer
  // removes them if this process dies holding one (store/writer_owner.h). A deletion may also
  // lock packed-refs.
  std::vector<std::string> locked = {name};
  if (!to) locked.push_back("packed-refs");
  GENTLE_ASSIGN_OR_RETURN(RefWriteIntent intent, RefWriteIntent::Record(std::move(locked)));
  int rc = 0;
  if (!to) {
    git_reference* ref = nullptr;
    rc = git_reference_lookup(&ref, repo.raw(), name.c_str());
    if (rc == GIT_ENOTFOUND) return from ? RefMoved(name) : Status::Ok();
    if (rc != 0) return Status(Code::kInternal, "cannot read " + name + ": " + git::LastGitError());
    const git_oid* target = git_reference_target(ref);
    if (!from || target == nullptr || git::OidHex(*target) != *from) {
      git_reference_free(ref);
      return RefMoved(name);
    }
    rc = git_reference_delete(ref);
    git_reference_free(ref);
  } else {
    GENTLE_ASSIGN_OR_RETURN(git_oid new_id, git::ParseOidHex(*to));
    git_reference* ref = nullptr;
    if (from) {
      GENTLE_ASSIGN_OR_RETURN(git_oid old_id, git::ParseOidHex(*from));
      rc = git_reference_create_matching(&ref, repo.raw(), name.c_str(), &new_id, 1, &old_id,
                                         "gentle-ai review history");
    } else {
      rc = git_reference_create(&ref, repo.raw(), name.c_str(), &new_id, 0,
                                "gentle-ai review history");
    }
    git_reference_free(ref);
  }
  if (rc == GIT_ELOCKED) return git::RefLockedStatus(repo, name);
  if (rc == GIT_EMODIFIED || rc == GIT_EEXISTS || rc == GIT_ENOTFOUND) return RefMoved(name);
  if (rc != 0) return Status(Code::kInternal, "cannot write " + name + ": " + git::LastGitError());
  return Status::Ok();
}

}  // namespace gentle::store
