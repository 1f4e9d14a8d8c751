#include "store/git/memory_writes.h"

#include <fcntl.h>
#include <git2/sys/odb_backend.h>
#include <git2/sys/repository.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

#include "store/git/git_util.h"
#include "store/git/loose_object_guard.h"
#include "store/git/memory_writes_held.h"
#include "store/git/tree_hash.h"

namespace gentle::store::git {

using memory_writes_detail::Held;
using memory_writes_detail::HeldObject;

namespace {

// Hands `data` to libgit2 in a buffer it can free.
int CopyOut(git_odb_backend* backend, std::string_view data, void** out, size_t* len) {
  void* buffer = git_odb_backend_data_alloc(backend, data.size());
  if (buffer == nullptr) return -1;
  if (!data.empty()) std::memcpy(buffer, data.data(), data.size());
  *out = buffer;
  *len = data.size();
  return 0;
}

// A backend over another object database: reads only, and no freshen (libgit2 then asks `exists`
// before a write, so an object already on disk is neither rewritten nor touched).
struct ReadThrough {
  git_odb_backend parent;  // first: libgit2 hands this pointer back
  git_odb* real;           // a reference of its own
  Held* held;              // the memory backend's, which the same overlay frees
};

ReadThrough* AsReadThrough(git_odb_backend* b) { return reinterpret_cast<ReadThrough*>(b); }

// Hands `object`, read from the real database, to libgit2 as this backend's answer (its type and
// a copy of its bytes), and frees it.
int HandOut(git_odb_backend* b, git_odb_object* object, void** out, size_t* len,
            git_object_t* type) {
  *type = git_odb_object_type(object);
  const int rc = CopyOut(b,
                         std::string_view(static_cast<const char*>(git_odb_object_data(object)),
                                          git_odb_object_size(object)),
                         out, len);
  git_odb_object_free(object);
  return rc;
}

int ReadThroughRead(void** out, size_t* len, git_object_t* type, git_odb_backend* b,
                    const git_oid* id) {
  git_odb_object* object = nullptr;
  if (int rc = git_odb_read(&object, AsReadThrough(b)->real, id); rc != 0) return rc;
  return HandOut(b, object, out, len, type);
}

int ReadThroughReadPrefix(git_oid* out_id, void** out, size_t* len, git_object_t* type,
                          git_odb_backend* b, const git_oid* short_id, size_t short_len) {
  git_odb_object* object = nullptr;
  if (int rc = git_odb_read_prefix(&object, AsReadThrough(b)->real, short_id, short_len); rc != 0) {
    return rc;
  }
  git_oid_cpy(out_id, git_odb_object_id(object));
  return HandOut(b, object, out, len, type);
}

int ReadThroughReadHeader(size_t* len, git_object_t* type, git_odb_backend* b, const git_oid* id) {
  return git_odb_read_header(len, type, AsReadThrough(b)->real, id);
}

int ReadThroughReadStream(git_odb_stream** out, size_t* len, git_object_t* type, git_odb_backend* b,
                          const git_oid* id) {
  return git_odb_open_rstream(out, len, type, AsReadThrough(b)->real, id);
}

int ReadThroughExists(git_odb_backend* b, const git_oid* id) {
  return git_odb_exists(AsReadThrough(b)->real, id);
}

int ReadThroughExistsPrefix(git_oid* out, git_odb_backend* b, const git_oid* short_id,
                            size_t short_len) {
  return git_odb_exists_prefix(out, AsReadThrough(b)->real, short_id, short_len);
}

int ReadThroughRefresh(git_odb_backend* b) { return git_odb_refresh(AsReadThrough(b)->real); }

// Asked before every write: an object already on disk is not written again, only noted for
// freshening at Flush (0: it exists).
int ReadThroughFreshen(git_odb_backend* b, const git_oid* id) {
  ReadThrough* self = AsReadThrough(b);
  if (git_odb_exists(self->real, id) == 0) return GIT_ENOTFOUND;
  self->held->to_freshen.push_back(*id);
  return 0;
}

void ReadThroughFree(git_odb_backend* b) {
  ReadThrough* self = AsReadThrough(b);
  git_odb_free(self->real);
  delete self;
}

}  // namespace

namespace {

Held& HeldOf(git_odb_backend* b) { return *reinterpret_cast<MemoryWrites::Backend*>(b)->held; }

int MemoryRead(void** out, size_t* len, git_object_t* type, git_odb_backend* b, const git_oid* id) {
  const HeldObject* object = HeldOf(b).Find(id);
  if (object == nullptr) return GIT_ENOTFOUND;
  *type = object->type;
  return CopyOut(b, object->data, out, len);
}

int MemoryReadHeader(size_t* len, git_object_t* type, git_odb_backend* b, const git_oid* id) {
  const HeldObject* object = HeldOf(b).Find(id);
  if (object == nullptr) return GIT_ENOTFOUND;
  *len = object->data.size();
  *type = object->type;
  return 0;
}

int MemoryWrite(git_odb_backend* b, const git_oid* id, const void* data, size_t len,
                git_object_t type) {
  HeldOf(b).Add(*id, type, std::string(static_cast<const char*>(data), len));
  return 0;
}

int MemoryExists(git_odb_backend* b, const git_oid* id) {
  return HeldOf(b).Find(id) != nullptr ? 1 : 0;
}

int MemoryFreshen(git_odb_backend* b, const git_oid* id) {
  return HeldOf(b).Find(id) != nullptr ? 0 : GIT_ENOTFOUND;
}

// A write stream into memory (libgit2 would otherwise buffer the whole object in a stream of its
// own and then hand it to MemoryWrite: two copies of a large blob instead of one).
struct WriteStream {
  git_odb_stream parent;  // first: libgit2 hands this pointer back
  git_object_t type;
  std::string* data;
};

int WriteStreamWrite(git_odb_stream* stream, const char* buffer, size_t len) {
  reinterpret_cast<WriteStream*>(stream)->data->append(buffer, len);
  return 0;
}

int WriteStreamFinalize(git_odb_stream* stream, const git_oid* id) {
  auto* self = reinterpret_cast<WriteStream*>(stream);
  HeldOf(stream->backend).Add(*id, self->type, std::move(*self->data));
  return 0;
}

void WriteStreamFree(git_odb_stream* stream) {
  auto* self = reinterpret_cast<WriteStream*>(stream);
  delete self->data;
  delete self;
}

int MemoryWriteStream(git_odb_stream** out, git_odb_backend* b, git_object_size_t size,
                      git_object_t type) {
  auto* stream = new WriteStream{};
  stream->parent.backend = b;
  stream->parent.mode = GIT_STREAM_WRONLY;
  stream->parent.write = WriteStreamWrite;
  stream->parent.finalize_write = WriteStreamFinalize;
  stream->parent.free = WriteStreamFree;
  stream->type = type;
  stream->data = new std::string();
  stream->data->reserve(static_cast<size_t>(size));
  *out = &stream->parent;
  return 0;
}

// A read stream over a held object (store/git/object_reader.h BlobStream reads large blobs so).
struct ReadStream {
  git_odb_stream parent;  // first: libgit2 hands this pointer back
  const std::string* data;
  size_t at;
};

int ReadStreamRead(git_odb_stream* stream, char* buffer, size_t len) {
  auto* self = reinterpret_cast<ReadStream*>(stream);
  size_t n = std::min(len, self->data->size() - self->at);
  if (n > (1u << 30)) n = 1u << 30;
  if (n > 0) std::memcpy(buffer, self->data->data() + self->at, n);
  self->at += n;
  return static_cast<int>(n);
}

void ReadStreamFree(git_odb_stream* stream) { delete reinterpret_cast<ReadStream*>(stream); }

int MemoryReadStream(git_odb_stream** out, size_t* len, git_object_t* type, git_odb_backend* b,
                     const git_oid* id) {
  const HeldObject* object = HeldOf(b).Find(id);
  if (object == nullptr) return GIT_ENOTFOUND;
  // git_odb_stream_free cleans up and frees a read stream's hash context, which libgit2's own
  // backends allocate (the type is libgit2's private one). A zeroed block from libgit2's allocator
  // is a context of no algorithm: cleaning it up does nothing, and freeing it is libgit2's free.
  constexpr size_t kHashContextBytes = 4096;  // larger than libgit2 1.5's git_hash_ctx
  void* hash_context = git_odb_backend_data_alloc(b, kHashContextBytes);
  if (hash_context == nullptr) return -1;
  std::memset(hash_context, 0, kHashContextBytes);
  auto* stream = new ReadStream{};
  stream->parent.backend = b;
  stream->parent.hash_ctx = hash_context;
  stream->parent.mode = GIT_STREAM_RDONLY;
  stream->parent.read = ReadStreamRead;
  stream->parent.free = ReadStreamFree;
  stream->data = &object->data;
  stream->at = 0;
  *len = object->data.size();
  *type = object->type;
  *out = &stream->parent;
  return 0;
}

void MemoryFree(git_odb_backend* b) {
  auto* self = reinterpret_cast<MemoryWrites::Backend*>(b);
  delete self->held;
  delete self;
}

Status GitFailure(const std::string& what) {
  return Status(Code::kInternal, what + ": " + LastGitError());
}

}  // namespace

MemoryWrites::MemoryWrites(git_repository* repo, OdbPtr real, Backend* memory)
    : repo_(repo), real_(std::move(real)), memory_(memory) {}

Result<std::unique_ptr<MemoryWrites>> MemoryWrites::Divert(git_repository* repo) {
  GENTLE_ASSIGN_OR_RETURN(OdbPtr real, RepositoryOdb(repo));
  git_odb* overlay_raw = nullptr;
  if (git_odb_new(&overlay_raw) != 0) return GitFailure("cannot make an object database");
  OdbPtr overlay(overlay_raw);

  auto* memory = new Backend{};
  git_odb_init_backend(&memory->parent, GIT_ODB_BACKEND_VERSION);
  memory->held = new Held();
  memory->parent.read = MemoryRead;
  memory->parent.read_header = MemoryReadHeader;
  memory->parent.write = MemoryWrite;
  memory->parent.writestream = MemoryWriteStream;
  memory->parent.readstream = MemoryReadStream;
  memory->parent.exists = MemoryExists;
  memory->parent.freshen = MemoryFreshen;
  memory->parent.free = MemoryFree;
  if (git_odb_add_backend(overlay.get(), &memory->parent, 2) != 0) {
    MemoryFree(&memory->parent);
    return GitFailure("cannot hold objects in memory");
  }
  // The real database's guard, after the objects in memory: a loose file is refused or found by
  // path (a large blob read from its file, store/git/object_file_stream.h) as through the real one.
  GENTLE_RETURN_IF_ERROR(GuardOverlay(overlay.get(), real.get()));
  // The read-through backend holds a reference of its own, freed with it.
  GENTLE_ASSIGN_OR_RETURN(OdbPtr through_ref, RepositoryOdb(repo));
  auto* through = new ReadThrough{};
  git_odb_init_backend(&through->parent, GIT_ODB_BACKEND_VERSION);
  through->parent.read = ReadThroughRead;
  through->parent.read_prefix = ReadThroughReadPrefix;
  through->parent.read_header = ReadThroughReadHeader;
  through->parent.readstream = ReadThroughReadStream;
  through->parent.exists = ReadThroughExists;
  through->parent.exists_prefix = ReadThroughExistsPrefix;
  through->parent.refresh = ReadThroughRefresh;
  through->parent.freshen = ReadThroughFreshen;
  through->parent.free = ReadThroughFree;
  through->held = memory->held;
  through->real = through_ref.release();
  if (git_odb_add_backend(overlay.get(), &through->parent, 1) != 0) {
    ReadThroughFree(&through->parent);
    return GitFailure("cannot read through the object database");
  }

  if (git_repository_set_odb(repo, overlay.get()) != 0) {
    return GitFailure("cannot divert object writes");
  }
  return std::unique_ptr<MemoryWrites>(new MemoryWrites(repo, std::move(real), memory));
}

void MemoryWrites::Restore() {
  if (restored_) return;
  restored_ = true;
  git_repository_set_odb(repo_, real_.get());
}

MemoryWrites::~MemoryWrites() { Restore(); }

// Into the overlay, as the tree writer writes a tree (the same checks and messages).
Status MemoryWrites::Keep(const git_oid& id, git_object_t type, std::string_view data) {
  if (restored_) return Status(Code::kInternal, "memory writes used after they ended");
  GENTLE_ASSIGN_OR_RETURN(OdbPtr overlay, RepositoryOdb(repo_));
  git_oid written;
  if (git_odb_write(&written, overlay.get(), data.data(), data.size(), type) != 0) {
    return Status(Code::kInternal, "cannot write tree: " + LastGitError());
  }
  if (!git_oid_equal(&written, &id)) {
    return Status(Code::kInternal,
                  "tree written as " + OidHex(written) + ", hashed as " + OidHex(id));
  }
  return Status::Ok();
}

Result<git_oid> MemoryWrites::WorkdirBlob(const std::string& path) {
  if (restored_) return Status(Code::kInternal, "memory writes used after they ended");
  git_oid oid;
  if (git_blob_create_from_workdir(&oid, repo_, path.c_str()) != 0) {
    return Status(Code::kInternal, "cannot hash " + path + ": " + LastGitError());
  }
  return oid;
}

Result<git_oid> MemoryWrites::Blob(std::string_view data) {
  if (restored_) return Status(Code::kInternal, "memory writes used after they ended");
  git_oid oid;
  if (git_blob_create_from_buffer(&oid, repo_, data.data(), data.size()) != 0) {
    return Status(Code::kInternal, "cannot hold a blob: " + LastGitError());
  }
  return oid;
}

Result<git_oid> MemoryWrites::Tree(const TreeRows& rows, const TreeIds* reachable,
                                   TreeObjects* made) {
  const TreeEmit keep = [this](const git_oid& id, const std::string& data) {
    return Keep(id, GIT_OBJECT_TREE, data);
  };
  return HashTree(rows, made, reachable, keep);
}

}  // namespace gentle::store::git
