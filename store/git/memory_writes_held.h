// The objects a MemoryWrites holds (store/git/memory_writes.h), shared by its two halves: the
// overlay in the read target (memory_writes.cc) and Flush in the write target
// (memory_writes_write.cc). Internal to those two files.
#ifndef GENTLE_STORE_GIT_MEMORY_WRITES_HELD_H_
#define GENTLE_STORE_GIT_MEMORY_WRITES_HELD_H_

#include <git2.h>
#include <git2/sys/odb_backend.h>

#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

#include "store/git/memory_writes.h"

namespace gentle::store::git::memory_writes_detail {

struct HeldObject {
  git_oid id;
  git_object_t type;
  std::string data;
};

// The objects written while diverted, in the order made.
struct Held {
  std::deque<HeldObject> objects;                 // stable addresses: read streams point into them
  std::unordered_map<std::string, size_t> by_id;  // raw id -> index in objects
  // Objects a write found already on disk: git freshens them (a tree or blob about to be named
  // must not be pruned as old and unreachable); Flush does, nothing before it.
  std::vector<git_oid> to_freshen;

  // Keeps `data` as object `id` unless it is held already.
  void Add(const git_oid& id, git_object_t type, std::string data) {
    if (Find(&id) != nullptr) return;
    by_id.emplace(std::string(reinterpret_cast<const char*>(id.id), GIT_OID_RAWSZ), objects.size());
    objects.push_back({id, type, std::move(data)});
  }

  const HeldObject* Find(const git_oid* id) const {
    auto it = by_id.find(std::string(reinterpret_cast<const char*>(id->id), GIT_OID_RAWSZ));
    return it == by_id.end() ? nullptr : &objects[it->second];
  }
};

}  // namespace gentle::store::git::memory_writes_detail

namespace gentle::store::git {

// The backend holding the objects written while diverted.
struct MemoryWrites::Backend {
  git_odb_backend parent;  // first: libgit2 hands this pointer back
  memory_writes_detail::Held* held;
};

}  // namespace gentle::store::git

#endif  // GENTLE_STORE_GIT_MEMORY_WRITES_HELD_H_
