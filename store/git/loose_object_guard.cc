#include "store/git/loose_object_guard.h"

#include <dirent.h>
#include <git2/sys/odb_backend.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "store/git/git_file_check.h"
#include "store/git/git_util.h"

namespace gentle::store::git {
namespace {

constexpr int kMaxAlternatesDepth = 5;                    // libgit2's GIT_ALTERNATES_MAX_DEPTH
constexpr std::streamsize kMaxAlternatesBytes = 1 << 20;  // a list of directory names

struct GuardBackend {
  git_odb_backend parent;  // first: libgit2 passes &parent back to the callbacks
  std::vector<std::string> object_dirs;
};

const GuardBackend& Self(const git_odb_backend* backend) {
  return *reinterpret_cast<const GuardBackend*>(backend);
}

// Every loose path of `id` (or, for a prefix of `hex_length` < 40 digits, of every loose object
// whose name starts with it) in the guard's object directories, checked.
Status CheckPaths(const GuardBackend& guard, const git_oid& id, size_t hex_length) {
  char hex[GIT_OID_HEXSZ + 1];
  git_oid_tostr(hex, sizeof(hex), &id);
  const std::string fanout(hex, 2);
  const std::string rest(hex + 2, hex_length > 2 ? hex_length - 2 : 0);
  for (const std::string& dir : guard.object_dirs) {
    const std::string fanout_dir = dir + "/" + fanout;
    if (hex_length == GIT_OID_HEXSZ) {
      GENTLE_RETURN_IF_ERROR(CheckGitFile(fanout_dir + "/" + rest));
      continue;
    }
    DIR* handle = opendir(fanout_dir.c_str());
    if (handle == nullptr) continue;
    Status status;
    while (const dirent* entry = readdir(handle)) {
      if (std::strncmp(entry->d_name, rest.c_str(), rest.size()) != 0) continue;
      status = CheckGitFile(fanout_dir + "/" + entry->d_name);
      if (!status.ok()) break;
    }
    closedir(handle);
    GENTLE_RETURN_IF_ERROR(status);
  }
  return Status::Ok();
}

// GIT_ENOTFOUND (libgit2 asks the next backend) when the paths are fine, else GIT_EINVALID with
// the refusal as libgit2's error message.
int Verdict(const git_odb_backend* backend, const git_oid& id, size_t hex_length) {
  Status status = CheckPaths(Self(backend), id, hex_length);
  if (status.ok()) return GIT_ENOTFOUND;
  git_error_set_str(GIT_ERROR_ODB, status.message().c_str());
  return GIT_EINVALID;
}

int Read(void**, size_t*, git_object_t*, git_odb_backend* backend, const git_oid* id) {
  return Verdict(backend, *id, GIT_OID_HEXSZ);
}

int ReadPrefix(git_oid*, void**, size_t*, git_object_t*, git_odb_backend* backend,
               const git_oid* prefix, size_t length) {
  return Verdict(backend, *prefix, length);
}

int ReadHeader(size_t*, git_object_t*, git_odb_backend* backend, const git_oid* id) {
  return Verdict(backend, *id, GIT_OID_HEXSZ);
}

void Free(git_odb_backend* backend) { delete reinterpret_cast<GuardBackend*>(backend); }

// The files libgit2's pack backend opens with a blocking open(2) when it loads an object
// directory (the multi-pack-index) or reads a pack (its .idx; a .pack that is not a regular file
// is skipped by libgit2, so its objects would look missing): each as CheckGitFile. Also the
// commit-graph, which libgit2 opens when core.commitGraph is set.
Status CheckPackFiles(const std::string& objects_dir) {
  GENTLE_RETURN_IF_ERROR(CheckGitFile(objects_dir + "/info/commit-graph"));
  const std::string pack_dir = objects_dir + "/pack";
  GENTLE_RETURN_IF_ERROR(CheckGitFile(pack_dir + "/multi-pack-index"));
  DIR* handle = opendir(pack_dir.c_str());
  if (handle == nullptr) return Status::Ok();
  Status status;
  while (const dirent* entry = readdir(handle)) {
    const std::string_view name = entry->d_name;
    const bool pack_file = (name.size() > 4 && name.substr(name.size() - 4) == ".idx") ||
                           (name.size() > 5 && name.substr(name.size() - 5) == ".pack");
    if (!pack_file) continue;
    status = CheckGitFile(pack_dir + "/" + std::string(name));
    if (!status.ok()) break;
  }
  closedir(handle);
  return status;
}

// `objects_dir` and the directories its info/alternates names, depth first, as libgit2 loads
// them: blank and '#' lines skipped, a relative entry ('.' first) only in the repository's own
// file, at most kMaxAlternatesDepth levels.
Status CollectObjectDirs(const std::string& objects_dir, int depth, std::vector<std::string>* out) {
  if (depth > kMaxAlternatesDepth) return Status::Ok();
  out->push_back(objects_dir);
  GENTLE_RETURN_IF_ERROR(CheckPackFiles(objects_dir));
  const std::string alternates = objects_dir + "/info/alternates";
  GENTLE_RETURN_IF_ERROR(CheckGitFile(alternates));
  struct stat st;
  if (stat(alternates.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return Status::Ok();
  // The buffer is the file's size (a list of a few directory names), not the bound: a 1 MiB
  // buffer zeroed for every repository with alternates was 40% of a small export's instructions.
  const std::streamsize want = std::min<std::streamsize>(st.st_size, kMaxAlternatesBytes);
  std::ifstream in(alternates, std::ios::binary);
  std::string text(static_cast<size_t>(want), '\0');
  in.read(text.data(), want);
  text.resize(static_cast<size_t>(in.gcount()));
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find_first_of("\r\n", at);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(at, end - at);
    at = end + 1;
    if (line.empty() || line[0] == '#') continue;
    if (line[0] == '.' && depth == 0) line = objects_dir + "/" + line;
    GENTLE_RETURN_IF_ERROR(CollectObjectDirs(line, depth + 1, out));
  }
  return Status::Ok();
}

// The guard among `odb`'s backends, or null.
const GuardBackend* FindGuard(git_odb* odb) {
  const size_t count = git_odb_num_backends(odb);
  for (size_t i = 0; i < count; ++i) {
    git_odb_backend* backend = nullptr;
    if (git_odb_get_backend(&backend, odb, i) == 0 && backend->read == Read) return &Self(backend);
  }
  return nullptr;
}

// A new guard backend reading `object_dirs`, or null when libgit2 refuses to initialise it.
GuardBackend* NewGuard(std::vector<std::string> object_dirs) {
  auto* guard = new GuardBackend{};
  guard->object_dirs = std::move(object_dirs);
  if (git_odb_init_backend(&guard->parent, GIT_ODB_BACKEND_VERSION) != 0) {
    delete guard;
    return nullptr;
  }
  guard->parent.read = Read;
  guard->parent.read_prefix = ReadPrefix;
  guard->parent.read_header = ReadHeader;
  guard->parent.free = Free;
  return guard;
}

}  // namespace

Status GuardLooseObjects(git_repository* repo) {
  git_buf objects = GIT_BUF_INIT;
  if (git_repository_item_path(&objects, repo, GIT_REPOSITORY_ITEM_OBJECTS) != 0) {
    return Status(Code::kInternal, "cannot locate the object directory: " + LastGitError());
  }
  std::string objects_dir(objects.ptr, objects.size);
  git_buf_dispose(&objects);
  while (objects_dir.size() > 1 && objects_dir.back() == '/') objects_dir.pop_back();
  std::vector<std::string> object_dirs;
  GENTLE_RETURN_IF_ERROR(CollectObjectDirs(objects_dir, 0, &object_dirs));
  GuardBackend* guard = NewGuard(std::move(object_dirs));
  if (guard == nullptr) {
    return Status(Code::kInternal, "cannot guard the object database: " + LastGitError());
  }
  git_odb* odb = nullptr;
  if (git_repository_odb(&odb, repo) != 0) {
    delete guard;
    return Status(Code::kInternal, "cannot open object database: " + LastGitError());
  }
  const int added = git_odb_add_backend(odb, &guard->parent, kGuardPriority);
  git_odb_free(odb);
  if (added != 0) {
    delete guard;
    return Status(Code::kInternal, "cannot guard the object database: " + LastGitError());
  }
  return Status::Ok();
}

Status GuardOverlay(git_odb* overlay, git_odb* real) {
  const GuardBackend* existing = FindGuard(real);
  if (existing == nullptr) return Status::Ok();
  GuardBackend* guard = NewGuard(existing->object_dirs);
  if (guard == nullptr || git_odb_add_backend(overlay, &guard->parent, kGuardPriority) != 0) {
    delete guard;
    return Status(Code::kInternal, "cannot guard the object database: " + LastGitError());
  }
  return Status::Ok();
}

std::string LooseObjectFile(git_odb* odb, const git_oid& id) {
  const GuardBackend* guard = FindGuard(odb);
  if (guard == nullptr) return "";
  char hex[GIT_OID_HEXSZ + 1];
  git_oid_tostr(hex, sizeof(hex), &id);
  for (const std::string& dir : guard->object_dirs) {
    std::string path = dir + "/" + std::string(hex, 2) + "/" + std::string(hex + 2);
    struct stat st;
    if (lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) return path;
  }
  return "";
}

std::vector<std::string> GuardedObjectDirs(git_odb* odb) {
  const GuardBackend* guard = FindGuard(odb);
  return guard == nullptr ? std::vector<std::string>{} : guard->object_dirs;
}

Status CheckLooseObject(git_odb* odb, const git_oid& id) {
  const GuardBackend* guard = FindGuard(odb);
  if (guard == nullptr) return Status::Ok();
  Status status = CheckPaths(*guard, id, GIT_OID_HEXSZ);
  if (!status.ok()) status.WithDetail(DetailKey::kObject, OidHex(id));
  return status;
}

}  // namespace gentle::store::git
