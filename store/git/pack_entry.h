// FindWholePackEntry: where a pack holds an object whole (not as a delta), so that it can be
// inflated in pieces straight from the .pack file (store/git/object_file_stream.h).
//
// libgit2 1.5 opens no read stream on a packed object: it inflates the object whole through a
// mapped window of the pack, which stays mapped after the read. A file above git's
// core.bigFileThreshold (512 MiB) is written by `git add` straight into a pack of its own as one
// such entry, so reading it that way holds the blob beside the mapped pack (docs/performance.md,
// "A one-byte change to a large binary").
//
// Contract: looks `id` up in each `<dir>/pack/*.idx` of `object_dirs` in turn (index version 2;
// the .idx and its .pack opened without following a final symlink, O_NONBLOCK, regular files
// only; every count and offset checked against the file's size before it is used) and answers
// the first pack that holds it as a commit, tree, blob or tag entry: the .pack opened (the
// caller closes `fd`), where the entry's zlib data starts, its type and size. nullopt when none
// does (absent, a delta entry, a version-1 or damaged index, an entry header that does not
// parse): the caller reads the object another way, which reports what is wrong. Nothing here
// checks the object's hash: the caller hashes what it reads (store/git/object_reader.h), so a
// damaged or forged pack can only make a read fail.
#ifndef GENTLE_STORE_GIT_PACK_ENTRY_H_
#define GENTLE_STORE_GIT_PACK_ENTRY_H_

#include <git2.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gentle::store::git {

struct PackEntry {
  int fd;                // the .pack, open for reading; the caller's to close
  uint64_t data_offset;  // where the entry's zlib stream starts
  git_object_t type;
  uint64_t size;  // of the inflated data, from the entry's header
};

std::optional<PackEntry> FindWholePackEntry(const std::vector<std::string>& object_dirs,
                                            const git_oid& id);

}  // namespace gentle::store::git

#endif  // GENTLE_STORE_GIT_PACK_ENTRY_H_
