// DamageLooseBlobTail: rewrites the loose object of blob `hex` under `git_dir` as a valid zlib
// stream of its header and of `content` with every byte from `from` (a fraction of the content) on
// inverted. The header and the bytes before `from` read as before; a whole read of the object is
// refused, since its bytes no longer hash to its id. A test that still gets its answer proves the
// object was not read whole.
#ifndef GENTLE_TESTS_SUPPORT_DAMAGED_OBJECT_H_
#define GENTLE_TESTS_SUPPORT_DAMAGED_OBJECT_H_

#include <string>

namespace gentle::testing {

void DamageLooseBlobTail(const std::string& git_dir, const std::string& hex,
                         const std::string& content, double from);

}  // namespace gentle::testing

#endif  // GENTLE_TESTS_SUPPORT_DAMAGED_OBJECT_H_
