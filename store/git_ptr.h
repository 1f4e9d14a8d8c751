// GitPtr: an owned libgit2 object, freed by its libgit2 free function when the pointer goes.
//
//   using IndexPtr = GitPtr<git_index, git_index_free>;
//
// One idiom for every owned handle (repositories, object databases, objects, blobs, indexes)
// instead of a deleter struct per type.
#ifndef GENTLE_STORE_GIT_PTR_H_
#define GENTLE_STORE_GIT_PTR_H_

#include <memory>

namespace gentle::store {

template <typename T, void (*Free)(T*)>
struct GitFree {
  void operator()(T* object) const { Free(object); }
};

template <typename T, void (*Free)(T*)>
using GitPtr = std::unique_ptr<T, GitFree<T, Free>>;

}  // namespace gentle::store

#endif  // GENTLE_STORE_GIT_PTR_H_
