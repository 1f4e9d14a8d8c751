// FileSection: writes one file's `diff --git` section exactly as the pinned git oracle prints it.
//
// A side is absent (mode 0) for additions and deletions. Modes are canonical (see CanonicalMode).
// Content is the blob bytes, or "Subproject commit <hex>\n" for a gitlink. The section is
// appended to `out`; kBudgetExceeded is returned as soon as `out` grows past `max_bytes`.
#ifndef GENTLE_EXPORT_FILE_SECTION_H_
#define GENTLE_EXPORT_FILE_SECTION_H_

#include <git2.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "store/git/tree_rows.h"
#include "store/status.h"

namespace gentle::exporter {

struct FileSide {
  uint32_t mode = 0;  // canonical; 0 when the side is absent
  git_oid oid{};
  std::string_view content;
  const git_blob* blob = nullptr;  // the blob holding `content`, when there is one
};

// git's canon_mode (store/git/tree_rows.h).
using store::git::CanonicalMode;

// A mode as git prints it: six octal digits ("100644", "000000" when absent).
std::string ModeOctal(uint32_t mode);

// git's binary test with no attributes: a NUL in the first kFirstFewBytes bytes, or larger than
// kBigFileThreshold.
inline constexpr size_t kFirstFewBytes = 8000;
inline constexpr uint64_t kBigFileThreshold = 512u * 1024 * 1024;
bool LooksBinary(std::string_view content);

// The refusal every budget check of the engine returns.
Status BudgetExceeded(size_t max_bytes);

// Appends the section's header lines: `diff --git`, the mode lines, and the `index` line when the
// ids differ (an absent side's id is all zeros).
void AppendSectionHeader(std::string_view path, const FileSide& old_side, const FileSide& new_side,
                         std::string* out);

// Appends the section for `path` changing from `old_side` to `new_side` (not both absent).
Status AppendFileSection(std::string_view path, const FileSide& old_side, const FileSide& new_side,
                         size_t max_bytes, std::string* out);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_FILE_SECTION_H_
