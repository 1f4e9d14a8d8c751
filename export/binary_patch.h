// git's `GIT binary patch` section for one file, as printed by `git diff --binary` with
// core.loosecompression=1.
//
// Contract: AppendBinaryPatch appends exactly
//   "GIT binary patch\n" <forward hunk> <reverse hunk>
// where the forward hunk rebuilds new_data from old_data and the reverse hunk rebuilds old_data
// from new_data. Each hunk is
//   "literal <size of the side being rebuilt>\n"  or  "delta <size of the raw delta>\n"
//   base85 lines of the zlib stream (base85.h: 52 bytes per line, length char first)
//   "\n"
// The literal payload is the level-1 zlib stream of the whole side being rebuilt (an empty side
// gives "literal 0\nHcmV?d00001\n\n"). A delta is only attempted when both sides are non-empty,
// with its raw size capped at the size of that literal zlib stream, and is chosen only when its
// level-1 zlib stream is strictly shorter than the literal's. Decimal sizes have no padding.
// Headers before the section
// ("diff --git", "index", mode lines) are not written here. On error nothing is appended.
#ifndef GENTLE_EXPORT_BINARY_PATCH_H_
#define GENTLE_EXPORT_BINARY_PATCH_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "store/status.h"

namespace gentle::exporter {

// kBudgetExceeded (nothing appended) once `out` would pass max_bytes. A side of at least
// kCountFirstMinBytes is deflated twice at most instead of held twice: its literal is counted
// first (the delta's cap), and made only when the delta does not win and it fits.
inline constexpr size_t kCountFirstMinBytes = size_t{64} << 20;
Status AppendBinaryPatch(std::string_view old_data, std::string_view new_data, std::string* out,
                         size_t max_bytes = SIZE_MAX);

// One literal hunk: "literal <size>\n", the base85 lines of `zlib` (the level-1 zlib stream of the
// `size` bytes it rebuilds), "\n".
void AppendLiteralHunk(uint64_t size, std::string_view zlib, std::string* out);

// The number of bytes AppendLiteralHunk appends for a zlib stream of `zlib_bytes` bytes; never
// decreases as zlib_bytes grows.
uint64_t LiteralHunkSize(uint64_t size, uint64_t zlib_bytes);

// False when a delta for either direction might differ from git's (DeltaIsGitIdenticalFor in
// git_delta.h: only sides of 4 GiB or more); such a file should be rendered by the git CLI instead.
bool BinaryPatchIsGitIdenticalFor(std::string_view old_data, std::string_view new_data);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_BINARY_PATCH_H_
