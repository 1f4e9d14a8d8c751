// AppendBinaryPatch: the body of a `git diff --binary` section for one binary file pair.
//
// Contract (agreed between the patch engine and the binary-patch writer): for old -> new contents,
// appends exactly these bytes, identical to git diff --binary with core.loosecompression=1:
//
//   "GIT binary patch\n"
//   forward hunk:  "literal <n>\n" or "delta <n>\n", base85 lines, then "\n"
//   reverse hunk:  "literal <n>\n" or "delta <n>\n", base85 lines, then "\n"
//
// i.e. from the line "GIT binary patch" through the blank line that ends the reverse hunk. The
// caller writes everything before it (`diff --git`, mode and `index` lines) and nothing after it.
// It is called only when the contents differ and at least one side is binary; either side may be
// empty. On failure `out` may hold a partial append; the caller discards it.
#ifndef GENTLE_EXPORT_BINARY_PATCH_H_
#define GENTLE_EXPORT_BINARY_PATCH_H_

#include <string>
#include <string_view>

#include "store/status.h"

namespace gentle::exporter {

Status AppendBinaryPatch(std::string_view old_data, std::string_view new_data, std::string* out);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_BINARY_PATCH_H_
