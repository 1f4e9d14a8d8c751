#include "export/binary_patch.h"

#include "export/base85.h"
#include "export/git_delta.h"
#include "export/zlib_deflate.h"

namespace gentle::exporter {
namespace {

constexpr int kGitLooseCompression = 1;

// One hunk that rebuilds `target` from `source`.
Status AppendHunk(std::string_view source, std::string_view target, std::string* out) {
  GENTLE_ASSIGN_OR_RETURN(std::string literal, DeflateZlib(target, kGitLooseCompression));
  if (!source.empty() && !target.empty()) {
    std::optional<std::string> delta = CreateGitDelta(source, target, literal.size());
    if (delta) {
      GENTLE_ASSIGN_OR_RETURN(std::string packed, DeflateZlib(*delta, kGitLooseCompression));
      if (packed.size() < literal.size()) {
        out->append("delta ").append(std::to_string(delta->size())).push_back('\n');
        AppendBase85Lines(packed, out);
        out->push_back('\n');
        return Status::Ok();
      }
    }
  }
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

Status AppendBinaryPatch(std::string_view old_data, std::string_view new_data, std::string* out) {
  std::string section = "GIT binary patch\n";
  GENTLE_RETURN_IF_ERROR(AppendHunk(old_data, new_data, &section));
  GENTLE_RETURN_IF_ERROR(AppendHunk(new_data, old_data, &section));
  out->append(section);
  return Status::Ok();
}

bool BinaryPatchIsGitIdenticalFor(std::string_view old_data, std::string_view new_data) {
  return DeltaIsGitIdenticalFor(old_data, new_data) && DeltaIsGitIdenticalFor(new_data, old_data);
}

}  // namespace gentle::exporter
