#include "store/history_ref.h"

#include <git2.h>

#include <algorithm>
#include <ctime>
#include <nlohmann/json.hpp>

#include "store/file_io.h"
#include "store/git/object_reader.h"
#include "store/git/raw_tree.h"
#include "store/git/tree_rows.h"
#include "store/layout.h"
#include "store/time_order.h"

namespace gentle::store {
namespace {

constexpr const char* kIdentity = "gentle-ai <gentle-ai@invalid>";

// libgit2 fsyncs objects and refs only while this option is on; it is on for the history writes
// alone (the process is single-threaded).
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

struct Entry {
  std::string name;
  bool tree;
  git_oid id;
};

Result<git_oid> WriteObject(git_odb* odb, std::string_view data, git_object_t type) {
  git_oid id;
  if (git_odb_write(&id, odb, data.data(), data.size(), type) != 0) {
    return Status(Code::kInternal, "cannot write history objects: " + git::LastGitError());
  }
  return id;
}

Result<git_oid> WriteTree(git_odb* odb, std::vector<Entry> entries) {
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return a.name + (a.tree ? "/" : "") < b.name + (b.tree ? "/" : "");
  });
  std::string data;
  for (const Entry& e : entries) {
    data += e.tree ? "40000 " : "100644 ";
    data += e.name;
    data.push_back('\0');
    data.append(reinterpret_cast<const char*>(e.id.id), GIT_OID_RAWSZ);
  }
  return WriteObject(odb, data, GIT_OBJECT_TREE);
}

Result<git_oid> ParseOid(const std::string& hex) {
  git_oid oid;
  if (hex.size() != GIT_OID_HEXSZ || git_oid_fromstr(&oid, hex.c_str()) != 0) {
    return Status(Code::kCorrupted, "malformed object id in history: " + hex);
  }
  return oid;
}

struct ParsedCommit {
  git_oid tree;
  std::optional<std::string> parent;
  std::string message;
};

Result<ParsedCommit> ReadCommitObject(git_odb* odb, const git_oid& id) {
  GENTLE_ASSIGN_OR_RETURN(git::OdbObjectPtr object, git::ReadObject(odb, id, GIT_OBJECT_COMMIT));
  const std::string_view data(static_cast<const char*>(git_odb_object_data(object.get())),
                              git_odb_object_size(object.get()));
  ParsedCommit out;
  const size_t body = data.find("\n\n");
  if (data.compare(0, 5, "tree ") != 0 || body == std::string_view::npos) {
    return Status(Code::kCorrupted, "history commit " + git::OidHex(id) + " does not parse");
  }
  GENTLE_ASSIGN_OR_RETURN(out.tree, ParseOid(std::string(data.substr(5, GIT_OID_HEXSZ))));
  const size_t parent = data.find("\nparent ");
  if (parent != std::string_view::npos && parent < body) {
    out.parent = std::string(data.substr(parent + 8, GIT_OID_HEXSZ));
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

Result<std::string> ReadBlob(git_odb* odb, const git_oid& id) {
  GENTLE_ASSIGN_OR_RETURN(git::OdbObjectPtr object, git::ReadObject(odb, id, GIT_OBJECT_BLOB));
  return std::string(static_cast<const char*>(git_odb_object_data(object.get())),
                     git_odb_object_size(object.get()));
}

Status RefLocked(const git::Repository& repo, const std::string& name) {
  std::string lock = repo.common_dir() + "/" + name + ".lock";
  if (KindOf(lock) == PathKind::kMissing) {
    const std::string packed = repo.common_dir() + "/packed-refs.lock";
    if (KindOf(packed) != PathKind::kMissing) lock = packed;
  }
  return Status(Code::kBusy, name + " is locked by " + lock +
                                 ": a git command holds it, or one was stopped while holding it "
                                 "(remove the file if no git command is running)")
      .WithDetail("lock", lock);
}

Status RefMoved(const std::string& name) {
  return Status(Code::kConflict, name + " moved while it was being written");
}

}  // namespace

std::string HistoryRefName(const std::string& lineage) { return StoreLayout::PinRef(lineage); }

Result<HistoryCommit> ReadHistoryCommit(const git::Repository& repo, const std::string& id) {
  GENTLE_ASSIGN_OR_RETURN(git_oid oid, ParseOid(id));
  GENTLE_ASSIGN_OR_RETURN(git::OdbPtr odb, git::RepositoryOdb(repo.raw()));
  GENTLE_ASSIGN_OR_RETURN(ParsedCommit parsed, ReadCommitObject(odb.get(), oid));
  GENTLE_ASSIGN_OR_RETURN(git::RawTree tree, git::ReadTree(odb.get(), parsed.tree));
  HistoryCommit out;
  out.id = id;
  out.parent = parsed.parent;
  const std::string& m = parsed.message;
  out.verb = m.substr(0, m.find_first_of(" \n"));
  out.revision = Trailer(m, "Revision");
  out.state = Trailer(m, "State");
  out.at = Trailer(m, "At");
  out.created_at = Trailer(m, "Created-At");
  out.legacy_pin = true;
  for (const git::RawTreeEntry& e : tree.entries()) {
    if (e.name == "base") out.base_tree = git::OidHex(e.id);
    if (e.name == "candidate") out.candidate_tree = git::OidHex(e.id);
    if (e.name == kHistoryRecordName && !e.is_tree()) {
      GENTLE_ASSIGN_OR_RETURN(out.record_file, ReadBlob(odb.get(), e.id));
      out.legacy_pin = false;
    }
  }
  if (out.legacy_pin) out.verb = "pin";
  return out;
}

Result<std::optional<HistoryCommit>> ReadHistoryTip(const git::Repository& repo,
                                                    const std::string& lineage) {
  const std::string name = HistoryRefName(lineage);
  git_oid target;
  const int rc = git_reference_name_to_id(&target, repo.raw(), name.c_str());
  if (rc == GIT_ENOTFOUND) return std::optional<HistoryCommit>();
  if (rc != 0) return Status(Code::kInternal, "cannot read " + name + ": " + git::LastGitError());
  GENTLE_ASSIGN_OR_RETURN(HistoryCommit tip, ReadHistoryCommit(repo, git::OidHex(target)));
  return std::optional<HistoryCommit>(std::move(tip));
}

Result<std::optional<std::string>> ReadHistoryFile(const git::Repository& repo,
                                                   const std::string& id, const std::string& name) {
  GENTLE_ASSIGN_OR_RETURN(git_oid oid, ParseOid(id));
  GENTLE_ASSIGN_OR_RETURN(git::OdbPtr odb, git::RepositoryOdb(repo.raw()));
  GENTLE_ASSIGN_OR_RETURN(ParsedCommit parsed, ReadCommitObject(odb.get(), oid));
  git_oid tree_id = parsed.tree;
  std::string rest = name;
  while (true) {
    GENTLE_ASSIGN_OR_RETURN(git::RawTree tree, git::ReadTree(odb.get(), tree_id));
    const size_t slash = rest.find('/');
    const std::string part = rest.substr(0, slash);
    const git::RawTreeEntry* found = nullptr;
    for (const git::RawTreeEntry& e : tree.entries()) {
      if (e.name == part) found = &e;
    }
    if (found == nullptr) return std::optional<std::string>();
    if (slash == std::string::npos) {
      if (found->is_tree()) return std::optional<std::string>();
      GENTLE_ASSIGN_OR_RETURN(std::string bytes, ReadBlob(odb.get(), found->id));
      return std::optional<std::string>(std::move(bytes));
    }
    if (!found->is_tree()) return std::optional<std::string>();
    tree_id = found->id;
    rest = rest.substr(slash + 1);
  }
}

Result<std::string> WriteHistoryCommit(const git::Repository& repo, const HistoryCommitSpec& spec,
                                       const std::optional<std::string>& parent) {
  FsyncScope fsync;
  GENTLE_ASSIGN_OR_RETURN(git::OdbPtr odb, git::RepositoryOdb(repo.raw()));
  std::vector<Entry> top;
  GENTLE_ASSIGN_OR_RETURN(git_oid base, ParseOid(spec.base_tree));
  GENTLE_ASSIGN_OR_RETURN(git_oid candidate, ParseOid(spec.candidate_tree));
  top.push_back({"base", true, base});
  top.push_back({"candidate", true, candidate});
  GENTLE_ASSIGN_OR_RETURN(git_oid record,
                          WriteObject(odb.get(), spec.record_file, GIT_OBJECT_BLOB));
  top.push_back({std::string(kHistoryRecordName), false, record});

  // verdicts/: the parent's, with this commit's files replacing same-named ones.
  std::vector<Entry> verdicts;
  if (parent) {
    GENTLE_ASSIGN_OR_RETURN(git_oid parent_id, ParseOid(*parent));
    GENTLE_ASSIGN_OR_RETURN(ParsedCommit parsed, ReadCommitObject(odb.get(), parent_id));
    GENTLE_ASSIGN_OR_RETURN(git::RawTree tree, git::ReadTree(odb.get(), parsed.tree));
    for (const git::RawTreeEntry& e : tree.entries()) {
      if (e.name != "verdicts" || !e.is_tree()) continue;
      GENTLE_ASSIGN_OR_RETURN(git::RawTree sub, git::ReadTree(odb.get(), e.id));
      for (const git::RawTreeEntry& v : sub.entries()) {
        if (!v.is_tree()) verdicts.push_back({std::string(v.name), false, v.id});
      }
    }
  }
  for (const auto& [name, bytes] : spec.files) {
    GENTLE_ASSIGN_OR_RETURN(git_oid blob, WriteObject(odb.get(), bytes, GIT_OBJECT_BLOB));
    if (name.compare(0, 9, "verdicts/") == 0) {
      const std::string leaf = name.substr(9);
      verdicts.erase(std::remove_if(verdicts.begin(), verdicts.end(),
                                    [&](const Entry& e) { return e.name == leaf; }),
                     verdicts.end());
      verdicts.push_back({leaf, false, blob});
    } else {
      top.push_back({name, false, blob});
    }
  }
  if (!verdicts.empty()) {
    GENTLE_ASSIGN_OR_RETURN(git_oid sub, WriteTree(odb.get(), verdicts));
    top.push_back({"verdicts", true, sub});
  }
  GENTLE_ASSIGN_OR_RETURN(git_oid tree, WriteTree(odb.get(), top));

  const std::string when = std::to_string(EpochSeconds(spec.at)) + " +0000";
  std::string commit = "tree " + git::OidHex(tree) + "\n";
  if (parent) commit += "parent " + *parent + "\n";
  commit += std::string("author ") + kIdentity + " " + when + "\n";
  commit += std::string("committer ") + kIdentity + " " + when + "\n\n";
  commit += spec.verb + " " + spec.lineage + "\n\n";
  commit += "Lineage: " + spec.lineage + "\n";
  commit += "Revision: " + spec.revision + "\n";
  commit += "State: " + spec.state + "\n";
  if (!spec.at.empty()) commit += "At: " + TrailerValue(spec.at) + "\n";
  if (!spec.created_at.empty()) commit += "Created-At: " + TrailerValue(spec.created_at) + "\n";
  for (const auto& [key, value] : spec.trailers) commit += key + ": " + TrailerValue(value) + "\n";
  GENTLE_ASSIGN_OR_RETURN(git_oid id, WriteObject(odb.get(), commit, GIT_OBJECT_COMMIT));
  return git::OidHex(id);
}

Status MoveHistoryRef(const git::Repository& repo, const std::string& lineage,
                      const std::optional<std::string>& from,
                      const std::optional<std::string>& to) {
  FsyncScope fsync;
  const std::string name = HistoryRefName(lineage);
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
    GENTLE_ASSIGN_OR_RETURN(git_oid new_id, ParseOid(*to));
    git_reference* ref = nullptr;
    if (from) {
      GENTLE_ASSIGN_OR_RETURN(git_oid old_id, ParseOid(*from));
      rc = git_reference_create_matching(&ref, repo.raw(), name.c_str(), &new_id, 1, &old_id,
                                         "gentle-ai review history");
    } else {
      rc = git_reference_create(&ref, repo.raw(), name.c_str(), &new_id, 0,
                                "gentle-ai review history");
    }
    git_reference_free(ref);
  }
  if (rc == GIT_ELOCKED) return RefLocked(repo, name);
  if (rc == GIT_EMODIFIED || rc == GIT_EEXISTS || rc == GIT_ENOTFOUND) return RefMoved(name);
  if (rc != 0) return Status(Code::kInternal, "cannot write " + name + ": " + git::LastGitError());
  return Status::Ok();
}

}  // namespace gentle::store
