// MemoryWrites: a repository handle whose object writes go to memory instead of the object
// database, so that a candidate can be captured with its objects (transaction/capture.h), measured,
// and refused without anything written to disk.
//
// While diverted, the handle's object database is an overlay: reads see the objects written to
// memory first, then the repository's own object database (read through, never freshened: an
// object that is already there is neither rewritten nor touched); every write goes to memory. A
// capture keeps its new blobs and trees here (WorkdirBlob, Blob, Tree: on the diverted handle
// only). STATUS measures a live candidate this way (nothing reaches the disk); START and REVISE
// capture into it and call Flush once the candidate is accepted, which writes the objects held, in
// the order they were made, to the real object database as loose objects in one durable batch
// (store/git/loose_batch.h: one sync for all, each object durable before it is visible; an object
// already there is freshened, not rewritten) and gives the handle its own object database back.
// Destroying a MemoryWrites without Flush drops the objects and also gives the database back.
//
// The overlay is in the store's read target; Flush, the one way its objects reach the disk, is in
// the write target (memory_writes_write.cc): a reader that calls it does not link.
//
// Memory: every object written while diverted is held whole (a candidate's new blobs and trees).
// Thread-safety: as for the handle (store/git/repository.h): one thread at a time. A second handle
// opened on the same git directory (the patch engine's helper thread) does not see the objects in
// memory; whatever reads them must read through this handle.
#ifndef GENTLE_STORE_GIT_MEMORY_WRITES_H_
#define GENTLE_STORE_GIT_MEMORY_WRITES_H_

#include <git2.h>

#include <memory>
#include <string>
#include <string_view>

#include "store/git/object_reader.h"
#include "store/git/tree_hash.h"
#include "store/git/tree_rows.h"
#include "store/status.h"

namespace gentle::store::git {

class MemoryWrites {
 public:
  // Diverts `repo`'s object writes to memory until Flush or destruction. `repo` must outlive this.
  static Result<std::unique_ptr<MemoryWrites>> Divert(git_repository* repo);

  ~MemoryWrites();
  MemoryWrites(const MemoryWrites&) = delete;
  MemoryWrites& operator=(const MemoryWrites&) = delete;

  // A worktree file (relative to the worktree root) as `git add` would store it, filters applied,
  // kept in memory.
  Result<git_oid> WorkdirBlob(const std::string& path);
  // A blob of `data` (a symlink's target), kept in memory.
  Result<git_oid> Blob(std::string_view data);
  // HashTree's tree (store/git/tree_hash.h), each tree made that is not in `reachable` kept in
  // memory.
  Result<git_oid> Tree(const TreeRows& rows, const TreeIds* reachable = nullptr,
                       TreeObjects* made = nullptr);

  // Writes the objects held to the real object database and restores it on the handle. Once.
  // In the store's write target.
  Status Flush();

  struct Backend;  // the libgit2 backend holding the objects (defined in memory_writes.cc)

 private:
  MemoryWrites(git_repository* repo, OdbPtr real, Backend* memory);
  void Restore();
  Status Keep(const git_oid& id, git_object_t type, std::string_view data);

  git_repository* repo_;
  OdbPtr real_;
  Backend* memory_;  // owned by the overlay database, which the handle holds while diverted
  bool restored_ = false;
};

}  // namespace gentle::store::git

#endif  // GENTLE_STORE_GIT_MEMORY_WRITES_H_
