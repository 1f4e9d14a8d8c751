// WriterOwner: the exclusive v2/LOCK one mutation holds, and its owner record (docs/lifecycle.md,
// "Stale ref locks" and "review fsck").
//
// The owner record is the lock file's content while it is held, one JSON line:
//   {"schema":"gentle-ai.review-store-lock/v1","pid":N,"host":"...","refs":[...]}
// `refs` names the refs (under the git common dir: "refs/gentle-ai/reviews/<lineage>", or
// "packed-refs" for a deletion) whose git lock `<ref>.lock` the holder may own at this moment: a
// ref write names its ref there before libgit2 creates the lock and drops it once libgit2 has let
// the lock go (RefWriteIntent). A clean release truncates the file. So a holder that finds a
// non-empty owner record when it takes the lock knows the previous holder died holding it (the
// kernel released its flock), and a `<ref>.lock` that record names is that dead writer's own: the
// new holder removes it before it does anything else. A lock nobody recorded (a git command of
// the user's) is never touched. The record is not fsynced: after a power cut a left lock is named
// by fsck and removed by a person, as git's are.
//
// ProbeWriter tells fsck, without waiting and without writing, whether a live writer holds the
// lock (a shared flock with LOCK_NB fails) and what the record names.
//
// Acquire and RefWriteIntent are defined in the store's write target (store/writer_owner_write.cc).
// Thread-safety: one WriterOwner per process at a time (a mutation is single-threaded); the
// current one is what RefWriteIntent writes to.
#ifndef GENTLE_STORE_WRITER_OWNER_H_
#define GENTLE_STORE_WRITER_OWNER_H_

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "store/file_lock.h"
#include "store/layout.h"
#include "store/status.h"

namespace gentle::store {

class WriterOwner {
 public:
  // Takes v2/LOCK exclusively (FileLock's timeout), removes the ref locks a dead previous holder
  // names in its record, and writes this process's record. Becomes the process's current owner.
  static Result<std::unique_ptr<WriterOwner>> Acquire(const StoreLayout& layout);
  ~WriterOwner();
  WriterOwner(const WriterOwner&) = delete;
  WriterOwner& operator=(const WriterOwner&) = delete;

  // Rewrites the record with `refs_` (RefWriteIntent).
  Status WriteRecord();
  std::vector<std::string>& refs() { return refs_; }

 private:
  WriterOwner() = default;
  FileLock lock_;
  std::vector<std::string> refs_;
};

// Names `refs` in the current WriterOwner's record for the object's lifetime (nothing when this
// process holds no writer lock). Record() fails (kInternal) when the record cannot be written: the
// ref must then not be locked.
class RefWriteIntent {
 public:
  static Result<RefWriteIntent> Record(std::vector<std::string> refs);
  RefWriteIntent(RefWriteIntent&& other) noexcept;
  RefWriteIntent& operator=(RefWriteIntent&&) = delete;
  RefWriteIntent(const RefWriteIntent&) = delete;
  ~RefWriteIntent();

 private:
  RefWriteIntent() = default;
  size_t count_ = 0;  // refs appended to the current owner's list
};

// The refs an owner record names (none when it does not parse or names none). Only names of the
// shape a writer records are returned: "packed-refs" or "refs/gentle-ai/..." without "." or ".."
// components.
std::vector<std::string> OwnerRecordRefs(const std::string& record);

struct WriterProbe {
  bool live = false;              // a process holds v2/LOCK exclusively now
  std::vector<std::string> refs;  // the refs its record names (a live holder's or a dead one's)
  // The lock file's identity and change times (0 when absent): a writer that took and released
  // the lock between two probes changed them.
  ino_t inode = 0;
  off_t size = 0;
  long mtime_ns = 0, ctime_ns = 0;
  time_t mtime = 0, ctime = 0;
  bool SameFileState(const WriterProbe& other) const;
};

// Read-only: never creates the lock file and never waits.
Result<WriterProbe> ProbeWriter(const StoreLayout& layout);

// The process's current WriterOwner (null when it holds no writer lock); set by Acquire only.
WriterOwner* CurrentWriterOwner();
void SetCurrentWriterOwner(WriterOwner* owner);

// The largest owner record read back: a handful of ref names.
inline constexpr size_t kMaxOwnerRecordBytes = 64 * 1024;

}  // namespace gentle::store

#endif  // GENTLE_STORE_WRITER_OWNER_H_
