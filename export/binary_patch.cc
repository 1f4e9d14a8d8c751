#include "export/binary_patch.h"

#include <optional>

#include "export/base85.h"
#include "export/file_section.h"
#include "export/git_delta.h"
#include "export/zlib_deflate.h"

namespace gentle::exporter {
namespace {

constexpr int kGitLooseCompression = 1;

// Appends the delta hunk that rebuilds `target` from `source` when git would choose it: its level-1
// stream strictly shorter than the literal's `literal_zlib_size` bytes. Returns whether it did.
Result<bool> AppendDeltaHunk(std::string_view source, std::string_view target,
                             uint64_t literal_zlib_size, std::string* out) {
  if (source.empty() || target.empty()) return false;
  std::optional<std::string> delta =
      CreateGitDelta(source, target, static_cast<size_t>(literal_zlib_size));
  if (!delta) return false;
  GENTLE_ASSIGN_OR_RETURN(std::string packed, DeflateZlib(*delta, kGitLooseCompression));
  if (packed.size() >= literal_zlib_size) return false;
  out->append("delta ").append(std::to_string(delta->size())).push_back('\n');
  AppendBase85Lines(packed, out);
  out->push_back('\n');
  return true;
}

// One hunk that rebuilds `target` from `source`; kBudgetExceeded when `out` would pass max_bytes.
Status AppendHunk(std::string_view source, std::string_view target, size_t max_bytes,
                  std::string* out) {
  if (target.size() < kCountFirstMinBytes) {
    GENTLE_ASSIGN_OR_RETURN(std::string literal, DeflateZlib(target, kGitLooseCompression));
    GENTLE_ASSIGN_OR_RETURN(bool delta, AppendDeltaHunk(source, target, literal.size(), out));
    if (!delta) AppendLiteralHunk(target.size(), literal, out);
    return Status::Ok();
  }
  // A large side: its literal's size first, without holding the literal.
  ZlibStreamDeflater counter(kGitLooseCompression, /*keep_output=*/false);
  GENTLE_RETURN_IF_ERROR(counter.Append(target));
  GENTLE_RETURN_IF_ERROR(counter.Finish());
  GENTLE_ASSIGN_OR_RETURN(bool delta, AppendDeltaHunk(source, target, counter.size(), out));
  if (delta) return Status::Ok();
  if (out->size() > max_bytes ||
      LiteralHunkSize(target.size(), counter.size()) > max_bytes - out->size()) {
    return BudgetExceeded(max_bytes);
  }
  GENTLE_ASSIGN_OR_RETURN(std::string literal, DeflateZlib(target, kGitLooseCompression));
  AppendLiteralHunk(target.size(), literal, out);
  return Status::Ok();
}

}  // namespace

void AppendLiteralHunk(uint64_t size, std::string_view zlib, std::string* out) {
  out->append("literal ").append(std::to_string(size)).push_back('\n');
  AppendBase85Lines(zlib, out);
  out->push_back('\n');
}

uint64_t LiteralHunkSize(uint64_t size, uint64_t zlib_bytes) {
  return std::string_view("literal ").size() + std::to_string(size).size() + 1 +
         Base85LinesSize(zlib_bytes) + 1;
}

Status AppendBinaryPatch(std::string_view old_data, std::string_view new_data, std::string* out,
                         size_t max_bytes) {
  // The hunks' budget: what is left of max_bytes after `out`.
  if (out->size() > max_bytes) return BudgetExceeded(max_bytes);
  const size_t left = max_bytes - out->size();
  std::string section = "GIT binary patch\n";
  GENTLE_RETURN_IF_ERROR(AppendHunk(old_data, new_data, left, &section));
  GENTLE_RETURN_IF_ERROR(AppendHunk(new_data, old_data, left, &section));
  out->append(section);
  return Status::Ok();
}

bool BinaryPatchIsGitIdenticalFor(std::string_view old_data, std::string_view new_data) {
  return DeltaIsGitIdenticalFor(old_data, new_data) && DeltaIsGitIdenticalFor(new_data, old_data);
}

}  // namespace gentle::exporter
