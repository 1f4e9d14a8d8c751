#include "store/git/verified_view.h"

#include <git2/sys/odb_backend.h>
#include <git2/sys/repository.h>

#include <cstring>
#include <string>

#include "store/git/git_util.h"
#include "store/git/object_reader.h"

namespace gentle::store::git {
namespace {

struct CheckingBackend {
  git_odb_backend parent;  // first: libgit2 passes &parent back to the callbacks
  git_odb* inner;
};

git_odb* Inner(git_odb_backend* backend) {
  return reinterpret_cast<CheckingBackend*>(backend)->inner;
}

// Checks `object` against `id` and hands libgit2 a copy of its data.
int HandOut(git_odb_backend* backend, const git_oid& id, git_odb_object* object, void** buffer,
            size_t* length, git_object_t* type) {
  const size_t size = git_odb_object_size(object);
  const git_object_t object_type = git_odb_object_type(object);
  const char* data = static_cast<const char*>(git_odb_object_data(object));
  if (!ObjectHashMatches(id, object_type, std::string_view(data, size))) {
    git_odb_object_free(object);
    const std::string message =
        "object " + OidHex(id) + " does not hash to its id (replaced or corrupted)";
    git_error_set_str(GIT_ERROR_ODB, message.c_str());
    return GIT_EMISMATCH;
  }
  void* copy = git_odb_backend_data_alloc(backend, size + 1);
  if (copy == nullptr) {
    git_odb_object_free(object);
    return -1;
  }
  std::memcpy(copy, data, size);
  git_odb_object_free(object);
  *buffer = copy;
  *length = size;
  *type = object_type;
  return 0;
}

int Read(void** buffer, size_t* length, git_object_t* type, git_odb_backend* backend,
         const git_oid* id) {
  git_odb_object* object = nullptr;
  if (int rc = git_odb_read(&object, Inner(backend), id); rc != 0) return rc;
  return HandOut(backend, *id, object, buffer, length, type);
}

int ReadPrefix(git_oid* full, void** buffer, size_t* length, git_object_t* type,
               git_odb_backend* backend, const git_oid* prefix, size_t prefix_length) {
  git_odb_object* object = nullptr;
  if (int rc = git_odb_read_prefix(&object, Inner(backend), prefix, prefix_length); rc != 0) {
    return rc;
  }
  git_oid_cpy(full, git_odb_object_id(object));
  return HandOut(backend, *full, object, buffer, length, type);
}

int ReadHeader(size_t* length, git_object_t* type, git_odb_backend* backend, const git_oid* id) {
  return git_odb_read_header(length, type, Inner(backend), id);
}

int Exists(git_odb_backend* backend, const git_oid* id) {
  return git_odb_exists(Inner(backend), id);
}

int ExistsPrefix(git_oid* full, git_odb_backend* backend, const git_oid* prefix,
                 size_t prefix_length) {
  return git_odb_exists_prefix(full, Inner(backend), prefix, prefix_length);
}

int Refresh(git_odb_backend* backend) { return git_odb_refresh(Inner(backend)); }

void Free(git_odb_backend* backend) {
  auto* self = reinterpret_cast<CheckingBackend*>(backend);
  git_odb_free(self->inner);
  delete self;
}

Status ViewError(const std::string& what) {
  return Status(Code::kInternal,
                "cannot open a checked view of the repository (" + what + "): " + LastGitError());
}

}  // namespace

Result<RepositoryPtr> OpenVerifiedView(git_repository* repo) {
  git_odb* inner = nullptr;
  if (git_repository_odb(&inner, repo) != 0) return ViewError("object database");
  auto* backend = new CheckingBackend{};
  if (git_odb_init_backend(&backend->parent, GIT_ODB_BACKEND_VERSION) != 0) {
    git_odb_free(inner);
    delete backend;
    return ViewError("backend");
  }
  backend->inner = inner;
  backend->parent.read = Read;
  backend->parent.read_prefix = ReadPrefix;
  backend->parent.read_header = ReadHeader;
  backend->parent.exists = Exists;
  backend->parent.exists_prefix = ExistsPrefix;
  backend->parent.refresh = Refresh;
  backend->parent.free = Free;

  git_odb* odb = nullptr;
  if (git_odb_new(&odb) != 0) {
    Free(&backend->parent);
    return ViewError("object database");
  }
  OdbPtr odb_owner(odb);
  if (git_odb_add_backend(odb, &backend->parent, 1) != 0) {
    Free(&backend->parent);
    return ViewError("backend");
  }
  git_repository* view = nullptr;
  if (git_repository_open_ext(&view, git_repository_path(repo), GIT_REPOSITORY_OPEN_NO_SEARCH,
                              nullptr) != 0) {
    return ViewError("open");
  }
  RepositoryPtr owned(view);
  if (git_repository_set_odb(view, odb) != 0) return ViewError("set object database");
  return owned;
}

}  // namespace gentle::store::git
