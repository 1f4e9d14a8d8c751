// FuzzWorktreeIndex: see fuzz/entries.h. The input is an index file without its trailing SHA-1,
// which is appended here so that inputs reach the parser instead of the checksum; libgit2's own
// loader is the reference for what an accepted file holds.
#define OPENSSL_API_COMPAT 0x10100000L
#include <git2.h>
#include <openssl/sha.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "fuzz/entries.h"
#include "store/git/worktree_index.h"

namespace gentle::fuzz {
namespace {

// One scratch file per process, rewritten for every input.
const std::string& ScratchIndexPath() {
  static const std::string path = [] {
    char dir[] = "/tmp/gentle-fuzz-index-XXXXXX";
    const char* made = mkdtemp(dir);
    return std::string(made != nullptr ? made : "/tmp") + "/index";
  }();
  return path;
}

bool WriteWhole(const std::string& path, const std::string& bytes) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return false;
  const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  return std::fclose(f) == 0 && ok;
}

// The cache-tree's structure as the header promises it: the root "" first at most once, every
// other path non-empty components each followed by '/'.
std::string CheckCacheTree(const store::git::WorktreeIndex& index) {
  for (const store::git::CacheTreeDir& dir : index.cache_tree) {
    if (dir.path.empty()) continue;
    if (dir.path.back() != '/' || dir.path.front() == '/') return "a cache-tree path out of shape";
    if (dir.path.find("//") != std::string::npos) return "a cache-tree path with an empty part";
  }
  return "";
}

}  // namespace

std::string FuzzWorktreeIndex(std::string_view data) {
  std::string bytes(data);
  unsigned char digest[SHA_DIGEST_LENGTH];
  SHA1(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), digest);
  bytes.append(reinterpret_cast<const char*>(digest), sizeof(digest));
  const std::string& path = ScratchIndexPath();
  if (!WriteWhole(path, bytes)) return "";  // no scratch file to be had: nothing to check
  const std::optional<store::git::WorktreeIndex> ours = store::git::ReadWorktreeIndex(path);
  if (!ours) return "";  // declined: libgit2 decides
  if (std::string broken = CheckCacheTree(*ours); !broken.empty()) return broken;
  git_libgit2_init();
  git_index* index = nullptr;
  std::string verdict;
  if (git_index_open(&index, path.c_str()) != 0) {
    verdict = "accepted an index libgit2 refuses";
  } else if (git_index_entrycount(index) != ours->entries.size()) {
    verdict = "a different number of entries from libgit2's";
  } else {
    for (size_t i = 0; i < ours->entries.size(); ++i) {
      const git_index_entry* e = git_index_get_byindex(index, i);
      if (ours->entries[i].path != e->path || ours->entries[i].mode != e->mode ||
          !git_oid_equal(&ours->entries[i].id, &e->id)) {
        verdict = "an entry that differs from libgit2's";
        break;
      }
    }
  }
  git_index_free(index);
  git_libgit2_shutdown();
  return verdict;
}

}  // namespace gentle::fuzz
