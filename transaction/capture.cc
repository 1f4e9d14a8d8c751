#include "transaction/capture.h"

#include <malloc.h>
#include <sys/stat.h>

#include <algorithm>
#include <exception>
#include <optional>
#include <system_error>
#include <thread>

#include "store/digests.h"
#include "store/git/cache_tree_fold.h"
#include "store/git/git_tree_diff.h"
#include "store/git/object_reader.h"
#include "store/git/raw_tree.h"
#include "store/git/repository.h"
#include "store/selector_kind.h"
#include "transaction/workspace_rows.h"

namespace gentle::transaction {
namespace {

using store::git::TreeRows;

git_oid EmptyTreeId() {
  git_oid oid;
  git_oid_fromstr(&oid, std::string(store::kEmptyTreeSha1).c_str());
  return oid;
}

Result<git_oid> ResolveCommit(git_repository* repo, const std::string& rev) {
  return store::git::PeelRev(repo, rev, GIT_OBJECT_COMMIT);
}

Result<git_oid> ResolveTree(git_repository* repo, const std::string& rev) {
  return store::git::PeelRev(repo, rev, GIT_OBJECT_TREE);
}

// The rows of `tree`; `trees` (when given) receives the ids of the trees read; *canonical whether
// every tree read is in git's canonical order.
Result<TreeRows> RowsOf(git_repository* repo, const git_oid& tree, store::git::TreeIds* trees,
                        bool* canonical, const store::git::SubtreeFold* fold = nullptr) {
  *canonical = true;
  const git_oid empty = EmptyTreeId();
  if (git_oid_equal(&tree, &empty)) return TreeRows();
  return store::git::FlattenTree(repo, tree, trees, canonical, fold);
}

// The ids of `tree` and of every tree under it, sorted (as FlattenTree gives them), read without a
// row per entry: the base's trees a capture need not write again (MemoryWrites::Tree). Errors as
// FlattenTree's.
Result<store::git::TreeIds> TreeIdsOf(git_repository* repo, const git_oid& tree) {
  GENTLE_ASSIGN_OR_RETURN(store::git::OdbPtr odb, store::git::RepositoryOdb(repo));
  store::git::TreeIds ids;
  std::vector<git_oid> pending = {tree};
  while (!pending.empty()) {
    const git_oid id = pending.back();
    pending.pop_back();
    Result<store::git::RawTree> read = store::git::ReadTree(odb.get(), id);
    if (!read.ok()) {
      const std::string root = store::git::OidHex(tree);
      return Status(Code::kObjectsMissing,
                    ids.empty() ? "tree " + root + " cannot be read: " + read.status().message()
                                : "cannot read tree " + root + ": " + read.status().message())
          .WithDetail(DetailKey::kObject, root);
    }
    ids.push_back(id);
    for (const store::git::RawTreeEntry& entry : read->entries()) {
      if (entry.is_tree()) pending.push_back(entry.id);
    }
  }
  std::sort(ids.begin(), ids.end(),
            [](const git_oid& a, const git_oid& b) { return git_oid_cmp(&a, &b) < 0; });
  return ids;
}

// The changed paths when a tree is out of git's canonical order: what git's as-stored walk
// reports (store/git/git_tree_diff.h, the walk export-context re-derives them with), sorted. Rows
// cannot give them: git can meet an unchanged path there, or a path twice. Trees come from `made`
// (a candidate that was only hashed) or else from the object database.
Result<std::vector<std::string>> WalkedPaths(git_repository* repo, const git_oid& base,
                                             const git_oid& candidate,
                                             const store::git::TreeObjects& made) {
  GENTLE_ASSIGN_OR_RETURN(store::git::OdbPtr odb, store::git::RepositoryOdb(repo));
  git_odb* raw_odb = odb.get();
  const store::git::SubtreeReader read = [&made, raw_odb](const git_oid& id) {
    auto found = made.find(std::string(reinterpret_cast<const char*>(id.id), GIT_OID_RAWSZ));
    if (found != made.end()) return store::git::ParseRawTree(found->second, id);
    return store::git::ReadTree(raw_odb, id);
  };
  GENTLE_ASSIGN_OR_RETURN(store::git::RawTree base_tree, read(base));
  GENTLE_ASSIGN_OR_RETURN(store::git::RawTree candidate_tree, read(candidate));
  GENTLE_ASSIGN_OR_RETURN(std::vector<store::git::TreeChange> changes,
                          store::git::GitTreeDiff(read, base_tree, candidate_tree));
  return store::git::SortedPaths(changes);
}

// The base's rows read on a helper thread through its own repository handle (libgit2 objects are
// not shared between threads, store/git/repository.h) while the calling thread reads the index
// and the worktree. Only for hashing (status): nothing is written, so reading the two sides in
// parallel changes nothing but the time. Without a handle or a thread, Join reads the rows on the
// calling thread. The destructor joins, so no return path leaves the helper running. `fold`
// (read-only, so shared with the helper) folds the base's rows as RowsOf does.
class BaseRowsReader {
 public:
  BaseRowsReader(git_repository* repo, const git_oid& tree, const store::git::SubtreeFold* fold)
      : repo_(repo), tree_(tree), fold_(fold) {
    auto opened = store::git::ReopenRepository(repo);
    if (!opened.ok()) {
      git_error_clear();
      return;
    }
    own_ = std::move(opened).value();
    try {
      helper_ = std::thread([this] { Read(own_.get()); });
    } catch (const std::system_error&) {
      own_.reset();  // no thread to be had: Join reads on the calling thread
    }
  }
  ~BaseRowsReader() {
    if (helper_.joinable()) helper_.join();
  }
  BaseRowsReader(const BaseRowsReader&) = delete;
  BaseRowsReader& operator=(const BaseRowsReader&) = delete;

  // The rows (or the error), once read; *canonical as RowsOf sets it.
  Result<TreeRows> Join(bool* canonical) {
    if (helper_.joinable()) {
      helper_.join();
    } else if (!rows_) {
      Read(repo_);
    }
    if (thrown_) std::rethrow_exception(thrown_);  // as if read here: to the command's edge
    *canonical = canonical_;
    return std::move(*rows_);
  }

 private:
  void Read(git_repository* repo) {
    try {
      rows_.emplace(RowsOf(repo, tree_, nullptr, &canonical_, fold_));
    } catch (...) {
      thrown_ = std::current_exception();
    }
  }

  git_repository* repo_;
  git_oid tree_;
  const store::git::SubtreeFold* fold_;
  store::git::RepositoryPtr own_;
  std::thread helper_;
  std::optional<Result<TreeRows>> rows_;
  std::exception_ptr thrown_;
  bool canonical_ = true;
};

bool LargeIndex(const store::git::Repository& repo) {
  struct stat st;
  return stat((repo.git_dir() + "/index").c_str(), &st) == 0 &&
         st.st_size >= kParallelBaseMinIndexBytes;
}

struct Base {
  git_oid tree;
  bool unborn = false;
};

Result<Base> ResolveBase(const store::git::Repository& repo, const Selector& selector) {
  git_repository* raw = repo.raw();
  if (store::IsSelectorKind(selector.kind, store::SelectorKind::kCommitRange)) {
    GENTLE_ASSIGN_OR_RETURN(git_oid tree, ResolveTree(raw, selector.base));
    return Base{tree, false};
  }
  const bool unborn = git_repository_head_unborn(raw) == 1;
  if (store::IsSelectorKind(selector.kind, store::SelectorKind::kBaseDiff)) {
    if (unborn) return Status(Code::kUsage, "base-diff needs a HEAD commit; the branch is unborn");
    GENTLE_ASSIGN_OR_RETURN(git_oid base, ResolveCommit(raw, selector.base));
    GENTLE_ASSIGN_OR_RETURN(git_oid head, ResolveCommit(raw, "HEAD"));
    GENTLE_ASSIGN_OR_RETURN(git_oid merge_base,
                            store::git::MergeBase(raw, base, head, selector.base + " and HEAD"));
    GENTLE_ASSIGN_OR_RETURN(git_oid tree, ResolveTree(raw, store::git::OidHex(merge_base)));
    return Base{tree, false};
  }
  if (unborn) return Base{EmptyTreeId(), true};
  GENTLE_ASSIGN_OR_RETURN(git_oid tree, ResolveTree(raw, "HEAD"));
  return Base{tree, false};
}

}  // namespace

Status ValidateSelector(const Selector& s) {
  if (!store::ParseSelectorKind(s.kind)) {
    return Status(Code::kUsage, "unknown --kind " + s.kind +
                                    " (expected current-changes, base-diff or commit-range)");
  }
  if (s.staged && !store::IsSelectorKind(s.kind, store::SelectorKind::kCurrentChanges)) {
    return Status(Code::kUsage, "--staged applies to --kind current-changes only");
  }
  if ((store::IsSelectorKind(s.kind, store::SelectorKind::kBaseDiff) ||
       store::IsSelectorKind(s.kind, store::SelectorKind::kCommitRange)) &&
      s.base.empty()) {
    return Status(Code::kUsage, "--kind " + s.kind + " needs --base REV");
  }
  if (store::IsSelectorKind(s.kind, store::SelectorKind::kCurrentChanges) && !s.base.empty()) {
    return Status(Code::kUsage, "--base applies to --kind base-diff and commit-range only");
  }
  if ((store::IsSelectorKind(s.kind, store::SelectorKind::kCommitRange)) != !s.head.empty()) {
    return Status(Code::kUsage, "--head REV is required with, and only with, --kind commit-range");
  }
  if (store::IsSelectorKind(s.kind, store::SelectorKind::kCommitRange) && !s.untracked.empty()) {
    return Status(Code::kUsage, "--untracked does not apply to --kind commit-range");
  }
  return Status::Ok();
}

Result<store::Snapshot> CaptureSnapshot(const store::git::Repository& repo,
                                        const Selector& selector, store::git::MemoryWrites* held) {
  GENTLE_RETURN_IF_ERROR(ValidateSelector(selector));
  if (!store::IsSelectorKind(selector.kind, store::SelectorKind::kCommitRange))
    GENTLE_RETURN_IF_ERROR(repo.RequireWorktree("review start"));
  git_repository* raw = repo.raw();
  GENTLE_ASSIGN_OR_RETURN(Base base, ResolveBase(repo, selector));
  // The index first (its errors are reported where the workspace's are): when only hashing, its
  // cache-tree lets the base's walk and the candidate's hashing skip every directory the worktree
  // left as it was (store/git/cache_tree_fold.h).
  std::optional<Result<LoadedGitIndex>> index;
  if (!store::IsSelectorKind(selector.kind, store::SelectorKind::kCommitRange))
    index.emplace(LoadGitIndex(repo));
  std::optional<store::git::CacheTreeFold> fold;
  if (held == nullptr && index && index->ok()) {
    fold.emplace((*index)->entries, (*index)->cache_tree);
    if (fold->empty()) fold.reset();
  }
  const store::git::SubtreeFold* base_fold = fold ? &*fold : nullptr;
  // The base's trees are in the object database and reachable from the base commit: when the
  // candidate's trees are written (start on the workspace or the index), those equal to one of
  // them need not be (MemoryWrites::Tree). Hashing only (status) or commit-range keeps none.
  store::git::TreeIds base_trees;
  const bool writes_trees =
      held != nullptr && !store::IsSelectorKind(selector.kind, store::SelectorKind::kCommitRange);
  bool base_canonical = true;
  // Hashing the workspace (status): the base's rows are read on a helper thread meanwhile. Errors
  // are still reported in the sequential order: the base's first.
  std::optional<BaseRowsReader> parallel_base;
  if (held == nullptr && !store::IsSelectorKind(selector.kind, store::SelectorKind::kCommitRange) &&
      !selector.staged && LargeIndex(repo)) {
    parallel_base.emplace(raw, base.tree, base_fold);
  }
  // Capturing the workspace or the index to write it (start, revise): the base is read after the
  // candidate's rows, once the index is let go (a capture never folds, so nothing needs it then),
  // and only for its tree ids: the changed paths are then git's walk of the two trees
  // (WalkedPaths), which reads only the subtrees that differ. No row is made per base entry, and
  // the index's entries and the candidate's rows are the most ever held at once (on 80,000 files
  // the base's rows were a third of start's peak memory). Errors are still reported in the
  // sequential order: the base's first.
  const git_oid empty_tree = EmptyTreeId();
  const bool base_last = writes_trees && !parallel_base && !git_oid_equal(&base.tree, &empty_tree);
  TreeRows base_rows;
  if (!parallel_base && !base_last) {
    GENTLE_ASSIGN_OR_RETURN(base_rows, RowsOf(raw, base.tree, writes_trees ? &base_trees : nullptr,
                                              &base_canonical, base_fold));
  }

  std::vector<std::string> intended;
  Status intended_status;
  for (const std::string& path : selector.untracked) {
    Result<std::string> normalized = NormalizeRepoPath(path);
    if (!normalized.ok()) {
      intended_status = normalized.status();
      break;
    }
    intended.push_back(std::move(*normalized));
  }
  if (!parallel_base && !base_last) GENTLE_RETURN_IF_ERROR(intended_status);
  std::sort(intended.begin(), intended.end());
  intended.erase(std::unique(intended.begin(), intended.end()), intended.end());

  // A candidate made from rows has its entries in git's tree order at every level, so with a
  // canonical base the rows' merge (ChangedPaths) is exactly git's walk; otherwise the walk is
  // taken (WalkedPaths), reading the candidate's trees from `made` when they were only hashed.
  TreeRows candidate_rows;
  git_oid candidate_tree;
  bool candidate_canonical = true;
  store::git::TreeObjects made;
  if (store::IsSelectorKind(selector.kind, store::SelectorKind::kCommitRange)) {
    GENTLE_ASSIGN_OR_RETURN(candidate_tree, ResolveTree(raw, selector.head));
    GENTLE_ASSIGN_OR_RETURN(candidate_rows,
                            RowsOf(raw, candidate_tree, nullptr, &candidate_canonical));
  } else {
    Projection projection = selector.staged ? Projection::kStaged : Projection::kWorkspace;
    Result<TreeRows> workspace = !intended_status.ok() ? Result<TreeRows>(intended_status)
                                 : !index->ok()        ? Result<TreeRows>(index->status())
                                                : WorkspaceRows(repo, **index, projection, intended,
                                                                held, fold ? &*fold : nullptr);
    if (parallel_base) {
      GENTLE_ASSIGN_OR_RETURN(base_rows, parallel_base->Join(&base_canonical));
    }
    if (base_last) {
      // The index's entries and paths go back to the system (not only to the allocator, which
      // would keep them resident) before the base's trees are read.
      index.reset();
      malloc_trim(0);
      GENTLE_ASSIGN_OR_RETURN(base_trees, TreeIdsOf(raw, base.tree));
    }
    GENTLE_ASSIGN_OR_RETURN(candidate_rows, std::move(workspace));
    if (fold) {
      GENTLE_ASSIGN_OR_RETURN(store::git::OdbPtr odb, store::git::RepositoryOdb(raw));
      GENTLE_RETURN_IF_ERROR(fold->Finish(odb.get(), (*index)->entries, intended, &base_rows,
                                          &candidate_rows, &base_canonical));
    }
    store::git::TreeObjects* walked = base_canonical ? nullptr : &made;
    GENTLE_ASSIGN_OR_RETURN(candidate_tree, held != nullptr
                                                ? held->Tree(candidate_rows, &base_trees, walked)
                                                : store::git::HashTree(candidate_rows, walked));
  }
  if (base.unborn && held != nullptr) {
    GENTLE_RETURN_IF_ERROR(held->Tree({}).status());  // the empty tree object
  }

  store::Snapshot s;
  s.kind = selector.kind;
  s.projection = selector.staged ? std::string(store::kProjectionStaged) : std::string();
  s.unborn_head = base.unborn;
  s.base_tree = store::git::OidHex(base.tree);
  s.candidate_tree = store::git::OidHex(candidate_tree);
  if (base_canonical && candidate_canonical && !base_last) {
    s.paths = store::git::ChangedPaths(base_rows, candidate_rows);
  } else {
    GENTLE_ASSIGN_OR_RETURN(s.paths, WalkedPaths(raw, base.tree, candidate_tree, made));
  }
  s.paths_digest = store::PathsDigest(s.paths);
  s.intended_untracked = intended;
  std::vector<store::UntrackedProofEntry> proof;
  for (const std::string& path : intended) {
    auto it = std::lower_bound(
        candidate_rows.begin(), candidate_rows.end(), path,
        [](const store::git::TreeRow& row, const std::string& p) { return row.path < p; });
    if (it != candidate_rows.end() && it->path == path) {
      proof.push_back({path, store::git::LsTreeRecord(*it)});
    }
  }
  s.intended_untracked_proof = store::IntendedUntrackedProof(proof);
  s.ledger_ids = selector.ledger_ids;
  s.identity = store::ComputeSnapshotIdentity(s);
  if (base_last) {
    // The rows go back to the system before the mutation that follows (index, history, record).
    TreeRows().swap(candidate_rows);
    malloc_trim(0);
  }
  return s;
}

}  // namespace gentle::transaction
