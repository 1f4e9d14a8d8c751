// What `review fsck` says about the seen ledger (docs/loop.md "fsck"), read-only: the file is
// opened read-only (nothing created or written, as every reader) and only when it exists.
//
// Findings (store/finding.h), each naming the path:
//   loop_corrupted      a symlinked path component, a non-regular file at the database or a side
//                       file, not a SQLite database, not a seen ledger, tables that do not match
//                       the schema version, PRAGMA integrity_check not "ok", or a -wal SQLite
//                       does not read;
//   loop_newer_schema   a newer release's ledger (this release reads and writes none of it);
//   loop_file_mode      the database file's mode is not 0600;
//   loop_interrupted    a WAL database without its -wal or -shm, or a -wal with a header and no
//                       frame: readers refuse it until the next `seen add` or `seen baseline`
//                       recovers it.
// A missing file is clean (nothing seen). Contention is returned as `busy`, not as a finding.
#ifndef GENTLE_LOOP_SEEN_FSCK_H_
#define GENTLE_LOOP_SEEN_FSCK_H_

#include <string>
#include <vector>

#include "store/finding.h"
#include "store/status.h"

namespace gentle::loop {

struct SeenFsck {
  bool present = false;  // review-loop.sqlite exists
  std::vector<store::Finding> findings;
};

Result<SeenFsck> CheckSeenLedger(const std::string& common_dir);

}  // namespace gentle::loop

#endif  // GENTLE_LOOP_SEEN_FSCK_H_
