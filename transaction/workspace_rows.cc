#include "transaction/workspace_rows.h"

#include <git2/sys/repository.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <memory>

namespace gentle::transaction {
namespace {

using store::ObjectWrites;
using store::TreeRow;
using store::TreeRows;

template <typename T, void (*Free)(T*)>
struct GitDeleter {
  void operator()(T* p) const { Free(p); }
};
using IndexPtr = std::unique_ptr<git_index, GitDeleter<git_index, git_index_free>>;

// Detaches whatever index was given to the repository with git_repository_set_index.
struct RepositoryIndexReset {
  git_repository* repo;
  ~RepositoryIndexReset() { git_repository_set_index(repo, nullptr); }
};

bool ConfigBool(git_repository* repo, const char* key, bool fallback) {
  git_config* config = nullptr;
  if (git_repository_config_snapshot(&config, repo) != 0) return fallback;
  int value = fallback;
  if (git_config_get_bool(&value, config, key) != 0) value = fallback;
  git_config_free(config);
  return value != 0;
}

struct Context {
  const store::Repository& repo;
  ObjectWrites writes;
  bool file_mode;
  bool have_index_time;
  struct timespec index_time;
};

bool StatMatches(const git_index_entry& e, const struct stat& st, const Context& ctx) {
  if (e.flags_extended & GIT_INDEX_ENTRY_INTENT_TO_ADD) return false;
  if (e.mtime.seconds != static_cast<int32_t>(st.st_mtim.tv_sec) ||
      e.mtime.nanoseconds != static_cast<uint32_t>(st.st_mtim.tv_nsec) ||
      e.ctime.seconds != static_cast<int32_t>(st.st_ctim.tv_sec) ||
      e.ctime.nanoseconds != static_cast<uint32_t>(st.st_ctim.tv_nsec) ||
      e.file_size != static_cast<uint32_t>(st.st_size) ||
      e.ino != static_cast<uint32_t>(st.st_ino)) {
    return false;
  }
  // Racy entry: written in the same instant as (or after) the index; its content must be compared.
  if (!ctx.have_index_time) return false;
  const int64_t index_s = ctx.index_time.tv_sec;
  const int64_t entry_s = e.mtime.seconds;
  return entry_s < index_s || (entry_s == index_s &&
                               e.mtime.nanoseconds < static_cast<uint32_t>(ctx.index_time.tv_nsec));
}

Result<git_oid> HashFile(const Context& ctx, const std::string& path) {
  git_oid oid;
  int rc;
  if (ctx.writes == ObjectWrites::kWrite) {
    rc = git_blob_create_from_workdir(&oid, ctx.repo.raw(), path.c_str());
  } else {
    const std::string full = ctx.repo.worktree_root() + "/" + path;
    rc = git_repository_hashfile(&oid, ctx.repo.raw(), full.c_str(), GIT_OBJECT_BLOB, path.c_str());
  }
  if (rc != 0) {
    return Status(Code::kInternal, "cannot hash " + path + ": " + store::LastGitError());
  }
  return oid;
}

Result<git_oid> HashSymlink(const Context& ctx, const std::string& path) {
  const std::string full = ctx.repo.worktree_root() + "/" + path;
  std::string target(4096, '\0');
  ssize_t n = readlink(full.c_str(), target.data(), target.size());
  if (n < 0) return Status(Code::kInternal, "cannot read symlink " + path);
  target.resize(static_cast<size_t>(n));
  git_oid oid;
  int rc = ctx.writes == ObjectWrites::kWrite
               ? git_blob_create_from_buffer(&oid, ctx.repo.raw(), target.data(), target.size())
               : git_odb_hash(&oid, target.data(), target.size(), GIT_OBJECT_BLOB);
  if (rc != 0) return Status(Code::kInternal, "cannot hash symlink " + path);
  return oid;
}

git_oid SubmoduleHead(const Context& ctx, const std::string& path, const git_oid& fallback) {
  const std::string full = ctx.repo.worktree_root() + "/" + path;
  git_repository* sub = nullptr;
  git_oid head = fallback;
  if (git_repository_open_ext(&sub, full.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) == 0) {
    git_oid resolved;
    if (git_reference_name_to_id(&resolved, sub, "HEAD") == 0) head = resolved;
    git_repository_free(sub);
  }
  return head;
}

// The row for `path` as it is on disk now; an absent or directory path yields no row (deleted).
Result<std::optional<TreeRow>> RowFromDisk(const Context& ctx, const std::string& path,
                                           const git_index_entry* entry) {
  const std::string full = ctx.repo.worktree_root() + "/" + path;
  struct stat st;
  if (lstat(full.c_str(), &st) != 0 || S_ISDIR(st.st_mode)) return std::optional<TreeRow>();
  TreeRow row{path, 0, {}};
  const bool reusable = entry && StatMatches(*entry, st, ctx);
  if (S_ISLNK(st.st_mode)) {
    row.mode = 0120000;
    if (reusable && entry->mode == 0120000) {
      row.oid = entry->id;
    } else {
      GENTLE_ASSIGN_OR_RETURN(row.oid, HashSymlink(ctx, path));
    }
    return std::optional<TreeRow>(row);
  }
  if (!S_ISREG(st.st_mode)) return std::optional<TreeRow>();
  const bool entry_regular = entry && (entry->mode & 0170000) == 0100000;
  if (ctx.file_mode || !entry_regular) {
    row.mode = (st.st_mode & S_IXUSR) ? 0100755 : 0100644;
  } else {
    row.mode = store::CanonicalMode(entry->mode);
  }
  if (reusable && entry_regular) {
    row.oid = entry->id;
  } else {
    GENTLE_ASSIGN_OR_RETURN(row.oid, HashFile(ctx, path));
  }
  return std::optional<TreeRow>(row);
}

}  // namespace

Result<std::string> NormalizeRepoPath(const std::string& path) {
  if (path.empty() || path.front() == '/') {
    return Status(Code::kUsage, "untracked path must be relative to the worktree root: " + path);
  }
  std::string out;
  size_t start = 0;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    if (slash == std::string::npos) slash = path.size();
    std::string part = path.substr(start, slash - start);
    if (part == "." && out.empty() && slash < path.size()) {
      start = slash + 1;
      continue;
    }
    if (part.empty() || part == "." || part == ".." || part == ".git") {
      return Status(Code::kUsage, "untracked path has an invalid component: " + path);
    }
    if (!out.empty()) out.push_back('/');
    out += part;
    start = slash + 1;
  }
  return out;
}

Result<TreeRows> WorkspaceRows(const store::Repository& repo, Projection projection,
                               const std::vector<std::string>& intended_untracked,
                               ObjectWrites writes) {
  const std::string index_path = repo.git_dir() + "/index";
  git_index* raw_index = nullptr;
  if (git_index_open(&raw_index, index_path.c_str()) != 0) {
    return Status(Code::kCorrupted, "cannot read the index: " + store::LastGitError());
  }
  IndexPtr index(raw_index);
  // Hand the repository this in-memory copy, so that the filter and attribute lookups inside
  // git_blob_create_from_workdir / git_repository_hashfile (.gitattributes in the index, autocrlf's
  // "index blob has CR" check) use it instead of parsing the same file a second time (24% of a
  // start on 30,000 files). Nothing ever writes it; the repository lets go of it on return, so a
  // later reader in this process loads the index from disk again.
  if (git_repository_set_index(repo.raw(), index.get()) != 0) {
    return Status(Code::kInternal, "cannot share the index: " + store::LastGitError());
  }
  RepositoryIndexReset reset_index{repo.raw()};
  Context ctx{repo, writes, ConfigBool(repo.raw(), "core.filemode", true), false, {}};
  struct stat index_st;
  if (stat(index_path.c_str(), &index_st) == 0) {
    ctx.have_index_time = true;
    ctx.index_time = index_st.st_mtim;
  }

  TreeRows rows;
  const size_t count = git_index_entrycount(index.get());
  for (size_t i = 0; i < count; ++i) {
    const git_index_entry* e = git_index_get_byindex(index.get(), i);
    const std::string path = e->path;
    const int stage = git_index_entry_stage(e);
    if (!rows.empty() && rows.back().path == path) continue;  // further stages of one conflict
    if (projection == Projection::kStaged) {
      if (stage != 0) return Status(Code::kUsage, "the index has unresolved conflicts: " + path);
      if (e->flags_extended & GIT_INDEX_ENTRY_INTENT_TO_ADD) continue;
      rows.push_back({path, store::CanonicalMode(e->mode), e->id});
      continue;
    }
    if (stage == 0 && (e->flags_extended & GIT_INDEX_ENTRY_SKIP_WORKTREE)) {
      rows.push_back({path, store::CanonicalMode(e->mode), e->id});
      continue;
    }
    if (stage == 0 && e->mode == 0160000) {
      rows.push_back({path, 0160000, SubmoduleHead(ctx, path, e->id)});
      continue;
    }
    GENTLE_ASSIGN_OR_RETURN(auto row, RowFromDisk(ctx, path, stage == 0 ? e : nullptr));
    if (row) rows.push_back(std::move(*row));
  }

  const size_t tracked = rows.size();
  for (const std::string& raw_path : intended_untracked) {
    GENTLE_ASSIGN_OR_RETURN(std::string path, NormalizeRepoPath(raw_path));
    if (git_index_get_bypath(index.get(), path.c_str(), 0) != nullptr) continue;
    struct stat st;
    const std::string full = repo.worktree_root() + "/" + path;
    if (lstat(full.c_str(), &st) != 0) {
      return Status(Code::kUsage, "untracked path does not exist: " + path);
    }
    if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
      return Status(Code::kUsage, "untracked path is not a file or symlink: " + path);
    }
    GENTLE_ASSIGN_OR_RETURN(auto row, RowFromDisk(ctx, path, nullptr));
    if (row) rows.push_back(std::move(*row));
  }
  // The index lists its entries sorted bytewise by path, so the tracked rows arrive sorted; only
  // the intended-untracked tail needs sorting and a linear merge (sorting all 30,000 rows again was
  // 15% of a start).
  auto by_path = [](const TreeRow& a, const TreeRow& b) { return a.path < b.path; };
  const auto tail = rows.begin() + static_cast<std::ptrdiff_t>(tracked);
  if (!std::is_sorted(rows.begin(), tail, by_path)) std::sort(rows.begin(), tail, by_path);
  std::sort(tail, rows.end(), by_path);
  std::inplace_merge(rows.begin(), tail, rows.end(), by_path);
  rows.erase(std::unique(rows.begin(), rows.end(),
                         [](const TreeRow& a, const TreeRow& b) { return a.path == b.path; }),
             rows.end());
  return rows;
}

}  // namespace gentle::transaction
