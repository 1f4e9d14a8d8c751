#include "store/git/repository.h"

#include <limits.h>
#include <stdlib.h>

#include <atomic>
#include <mutex>
#include <optional>
#include <string_view>
#include <utility>

#include "store/digests.h"
#include "store/git/git_file_check.h"
#include "store/git/loose_object_guard.h"
#include "store/git/object_reader.h"
#include "store/git/verified_view.h"

namespace gentle::store::git {

void EnsureLibgit2() {
  static std::once_flag once;
  std::call_once(once, [] {
    git_libgit2_init();
    // Before any repository is opened and any thread started, never changed afterwards: objects
    // are hash-checked by store/git/object_reader.h instead (OpenSSL SHA-1; libgit2's collision-
    // detecting SHA-1 was 44% of a large export). The store never follows user config for object
    // caching decisions; keep libgit2's defaults.
    DisableLibgit2HashCheck();
  });
}

std::string CanonicalPath(const std::string& path) {
  char resolved[PATH_MAX];
  if (realpath(path.c_str(), resolved) == nullptr) return "";
  std::string out(resolved);
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

namespace {

// `id` is in `repo`'s object database, as a tree (its header only).
bool IsTree(git_repository* repo, const git_oid& id) {
  git_odb* odb = nullptr;
  if (git_repository_odb(&odb, repo) != 0) return false;
  size_t size = 0;
  git_object_t type = GIT_OBJECT_INVALID;
  const int rc = git_odb_read_header(&size, &type, odb, &id);
  git_odb_free(odb);
  return rc == 0 && type == GIT_OBJECT_TREE;
}

// The most a commit or tag object read on the way of a simple revision may be; a larger one is left
// to the view.
constexpr uint64_t kMaxPeeledObjectBytes = uint64_t{16} << 20;
// Tags of tags followed before the view is left to answer.
constexpr int kMaxTagChain = 16;

// Whether `rev` is read by revparse as a full object id or a reference name and nothing else: no
// navigation (`~ ^ : @ { }`), no describe output (`-g<hex>`), no pattern or space.
bool IsSimpleRev(const std::string& rev) {
  if (rev.empty() || rev[0] == '-' || rev.find("-g") != std::string::npos) return false;
  return rev.find_first_of("~^:@{}[]?*\\ \t\n") == std::string::npos;
}

// `data` starts with "<field> <40 hex>\n": that id.
std::optional<git_oid> HeaderId(std::string_view data, std::string_view field) {
  const size_t length = field.size() + 1 + GIT_OID_HEXSZ + 1;
  if (data.size() < length || data.substr(0, field.size()) != field || data[field.size()] != ' ' ||
      data[length - 1] != '\n') {
    return std::nullopt;
  }
  auto id = ParseOidHex(std::string(data.substr(field.size() + 1, GIT_OID_HEXSZ)));
  if (!id.ok()) return std::nullopt;
  return *id;
}

Status Unresolved(const std::string& rev) {
  return Status(Code::kUsage, "cannot resolve revision: " + rev);
}

// Whether a read failed only because the object is larger than the fast path reads.
bool OverLimit(const Status& status) {
  return status.code() == Code::kCorrupted && status.has_detail(DetailKey::kLimit);
}

// A simple revision (IsSimpleRev) resolved as revparse resolves it (a full id first, then
// git_reference_dwim) and peeled to `type` through hash-checked reads of each commit and tag on
// the way (store/git/object_reader.h). nullopt on anything else or any other failure, for the
// verified view to answer; its answer or refusal is then the answer. One refusal is given here,
// worded as the view's: a reference whose own object is missing or does not hash to its id
// ("cannot resolve revision"), because libgit2 1.5's revparse leaks the reference on that path.
// This spares a small verify the view's second repository open (its configuration parse).
std::optional<Result<git_oid>> PeelSimpleRev(git_repository* repo, const std::string& rev,
                                             git_object_t type) {
  if (!IsSimpleRev(rev)) return std::nullopt;
  git_oid id;
  std::optional<git_oid> full_id;
  if (rev.size() == GIT_OID_HEXSZ) {
    if (auto parsed = ParseOidHex(rev); parsed.ok()) full_id = *parsed;
  }
  const bool by_ref = !full_id;
  if (!by_ref) {
    id = *full_id;
  } else {
    git_reference* found = nullptr;
    if (git_reference_dwim(&found, repo, rev.c_str()) != 0) {
      git_error_clear();
      return std::nullopt;
    }
    git_reference* direct = nullptr;
    const int rc = git_reference_resolve(&direct, found);
    git_reference_free(found);
    if (rc != 0) {
      git_error_clear();
      return std::nullopt;
    }
    id = *git_reference_target(direct);
    git_reference_free(direct);
  }
  auto odb = RepositoryOdb(repo);
  if (!odb.ok()) return std::nullopt;
  // The named object itself: unreadable through a reference is the view's refusal.
  auto failed = [&](int step, const Status& status) -> std::optional<Result<git_oid>> {
    if (step == 0 && by_ref && !OverLimit(status)) return Result<git_oid>(Unresolved(rev));
    return std::nullopt;
  };
  for (int step = 0; step <= kMaxTagChain; ++step) {
    auto header = ReadObjectHeaderWithin(odb->get(), id, kMaxPeeledObjectBytes);
    if (!header.ok()) return failed(step, header.status());
    if (header->type == type) {
      // Named directly (or by a tag): read and checked, as revparse reads what it names.
      if (type != GIT_OBJECT_COMMIT && type != GIT_OBJECT_TREE) return std::nullopt;
      auto object = ReadObject(odb->get(), id, type, kMaxPeeledObjectBytes);
      if (!object.ok()) return failed(step, object.status());
      return Result<git_oid>(id);
    }
    if (header->type != GIT_OBJECT_COMMIT && header->type != GIT_OBJECT_TAG) {
      // Left to the view, unless it is the named object and does not read (the leak above).
      if (step == 0 && by_ref) {
        auto object = ReadObject(odb->get(), id, header->type, kMaxPeeledObjectBytes);
        if (!object.ok()) return failed(step, object.status());
      }
      return std::nullopt;
    }
    if (header->type == GIT_OBJECT_COMMIT && type != GIT_OBJECT_TREE) return std::nullopt;
    auto object = ReadObject(odb->get(), id, header->type, kMaxPeeledObjectBytes);
    if (!object.ok()) return failed(step, object.status());
    const std::string_view data(static_cast<const char*>(git_odb_object_data(object->get())),
                                git_odb_object_size(object->get()));
    std::optional<git_oid> next =
        HeaderId(data, header->type == GIT_OBJECT_COMMIT ? "tree" : "object");
    if (!next) return std::nullopt;
    id = *next;
    if (header->type == GIT_OBJECT_COMMIT) {
      if (!IsTree(repo, id)) return std::nullopt;
      return Result<git_oid>(id);
    }
  }
  return std::nullopt;
}

}  // namespace

Result<git_oid> PeelRev(git_repository* repo, const std::string& rev, git_object_t type) {
  if (std::optional<Result<git_oid>> simple = PeelSimpleRev(repo, rev, type)) {
    return std::move(*simple);
  }
  // Every object revparse and peel read (commits, tags, trees) is hash-checked by the view.
  GENTLE_ASSIGN_OR_RETURN(RepositoryPtr view, OpenVerifiedView(repo));
  git_object* object = nullptr;
  if (git_revparse_single(&object, view.get(), rev.c_str()) != 0) return Unresolved(rev);
  if (type == GIT_OBJECT_TREE) {
    // A commit names its tree by id: only the id is asked for, so the tree is not read, parsed
    // and hash-checked whole (a root tree of git.git is ~12% of a small verify's instructions);
    // its header proves that it is there and is a tree. Whoever reads the tree later reads it
    // through a hash check.
    git_object* commit = nullptr;
    if (git_object_peel(&commit, object, GIT_OBJECT_COMMIT) == 0) {
      const git_oid tree = *git_commit_tree_id(reinterpret_cast<const git_commit*>(commit));
      git_object_free(commit);
      git_object_free(object);
      if (!IsTree(view.get(), tree)) {
        return Status(Code::kUsage, "revision " + rev + " does not name a tree");
      }
      return tree;
    }
  }
  git_object* peeled = nullptr;
  int rc = git_object_peel(&peeled, object, type);
  git_object_free(object);
  if (rc != 0) {
    return Status(Code::kUsage, "revision " + rev + " does not name a " +
                                    (type == GIT_OBJECT_TREE ? "tree" : "commit"));
  }
  git_oid oid = *git_object_id(peeled);
  git_object_free(peeled);
  return oid;
}

Result<git_oid> MergeBase(git_repository* repo, const git_oid& a, const git_oid& b,
                          const std::string& what) {
  GENTLE_ASSIGN_OR_RETURN(RepositoryPtr view, OpenVerifiedView(repo));
  git_oid base;
  if (git_merge_base(&base, view.get(), &a, &b) != 0) {
    return Status(Code::kUsage, "no merge base between " + what);
  }
  return base;
}

Result<Repository> Repository::Discover(const std::string& start_dir) {
  EnsureLibgit2();
  std::string start = CanonicalPath(start_dir);
  if (start.empty()) return Status(Code::kUsage, "cannot access directory: " + start_dir);
  // libgit2's open reads the configuration with a blocking open(2).
  GENTLE_RETURN_IF_ERROR(CheckConfigFiles(start));
  git_repository* raw = nullptr;
  if (git_repository_open_ext(&raw, start.c_str(), 0, nullptr) != 0) {
    return Status(Code::kUsage, "not a git repository: " + start);
  }
  Repository repo;
  repo.repo_.reset(raw);
  // Each distinct directory resolved once: the git dir is the common dir outside linked worktrees,
  // and the worktree is `start` itself when the command runs at its top (realpath(3) costs a
  // readlink(2) per component).
  const std::string git_dir = git_repository_path(raw);
  const std::string common_dir = git_repository_commondir(raw);
  repo.git_dir_ = CanonicalPath(git_dir);
  repo.common_dir_ = common_dir == git_dir ? repo.git_dir_ : CanonicalPath(common_dir);
  if (const char* workdir = git_repository_workdir(raw); workdir && !git_repository_is_bare(raw)) {
    std::string_view top(workdir);
    while (top.size() > 1 && top.back() == '/') top.remove_suffix(1);
    repo.worktree_root_ = top == start ? start : CanonicalPath(workdir);
  }
  if (repo.common_dir_.empty() || repo.git_dir_.empty()) {
    return Status(Code::kUsage, "cannot resolve the git directories of " + start);
  }
  // Before libgit2 reads a ref (every ref lookup may read packed-refs; HEAD names a loose ref),
  // an attributes file or an object.
  GENTLE_RETURN_IF_ERROR(CheckOpenedFiles(repo.git_dir_, repo.common_dir_, repo.worktree_root_));
  GENTLE_RETURN_IF_ERROR(GuardLooseObjects(raw));
  return repo;
}

namespace {

std::atomic<bool> exit_reclaims{false};

}  // namespace

void ExitReclaimsRepositories() { exit_reclaims.store(true, std::memory_order_relaxed); }

void LeaveToExit(Repository repo) {
  if (!exit_reclaims.load(std::memory_order_relaxed)) return;
  static std::mutex mu;
  static RepositoryPtr* kept = new RepositoryPtr();  // never destroyed: reachable until exit
  RepositoryPtr earlier;
  {
    std::lock_guard<std::mutex> lock(mu);
    earlier = std::exchange(*kept, std::move(repo.repo_));
  }
}

Result<RepositoryPtr> ReopenRepository(git_repository* repo) {
  return ReopenRepository(std::string(git_repository_path(repo)));
}

Result<RepositoryPtr> ReopenRepository(const std::string& git_dir) {
  git_repository* opened = nullptr;
  if (git_repository_open_ext(&opened, git_dir.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) !=
      0) {
    return Status(Code::kInternal, "cannot reopen the repository: " + LastGitError());
  }
  RepositoryPtr owned(opened);
  GENTLE_RETURN_IF_ERROR(GuardLooseObjects(opened));
  return owned;
}

Status Repository::RequireWorktree(std::string_view command) const {
  if (!is_bare()) return Status::Ok();
  return Status(Code::kUsage,
                std::string(command) + " needs a worktree; " + git_dir_ + " is a bare repository");
}

std::string Repository::WorktreeIdentity() const {
  return store::WorktreeIdentity(WorktreeIdentityJson(worktree_root_, common_dir_, git_dir_));
}

}  // namespace gentle::store::git
