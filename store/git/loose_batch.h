// WriteLooseBatch: writes objects into an object directory as loose objects, durable before they
// are visible, with one sync for the whole batch (the way git's core.fsyncMethod=batch writes
// loose objects; docs/format.md, "Locks and durability").
//
// Each object is deflated into a temporary file of the object directory (`tmp_batch_XXXXXX`,
// mode 0444) and its pages are handed to writeback at once (sync_file_range, which starts the
// write without a cache flush); once every file is written, the writeback of all of them is
// waited for and the last file is fsynced. That one fsync commits the file system's journal, which
// holds every file of the batch (their blocks were allocated when their writeback started), and
// flushes the disk's cache, which holds their data: after it the whole batch is on stable storage.
// Only then is each file renamed to its name (`xx/<38 hex>`, the fan-out directory made when
// missing): no object is ever visible with data that a power cut could lose. The renames are
// made durable by the next sync of the caller's protocol (the history ref's lock file), which on a
// journalling file system commits every earlier rename (git with core.fsync=all relies on the
// same: it syncs no directory); a fan-out directory the batch created is synced into the object
// directory once, after the renames.
//
// Where sync_file_range is not supported, each file is fsynced instead. At most kOpenFiles files
// are open at once: a larger batch is waited for in windows. An empty batch writes nothing and
// syncs nothing. Objects are not checked against the directory first (the caller knows them to
// be new); one already there is replaced by the same object. Errors: kInternal naming the file and
// the system call; temporary files of a failed batch are removed.
#ifndef GENTLE_STORE_GIT_LOOSE_BATCH_H_
#define GENTLE_STORE_GIT_LOOSE_BATCH_H_

#include <git2.h>

#include <string>
#include <string_view>
#include <vector>

#include "store/status.h"

namespace gentle::store::git {

struct LooseObject {
  git_oid id;
  git_object_t type;
  std::string_view data;  // the object's content, without the loose header
};

inline constexpr size_t kOpenFiles = 128;

// `objects_dir`: the object directory (`<common dir>/objects`), without a trailing slash.
Status WriteLooseBatch(const std::string& objects_dir, const std::vector<LooseObject>& objects);

}  // namespace gentle::store::git

#endif  // GENTLE_STORE_GIT_LOOSE_BATCH_H_
