// Git utilities every file of store/git/ may need, and nothing else, so that none of them has to
// include another for these:
//
// GitPtr (and RepositoryPtr): an owned libgit2 object, freed by its libgit2 free function when the
// pointer goes.
//
//   using IndexPtr = GitPtr<git_index, git_index_free>;
//
// One idiom for every owned handle (repositories, object databases, objects, blobs, indexes)
// instead of a deleter struct per type.
#ifndef GENTLE_STORE_GIT_GIT_UTIL_H_
#define GENTLE_STORE_GIT_GIT_UTIL_H_

#include <git2.h>

#include <memory>
#include <string>

#include "store/status.h"

namespace gentle::store::git {

template <typename T, void (*Free)(T*)>
struct GitFree {
  void operator()(T* object) const { Free(object); }
};

template <typename T, void (*Free)(T*)>
using GitPtr = std::unique_ptr<T, GitFree<T, Free>>;

// An owned libgit2 repository handle.
using RepositoryPtr = GitPtr<git_repository, git_repository_free>;

// The last libgit2 error as text ("unknown error" when none is set).
std::string LastGitError();

// The 40 lowercase hex digits of `oid`.
std::string OidHex(const git_oid& oid);

// The id that 40 lowercase or uppercase hex digits name; kCorrupted for anything else.
Result<git_oid> ParseOidHex(const std::string& hex);

}  // namespace gentle::store::git

#endif  // GENTLE_STORE_GIT_GIT_UTIL_H_
