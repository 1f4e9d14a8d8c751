// WorktreeProbe: what an lstat of each index entry's path says about the file on disk, taken on
// several threads when the index is large (git's preload-index does the same).
//
// Contract: ProbeWorktree returns one DiskProbe per entry, in entry order; entries not marked in
// `wanted` get a default probe and are never stat'ed. Each probe is a pure function of one lstat
// of `<worktree_root>/<path>` (an fstatat of the entry's last component relative to a descriptor
// of its directory, opened once for a run of four or more entries in that directory: the kernel
// walks such a directory's components once, where git's lstat walks them for every entry; other
// entries by their whole path) and of the entry: the
// kind of file, its executable bit, and whether its stat data matches the entry closely enough to
// reuse the entry's object id (git's racy-git rule: an entry whose mtime is not strictly older than
// the index file's is never reused). The result does not depend on the number of threads. `threads`
// 0 means git's preload-index policy: one thread per kMinEntriesPerThread entries, at most
// kMaxProbeThreads, none extra below two threads' worth, whatever the number of cores (on a loaded
// machine the threads' share of the CPU, not the cores, bounds how fast the stat calls go). It
// reads only.
#ifndef GENTLE_STORE_GIT_WORKTREE_PROBE_H_
#define GENTLE_STORE_GIT_WORKTREE_PROBE_H_

#include <sys/stat.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/git/worktree_index.h"

namespace gentle::store::git {

inline constexpr unsigned kMaxProbeThreads = 20;     // git's preload-index MAX_PARALLEL
inline constexpr size_t kMinEntriesPerThread = 500;  // git's preload-index THREAD_COST

struct DiskProbe {
  enum class Kind : uint8_t { kAbsent, kRegular, kSymlink, kOther };  // kAbsent: also a directory
  Kind kind = Kind::kAbsent;
  bool executable = false;    // the owner's execute bit (regular files)
  bool stat_matches = false;  // the entry's object id may be reused (never without an entry)
};

// Whether the stat data of `st` matches index entry `e` and the entry is not racily clean against
// the index file's mtime (`index_mtime`; nothing: every entry is treated as racy).
bool StatMatches(const WorktreeIndexEntry& e, const struct stat& st,
                 const std::optional<struct timespec>& index_mtime);

// One probe of `full_path`, against `entry` when there is one.
DiskProbe ProbePath(const std::string& full_path, const WorktreeIndexEntry* entry,
                    const std::optional<struct timespec>& index_mtime);

// A probe per entry of `entries` marked in `wanted` (same size), against that entry.
std::vector<DiskProbe> ProbeWorktree(const std::string& worktree_root,
                                     const std::vector<WorktreeIndexEntry>& entries,
                                     const std::vector<char>& wanted,
                                     const std::optional<struct timespec>& index_mtime,
                                     unsigned threads = 0);

}  // namespace gentle::store::git

#endif  // GENTLE_STORE_GIT_WORKTREE_PROBE_H_
