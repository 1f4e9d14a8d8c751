// RawTree: a tree object read through the verified reader (store/git/object_reader.h) and parsed
// from git's raw format, a sequence of `<octal mode> <name>\0<20-byte id>` entries, instead of
// git_tree_lookup (which would read the object unchecked, or twice if checked first: libgit2
// caches no tree over 4 KB).
//
// Parsing refuses what libgit2's tree parser refuses (an empty or non-octal mode, a mode above
// 0xFFFF, a missing space, an empty name, a truncated id), and, like git, a mode written with
// anything but octal digits. Entries keep the stored order; names point into the object (or the
// bytes given to ParseRawTree), which the RawTree owns. An entry is a subtree when its mode's type
// bits are 040000 (libgit2's and git's rule), whatever else its mode says.
#ifndef GENTLE_STORE_GIT_RAW_TREE_H_
#define GENTLE_STORE_GIT_RAW_TREE_H_

#include <git2.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "store/git/object_reader.h"
#include "store/status.h"

namespace gentle::store::git {

struct RawTreeEntry {
  uint32_t mode;  // as stored (not canonical)
  std::string_view name;
  git_oid id;
  bool is_tree() const { return (mode & 0170000) == 0040000; }
};

// git's tree order: names compare bytewise, a subtree's as if it ended in '/'. Negative, zero or
// positive as `a` sorts before, with, or after `b`.
int TreeOrderCompare(const RawTreeEntry& a, const RawTreeEntry& b);
inline bool TreeOrderLess(const RawTreeEntry& a, const RawTreeEntry& b) {
  return TreeOrderCompare(a, b) < 0;
}

// False when `data` is not a well-formed tree; `out` is then unspecified.
bool ParseTree(std::string_view data, std::vector<RawTreeEntry>* out);

class RawTree {
 public:
  const std::vector<RawTreeEntry>& entries() const { return entries_; }
  // Entry names strictly increasing in git's tree order (a subtree compares as "name/") and no
  // name twice: true of every tree git writes (not of `hash-object --literally` ones).
  bool CanonicalOrder() const;

 private:
  // Whether a file of the same name as the subtree at `subtree` precedes it (entries in order).
  bool FileNamedLikeSubtree(size_t subtree) const;
  friend Result<RawTree> ReadTree(git_odb* odb, const git_oid& id, uint64_t max_bytes);
  friend Result<RawTree> ParseRawTree(std::string data, const git_oid& id);
  OdbObjectPtr object_;                           // read from an object database, or
  std::shared_ptr<const std::string> in_memory_;  // given to ParseRawTree
  std::vector<RawTreeEntry> entries_;
};

// The tree `id`, hash checked and parsed. kObjectsMissing (details.object) when it is absent,
// not a tree, does not hash to its id, or is malformed; other read failures, and a tree over
// `max_bytes` (refused from its header), as ReadObject.
Result<RawTree> ReadTree(git_odb* odb, const git_oid& id, uint64_t max_bytes = kNoSizeLimit);

// The tree object whose data is `data`, held in memory by a caller that computed its id `id` from
// those bytes (BuildTree's trees when nothing is written); parsed, not hashed again.
// kObjectsMissing (details.object) when malformed.
Result<RawTree> ParseRawTree(std::string data, const git_oid& id);

}  // namespace gentle::store::git

#endif  // GENTLE_STORE_GIT_RAW_TREE_H_
