#include "transaction/workspace_rows.h"

#include <git2/sys/repository.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <string_view>

#include "store/file_io.h"
#include "store/git/cache_tree_fold.h"
#include "store/git/git_file_check.h"
#include "store/git/git_util.h"
#include "store/git/object_hash_stream.h"
#include "store/git/worktree_index.h"
#include "store/git/worktree_probe.h"

namespace gentle::transaction {
namespace {

using store::git::DiskProbe;
using store::git::TreeRow;
using store::git::TreeRows;
using store::git::WorktreeIndexEntry;

using IndexPtr = store::git::GitPtr<git_index, git_index_free>;

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
  const store::git::Repository& repo;
  store::git::MemoryWrites* held;  // null: hash only
  bool file_mode;
  std::optional<struct timespec> index_mtime;  // nothing: every entry is treated as racy
};

// Hashing only: a file no filter applies to is hashed as it is read, in pieces, by OpenSSL
// (store/git/object_hash_stream.h), so memory stays flat whatever its size; one that a filter
// (autocrlf, attributes) converts is converted whole by libgit2 first, as git does.
Result<git_oid> HashFile(const Context& ctx, const std::string& path) {
  // libgit2 reads every .gitattributes on the way to `path` with a blocking open.
  GENTLE_RETURN_IF_ERROR(store::git::CheckAttributesFiles(ctx.repo.worktree_root(), path));
  if (ctx.held != nullptr) return ctx.held->WorkdirBlob(path);
  const std::string full = ctx.repo.worktree_root() + "/" + path;
  git_filter_list* filters = nullptr;
  // The filters git_repository_hashfile would load for this path.
  int rc = git_filter_list_load(&filters, ctx.repo.raw(), nullptr, path.c_str(), GIT_FILTER_TO_ODB,
                                GIT_FILTER_DEFAULT);
  if (rc == 0 && filters == nullptr) return store::git::HashFileAsBlob(full);
  git_filter_list_free(filters);
  git_oid oid;
  if (rc == 0) {
    rc = git_repository_hashfile(&oid, ctx.repo.raw(), full.c_str(), GIT_OBJECT_BLOB, path.c_str());
  }
  if (rc != 0) {
    return Status(Code::kInternal, "cannot hash " + path + ": " + store::git::LastGitError());
  }
  return oid;
}

Result<git_oid> HashSymlink(const Context& ctx, const std::string& path) {
  const std::string full = ctx.repo.worktree_root() + "/" + path;
  std::string target(4096, '\0');
  ssize_t n = readlink(full.c_str(), target.data(), target.size());
  if (n < 0) return Status(Code::kInternal, "cannot read symlink " + path);
  target.resize(static_cast<size_t>(n));
  if (ctx.held != nullptr) {
    Result<git_oid> held = ctx.held->Blob(target);
    if (!held.ok()) return Status(Code::kInternal, "cannot hash symlink " + path);
    return held;
  }
  git_oid oid;
  if (git_odb_hash(&oid, target.data(), target.size(), GIT_OBJECT_BLOB) != 0) {
    return Status(Code::kInternal, "cannot hash symlink " + path);
  }
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

// The mode of the row for a regular file or symlink `probe` found on disk.
uint32_t DiskMode(const Context& ctx, const WorktreeIndexEntry* entry, const DiskProbe& probe) {
  if (probe.kind == DiskProbe::Kind::kSymlink) return 0120000;
  const bool entry_regular = entry && (entry->mode & 0170000) == 0100000;
  if (ctx.file_mode || !entry_regular) return probe.executable ? 0100755 : 0100644;
  return store::git::CanonicalMode(entry->mode);
}

// Whether that row takes the entry's object id instead of hashing the file: the stat data matches
// a non-racy entry of the same kind.
bool ReusesEntryId(const WorktreeIndexEntry* entry, const DiskProbe& probe) {
  if (entry == nullptr || !probe.stat_matches) return false;
  if (probe.kind == DiskProbe::Kind::kSymlink) return entry->mode == 0120000;
  return (entry->mode & 0170000) == 0100000;
}

// The row for `path` as `probe` found it on disk; an absent or directory path yields no row
// (deleted). A regular file whose index entry cannot be reused gets `*needs_hash` set and a zero
// id: it is hashed later, through libgit2's filters, once the index those filters consult is in
// place.
Result<std::optional<TreeRow>> RowFromDisk(const Context& ctx, std::string path,
                                           const WorktreeIndexEntry* entry, const DiskProbe& probe,
                                           bool* needs_hash) {
  *needs_hash = false;
  if (probe.kind == DiskProbe::Kind::kAbsent || probe.kind == DiskProbe::Kind::kOther) {
    return std::optional<TreeRow>();
  }
  TreeRow row{std::move(path), DiskMode(ctx, entry, probe), {}};
  if (ReusesEntryId(entry, probe)) {
    row.oid = entry->id;
  } else if (probe.kind == DiskProbe::Kind::kSymlink) {
    GENTLE_ASSIGN_OR_RETURN(row.oid, HashSymlink(ctx, row.path));
  } else {
    *needs_hash = true;
  }
  return std::optional<TreeRow>(std::move(row));
}

// Which entries' rows are the entries themselves, {path, canonical mode, id}, known without
// hashing (CacheTreeFold::CleanDirs folds a directory of such entries): stage 0, not intent-to-add,
// not a submodule (its row is its checkout's HEAD), and either skip-worktree (its row is the
// entry) or a file whose probe gives the entry's mode and lets the row reuse the entry's id.
std::vector<char> EntriesAsRows(const Context& ctx, const std::vector<WorktreeIndexEntry>& entries,
                                const std::vector<DiskProbe>& probes) {
  std::vector<char> out(entries.size(), 0);
  for (size_t i = 0; i < entries.size(); ++i) {
    const WorktreeIndexEntry& e = entries[i];
    if (e.stage() != 0 || (e.flags_extended & GIT_INDEX_ENTRY_INTENT_TO_ADD) || e.mode == 0160000) {
      continue;
    }
    if (e.flags_extended & GIT_INDEX_ENTRY_SKIP_WORKTREE) {
      out[i] = 1;
      continue;
    }
    const DiskProbe& probe = probes[i];
    if (probe.kind != DiskProbe::Kind::kRegular && probe.kind != DiskProbe::Kind::kSymlink)
      continue;
    out[i] =
        ReusesEntryId(&e, probe) && DiskMode(ctx, &e, probe) == store::git::CanonicalMode(e.mode);
  }
  return out;
}

// Which entries the workspace projection reads from disk: the first entry of each path (further
// stages of a conflict share its row), except skip-worktree entries and submodules at stage 0.
std::vector<char> EntriesOnDisk(const std::vector<WorktreeIndexEntry>& entries) {
  std::vector<char> wanted(entries.size(), 0);
  for (size_t i = 0; i < entries.size(); ++i) {
    const WorktreeIndexEntry& e = entries[i];
    if (i > 0 && entries[i - 1].path == e.path) continue;
    if (e.stage() == 0 &&
        ((e.flags_extended & GIT_INDEX_ENTRY_SKIP_WORKTREE) || e.mode == 0160000)) {
      continue;
    }
    wanted[i] = 1;
  }
  return wanted;
}

bool IsAttributesFile(std::string_view path) {
  constexpr std::string_view kName = ".gitattributes";
  if (path.size() < kName.size() || path.substr(path.size() - kName.size()) != kName) return false;
  return path.size() == kName.size() || path[path.size() - kName.size() - 1] == '/';
}

// An in-memory index with the marked entries, or null if libgit2 refuses one of them.
IndexPtr SubsetIndex(const std::vector<WorktreeIndexEntry>& entries,
                     const std::vector<char>& marked) {
  git_index* raw = nullptr;
  if (git_index_new(&raw) != 0) return IndexPtr();
  IndexPtr subset(raw);
  for (size_t i = 0; i < entries.size(); ++i) {
    if (!marked[i]) continue;
    const WorktreeIndexEntry& x = entries[i];
    git_index_entry e{};
    e.ctime.seconds = static_cast<int32_t>(x.ctime_seconds);
    e.ctime.nanoseconds = x.ctime_nanoseconds;
    e.mtime.seconds = static_cast<int32_t>(x.mtime_seconds);
    e.mtime.nanoseconds = x.mtime_nanoseconds;
    e.dev = x.dev;
    e.ino = x.ino;
    e.mode = store::git::CanonicalMode(x.mode);  // as git_index_add wants it; filters test S_ISREG
    e.uid = x.uid;
    e.gid = x.gid;
    e.file_size = x.file_size;
    e.id = x.id;
    e.flags = x.flags;
    e.flags_extended = x.flags_extended;
    e.path = x.path.data();  // NUL-terminated
    if (git_index_add(subset.get(), &e) != 0) {
      git_error_clear();
      return IndexPtr();
    }
  }
  return subset;
}

}  // namespace

Result<LoadedGitIndex> LoadGitIndex(const store::git::Repository& repo) {
  const std::string index_path = repo.git_dir() + "/index";
  LoadedGitIndex out;
  if (std::optional<store::git::WorktreeIndex> file = store::git::ReadWorktreeIndex(index_path)) {
    out.paths = std::move(file->paths);
    out.entries = std::move(file->entries);
    out.cache_tree = std::move(file->cache_tree);
    return out;
  }
  // libgit2 would block reading a FIFO: only a regular file (or none) goes to it.
  const store::PathKind kind = store::KindOf(index_path);
  if (kind != store::PathKind::kFile && kind != store::PathKind::kMissing) {
    return Status(Code::kCorrupted, "the index is not a regular file: " + index_path);
  }
  git_index* raw = nullptr;
  if (git_index_open(&raw, index_path.c_str()) != 0) {
    return Status(Code::kCorrupted, "cannot read the index: " + store::git::LastGitError());
  }
  out.libgit2.reset(raw);
  const size_t count = git_index_entrycount(raw);
  out.entries.resize(count);
  for (size_t i = 0; i < count; ++i) {
    const git_index_entry* e = git_index_get_byindex(raw, i);
    WorktreeIndexEntry& x = out.entries[i];
    x.ctime_seconds = static_cast<uint32_t>(e->ctime.seconds);
    x.ctime_nanoseconds = e->ctime.nanoseconds;
    x.mtime_seconds = static_cast<uint32_t>(e->mtime.seconds);
    x.mtime_nanoseconds = e->mtime.nanoseconds;
    x.dev = e->dev;
    x.ino = e->ino;
    x.mode = e->mode;
    x.uid = e->uid;
    x.gid = e->gid;
    x.file_size = e->file_size;
    x.id = e->id;
    x.flags = e->flags;
    x.flags_extended = e->flags_extended;
    x.path = out.paths.Add(e->path);
  }
  return out;
}

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

Result<TreeRows> WorkspaceRows(const store::git::Repository& repo, const LoadedGitIndex& index,
                               Projection projection,
                               const std::vector<std::string>& intended_untracked,
                               store::git::MemoryWrites* held,
                               const store::git::CacheTreeFold* fold) {
  const std::string index_path = repo.git_dir() + "/index";
  const std::vector<WorktreeIndexEntry>& entries = index.entries;
  Context ctx{repo, held, ConfigBool(repo.raw(), "core.filemode", true), std::nullopt};
  struct stat index_st;
  if (stat(index_path.c_str(), &index_st) == 0) ctx.index_mtime = index_st.st_mtim;
  // Every lstat of the worktree first, on several threads for a large index (store/git/
  // worktree_probe.h); the rows below are made from the probes in index order.
  std::vector<DiskProbe> probes;
  if (projection == Projection::kWorkspace) {
    probes = store::git::ProbeWorktree(repo.worktree_root(), entries, EntriesOnDisk(entries),
                                       ctx.index_mtime);
  }

  std::vector<std::string> intended;  // normalised, in the caller's order
  for (const std::string& raw_path : intended_untracked) {
    GENTLE_ASSIGN_OR_RETURN(std::string path, NormalizeRepoPath(raw_path));
    intended.push_back(std::move(path));
  }

  // Directories whose rows would all be their index entries become one folded row each, and no
  // row is made under them (store/git/cache_tree_fold.h).
  std::vector<const store::git::CacheTreeFold::Dir*> folded;
  if (fold != nullptr && projection == Projection::kWorkspace) {
    std::vector<std::string> sorted_intended = intended;
    std::sort(sorted_intended.begin(), sorted_intended.end());
    folded = fold->CleanDirs(EntriesAsRows(ctx, entries, probes), sorted_intended);
  }
  size_t next_fold = 0;

  TreeRows rows;
  rows.reserve(entries.size());
  std::vector<char> for_filters(entries.size(), 0);  // entries libgit2's filters may look up
  std::vector<size_t> pending;                       // rows still to be hashed
  for (size_t i = 0; i < entries.size();) {
    if (next_fold < folded.size() && folded[next_fold]->first == i) {
      const store::git::CacheTreeFold::Dir& dir = *folded[next_fold++];
      rows.push_back({dir.path, 040000, dir.id});
      i = dir.last;
      continue;
    }
    const WorktreeIndexEntry& e = entries[i];
    const int stage = e.stage();
    size_t group_end = i + 1;  // further stages of one conflict share its row
    while (group_end < entries.size() && entries[group_end].path == e.path) ++group_end;
    const size_t group_begin = i;
    i = group_end;
    if (stage == 0 && IsAttributesFile(e.path)) for_filters[group_begin] = 1;
    if (projection == Projection::kStaged) {
      if (stage != 0) {
        return Status(Code::kUsage, "the index has unresolved conflicts: " + std::string(e.path));
      }
      if (e.flags_extended & GIT_INDEX_ENTRY_INTENT_TO_ADD) continue;
      rows.push_back({std::string(e.path), store::git::CanonicalMode(e.mode), e.id});
      continue;
    }
    if (stage == 0 && (e.flags_extended & GIT_INDEX_ENTRY_SKIP_WORKTREE)) {
      rows.push_back({std::string(e.path), store::git::CanonicalMode(e.mode), e.id});
      continue;
    }
    if (stage == 0 && e.mode == 0160000) {
      const std::string path(e.path);
      rows.push_back({path, 0160000, SubmoduleHead(ctx, path, e.id)});
      continue;
    }
    bool needs_hash = false;
    GENTLE_ASSIGN_OR_RETURN(auto row,
                            RowFromDisk(ctx, std::string(e.path), stage == 0 ? &e : nullptr,
                                        probes[group_begin], &needs_hash));
    if (!row) continue;
    if (needs_hash) {
      pending.push_back(rows.size());
      for (size_t k = group_begin; k < group_end; ++k) {
        if (entries[k].stage() <= 1) for_filters[k] = 1;
      }
    }
    rows.push_back(std::move(*row));
  }

  const size_t tracked = rows.size();
  for (const std::string& path : intended) {
    bool in_index = false;
    std::vector<size_t> same_path;
    for (size_t k = 0; k < entries.size(); ++k) {
      if (entries[k].path != path) continue;
      if (entries[k].stage() == 0) in_index = true;
      same_path.push_back(k);
    }
    if (in_index) continue;
    struct stat st;
    const std::string full = repo.worktree_root() + "/" + path;
    if (lstat(full.c_str(), &st) != 0) {
      return Status(Code::kUsage, "untracked path does not exist: " + path);
    }
    if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
      return Status(Code::kUsage, "untracked path is not a file or symlink: " + path);
    }
    bool needs_hash = false;
    const DiskProbe probe = store::git::ProbePath(full, nullptr, ctx.index_mtime);
    GENTLE_ASSIGN_OR_RETURN(auto row, RowFromDisk(ctx, path, nullptr, probe, &needs_hash));
    if (!row) continue;
    if (needs_hash) {
      pending.push_back(rows.size());
      for (size_t k : same_path) {
        if (entries[k].stage() <= 1) for_filters[k] = 1;
      }
    }
    rows.push_back(std::move(*row));
  }

  if (!pending.empty()) {
    // libgit2's filters (attributes, autocrlf) read the repository's index. Give them one, so they
    // do not parse .git/index a second time (24% of a start on 30,000 files): libgit2's own parse
    // when it read the file for us, else a small in-memory index holding only the entries they
    // can look up. Nothing writes it; the repository lets go of it on return, so a later reader in
    // this process loads the index from disk.
    git_index* for_repo = index.libgit2.get();
    IndexPtr subset;
    if (!for_repo) {
      for (const store::git::CacheTreeFold::Dir* dir : folded) {  // their attributes files too
        for (size_t k = dir->first; k < dir->last; ++k) {
          if (IsAttributesFile(entries[k].path)) for_filters[k] = 1;
        }
      }
      subset = SubsetIndex(entries, for_filters);
      for_repo = subset.get();  // null when libgit2 refused the subset: it reads the file itself
    }
    if (git_repository_set_index(repo.raw(), for_repo) != 0) {
      return Status(Code::kInternal, "cannot share the index: " + store::git::LastGitError());
    }
    RepositoryIndexReset reset_index{repo.raw()};
    for (size_t r : pending) {
      GENTLE_ASSIGN_OR_RETURN(rows[r].oid, HashFile(ctx, rows[r].path));
    }
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
