#include "store/git/worktree_probe.h"

#include <fcntl.h>
#include <git2.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <string_view>
#include <system_error>
#include <thread>

namespace gentle::store::git {
namespace {

// Entries are claimed in blocks of this many, so that the threads finish together even when one
// part of the tree is slower to stat (cold directories).
constexpr size_t kBlock = 512;

unsigned ThreadCount(unsigned requested, size_t entries) {
  if (requested != 0) return requested;
  const size_t by_size = entries / kMinEntriesPerThread;
  return by_size < 2 ? 1 : static_cast<unsigned>(std::min<size_t>(by_size, kMaxProbeThreads));
}

// The probe of one lstat result (`rc` its return value).
DiskProbe FromStat(int rc, const struct stat& st, const WorktreeIndexEntry* entry,
                   const std::optional<struct timespec>& index_mtime) {
  DiskProbe probe;
  if (rc != 0 || S_ISDIR(st.st_mode)) return probe;
  if (S_ISLNK(st.st_mode)) {
    probe.kind = DiskProbe::Kind::kSymlink;
  } else if (S_ISREG(st.st_mode)) {
    probe.kind = DiskProbe::Kind::kRegular;
    probe.executable = (st.st_mode & S_IXUSR) != 0;
  } else {
    probe.kind = DiskProbe::Kind::kOther;
    return probe;
  }
  probe.stat_matches = entry != nullptr && StatMatches(*entry, st, index_mtime);
  return probe;
}

// The worktree root the probes stat relative to: a directory descriptor when one can be had (the
// kernel then walks only the entry's own components, as for git, which runs from the root), else
// the root's path as a prefix.
struct Root {
  int fd = -1;
  std::string prefix;  // "<root>/"
};

// Whether this thread now has a working directory of its own, the worktree root: then a relative
// path is looked up from it as git's are from its working directory. A descriptor shared by the
// threads of a process costs each fstatat an atomic reference on one open file, which the probe
// threads then contend for (on a kernel-sized tree, ~10 ms of CPU in fdget and fput); a working
// directory is read under RCU. Only for helper threads: the process's own working directory is
// never changed. False (unshare refused, e.g. by a seccomp filter) leaves fstatat in use.
bool OwnWorkingDirectory(const Root& root) {
  return root.fd >= 0 && unshare(CLONE_FS) == 0 && fchdir(root.fd) == 0;
}

// The directory of the entries being probed, held open so that each entry is looked up by its
// last component alone (the kernel walks the directory's components once per directory, not once
// per entry). The descriptor is opened relative to the root with the directory's whole path, so
// every component but the entry's own is resolved exactly as in an lstat of the entry's path
// (symbolic links followed); the entry itself is then stat'ed without following it. A directory
// that cannot be opened (missing, not a directory, no descriptor to be had) leaves its entries to
// the lstat of their whole path, whose answer the open cannot change.
class ParentDir {
 public:
  ParentDir() = default;
  ParentDir(const ParentDir&) = delete;
  ParentDir& operator=(const ParentDir&) = delete;
  ~ParentDir() { Close(); }

  // Whether `dir` is the directory last asked for (whether or not it could be opened).
  bool Holds(std::string_view dir) const { return !dir_.empty() && dir == dir_; }

  // A descriptor of directory `dir` (a path relative to `base_fd`, no trailing slash), or -1.
  int Open(int base_fd, std::string_view dir) {
    if (dir == dir_) return fd_;
    Close();
    dir_.assign(dir);
    fd_ = openat(base_fd, dir_.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    return fd_;
  }

 private:
  void Close() {
    if (fd_ >= 0) close(fd_);
    fd_ = -1;
    dir_.clear();
  }
  std::string dir_;  // empty: none open
  int fd_ = -1;
};

// An open and a close cost about what a walk of a directory's components saves an entry or two:
// a directory is opened only for a run of at least this many entries (or when it is already open).
constexpr size_t kMinRunInDir = 4;

// Whether the entries after `i`, up to a run of kMinRunInDir, are all directly in `dir` (sorted
// entries keep a directory's files together).
bool RunInDir(const std::vector<WorktreeIndexEntry>& entries, size_t i, std::string_view dir) {
  if (entries.size() - i < kMinRunInDir) return false;
  for (size_t k = i + 1; k < i + kMinRunInDir; ++k) {
    const std::string_view path = entries[k].path;
    if (path.size() <= dir.size() + 1 || path.compare(0, dir.size(), dir) != 0 ||
        path[dir.size()] != '/' || path.find('/', dir.size() + 1) != std::string_view::npos) {
      return false;
    }
  }
  return true;
}

// One lstat of entry `i` (its path relative, NUL-terminated), with `dir_fd` the root: through the
// entry's parent directory when that is open or worth opening and can be opened, else by the
// whole path.
int StatRelative(int dir_fd, const std::vector<WorktreeIndexEntry>& entries, size_t i,
                 ParentDir& parent, struct stat* st) {
  const std::string_view path = entries[i].path;
  const size_t slash = path.rfind('/');
  if (slash != std::string_view::npos && slash != 0 && slash + 1 < path.size()) {
    const std::string_view dir = path.substr(0, slash);
    if (parent.Holds(dir) || RunInDir(entries, i, dir)) {
      const int fd = parent.Open(dir_fd, dir);
      if (fd >= 0) return fstatat(fd, path.data() + slash + 1, st, AT_SYMLINK_NOFOLLOW);
    }
  }
  return fstatat(dir_fd, path.data(), st, AT_SYMLINK_NOFOLLOW);
}

// Probes the wanted entries of each block claimed from `next` until none is left; `at_root`:
// this thread's working directory is the worktree root (OwnWorkingDirectory).
void ProbeBlocks(const std::vector<WorktreeIndexEntry>& entries, const std::vector<char>& wanted,
                 const std::optional<struct timespec>& index_mtime, const Root& root, bool at_root,
                 std::atomic<size_t>& next, std::vector<DiskProbe>& out) {
  std::string full = root.prefix;  // this thread's path buffer, when the descriptor is not used
  const size_t prefix = full.size();
  const int dir_fd = at_root ? AT_FDCWD : root.fd;
  ParentDir parent;  // this thread's own: no descriptor is shared between threads
  for (;;) {
    const size_t begin = next.fetch_add(kBlock);
    if (begin >= entries.size()) return;
    const size_t end = std::min(entries.size(), begin + kBlock);
    for (size_t i = begin; i < end; ++i) {
      if (!wanted[i]) continue;
      struct stat st;
      int rc;
      const std::string_view path = entries[i].path;               // NUL-terminated
      if (root.fd >= 0 && !path.empty() && path.front() != '/') {  // relative: under the root
        rc = StatRelative(dir_fd, entries, i, parent, &st);
      } else {
        full.resize(prefix);
        full += path;
        rc = lstat(full.c_str(), &st);
      }
      out[i] = FromStat(rc, st, &entries[i], index_mtime);
    }
  }
}

}  // namespace

bool StatMatches(const WorktreeIndexEntry& e, const struct stat& st,
                 const std::optional<struct timespec>& index_mtime) {
  if (e.flags_extended & GIT_INDEX_ENTRY_INTENT_TO_ADD) return false;
  if (e.mtime_seconds != static_cast<uint32_t>(st.st_mtim.tv_sec) ||
      e.mtime_nanoseconds != static_cast<uint32_t>(st.st_mtim.tv_nsec) ||
      e.ctime_seconds != static_cast<uint32_t>(st.st_ctim.tv_sec) ||
      e.ctime_nanoseconds != static_cast<uint32_t>(st.st_ctim.tv_nsec) ||
      e.file_size != static_cast<uint32_t>(st.st_size) ||
      e.ino != static_cast<uint32_t>(st.st_ino)) {
    return false;
  }
  // Racy entry: written in the same instant as (or after) the index; its content must be compared.
  if (!index_mtime) return false;
  const int64_t index_s = index_mtime->tv_sec;
  const int64_t entry_s = static_cast<int32_t>(e.mtime_seconds);  // git_index_time's int32 seconds
  return entry_s < index_s ||
         (entry_s == index_s && e.mtime_nanoseconds < static_cast<uint32_t>(index_mtime->tv_nsec));
}

DiskProbe ProbePath(const std::string& full_path, const WorktreeIndexEntry* entry,
                    const std::optional<struct timespec>& index_mtime) {
  struct stat st;
  const int rc = lstat(full_path.c_str(), &st);
  return FromStat(rc, st, entry, index_mtime);
}

std::vector<DiskProbe> ProbeWorktree(const std::string& worktree_root,
                                     const std::vector<WorktreeIndexEntry>& entries,
                                     const std::vector<char>& wanted,
                                     const std::optional<struct timespec>& index_mtime,
                                     unsigned threads) {
  std::vector<DiskProbe> out(entries.size());
  Root root;
  root.fd = open(worktree_root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  root.prefix = worktree_root + "/";
  root.prefix.reserve(root.prefix.size() + 256);
  std::atomic<size_t> next{0};
  std::vector<std::thread> helpers;
  const unsigned count = ThreadCount(threads, entries.size());
  auto probe_as_helper = [&] {
    ProbeBlocks(entries, wanted, index_mtime, root, OwnWorkingDirectory(root), next, out);
  };
  for (unsigned t = 1; t < count; ++t) {
    try {
      helpers.emplace_back(probe_as_helper);
    } catch (const std::system_error&) {
      break;  // no more threads to be had: the others, and this one, take the remaining blocks
    }
  }
  ProbeBlocks(entries, wanted, index_mtime, root, /*at_root=*/false, next, out);
  for (std::thread& helper : helpers) helper.join();
  if (root.fd >= 0) close(root.fd);
  return out;
}

}  // namespace gentle::store::git
