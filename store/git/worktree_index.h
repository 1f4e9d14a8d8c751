// WorktreeIndex: the entries of a git index file (.git/index), read without libgit2.
//
// Contract: ReadWorktreeIndex returns every entry of the file in file order (git keeps them sorted
// bytewise by path, then by stage), with the fields of the format
// (https://git-scm.com/docs/index-format) exactly as libgit2's git_index_open would report them,
// or nullopt when this reader declines and the caller must use libgit2 instead. It declines
// rather than guesses: a file that is not a complete, well-formed version 2, 3 or 4 index whose
// trailing SHA-1 matches, a required (lowercase) extension such as a split index `link` or a
// sparse index `sdir`, a path libgit2 refuses to load (`.`, `..`, a `.git` variant, an NTFS
// short name) or longer than 4,096 bytes, an unreadable file. Optional (uppercase) extensions
// are skipped unparsed, except the cache-tree (`TREE`), whose valid directories are returned; a
// malformed or repeated cache-tree is declined too (libgit2 refuses such a file). A missing file
// is an empty index, as for git_index_open.
//
// Why: git_index_open hashes the whole file with collision-detecting SHA-1 and builds per-entry
// allocations and a hash map; on a 30,000-file checkout that was half of `review start`. This
// reader verifies the checksum with OpenSSL's SHA-1 and keeps the entries in one vector. It reads
// only; it never writes or locks the index.
#ifndef GENTLE_STORE_GIT_WORKTREE_INDEX_H_
#define GENTLE_STORE_GIT_WORKTREE_INDEX_H_

#include <git2.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gentle::store::git {

struct WorktreeIndexEntry {
  uint32_t ctime_seconds = 0;
  uint32_t ctime_nanoseconds = 0;
  uint32_t mtime_seconds = 0;
  uint32_t mtime_nanoseconds = 0;
  uint32_t dev = 0;
  uint32_t ino = 0;
  uint32_t mode = 0;
  uint32_t uid = 0;
  uint32_t gid = 0;
  uint32_t file_size = 0;
  git_oid id{};
  uint16_t flags = 0;           // assume-valid, extended, stage (bits 12-13), name length
  uint16_t flags_extended = 0;  // GIT_INDEX_ENTRY_INTENT_TO_ADD, _SKIP_WORKTREE; 0 in version 2
  // NUL-terminated (path.data() is a C string), in the IndexPaths its reader filled: valid while
  // that lives.
  std::string_view path;

  int stage() const { return (flags >> 12) & 3; }
};

// The bytes of index entries' paths, in blocks that never move, so that the entries' views stay
// valid for as long as this object, or the one it is moved into, lives. One allocation per block
// instead of one per path: on a kernel-sized index 80,000 allocations at the parse and as many
// frees at exit were a tenth of a status.
class IndexPaths {
 public:
  IndexPaths() = default;
  IndexPaths(IndexPaths&&) = default;
  IndexPaths& operator=(IndexPaths&&) = default;

  // A NUL-terminated copy of `head` followed by `tail`.
  std::string_view Add(std::string_view head, std::string_view tail = {});

 private:
  std::vector<std::unique_ptr<char[]>> blocks_;
  char* next_ = nullptr;  // free bytes of the last block
  size_t left_ = 0;
};

// A directory of the index's cache-tree extension whose tree id is valid: `id` is the tree git's
// write-tree would make of the `entry_count` index entries under `path` (index-format "Cache
// tree"). Invalidated directories (entry_count -1) are not listed.
struct CacheTreeDir {
  std::string path;  // "" for the root, else the directory with a trailing slash: "a/b/"
  git_oid id{};
  uint32_t entry_count = 0;
};

struct WorktreeIndex {
  uint32_t version = 0;  // 0 when the file does not exist
  IndexPaths paths;      // the entries' paths: keep it with them
  std::vector<WorktreeIndexEntry> entries;
  std::vector<CacheTreeDir> cache_tree;  // in the extension's order (pre-order); empty if none
};

std::optional<WorktreeIndex> ReadWorktreeIndex(const std::string& path);

}  // namespace gentle::store::git

#endif  // GENTLE_STORE_GIT_WORKTREE_INDEX_H_
