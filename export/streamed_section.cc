#include "export/streamed_section.h"

#include <algorithm>
#include <vector>

#include "export/binary_patch.h"
#include "export/patch_bound.h"
#include "export/zlib_deflate.h"

namespace gentle::exporter {
namespace {

constexpr int kGitLooseCompression = 1;
constexpr size_t kChunkBytes = 64 * 1024;

// The text section: the side read whole (it fits the budget), then diffed as AppendFileSection
// does.
Status AppendText(std::string_view path, FileSide old_side, FileSide new_side,
                  store::git::BlobStream* stream, bool stream_is_new, std::string prefix,
                  size_t max_bytes, std::string* out) {
  std::string content = std::move(prefix);
  const size_t have = content.size();
  content.resize(static_cast<size_t>(stream->size()));
  GENTLE_RETURN_IF_ERROR(stream->Read(content.data() + have, content.size() - have).status());
  GENTLE_RETURN_IF_ERROR(stream->Finish());
  FileSide& side = stream_is_new ? new_side : old_side;
  side.content = content;
  side.blob = nullptr;
  return AppendFileSection(path, old_side, new_side, max_bytes, out);
}

}  // namespace

Status AppendStreamedSection(std::string_view path, const FileSide& old_side,
                             const FileSide& new_side, store::git::BlobStream* stream,
                             bool stream_is_new, size_t max_bytes, std::string* out) {
  const uint64_t size = stream->size();
  std::string prefix(static_cast<size_t>(std::min<uint64_t>(size, kFirstFewBytes)), '\0');
  GENTLE_RETURN_IF_ERROR(stream->Read(prefix.data(), prefix.size()).status());
  if (KindFromPrefix(size, prefix) == ContentKind::kText) {
    // Every line of the side is printed with all its bytes.
    if (out->size() > max_bytes || size > max_bytes - out->size()) {
      return BudgetExceeded(max_bytes);
    }
    return AppendText(path, old_side, new_side, stream, stream_is_new, std::move(prefix), max_bytes,
                      out);
  }

  AppendSectionHeader(path, old_side, new_side, out);
  out->append("GIT binary patch\n");
  // The hunk that rebuilds the empty side.
  GENTLE_ASSIGN_OR_RETURN(std::string empty_zlib, DeflateZlib("", kGitLooseCompression));
  std::string empty_hunk;
  AppendLiteralHunk(0, empty_zlib, &empty_hunk);
  if (!stream_is_new) out->append(empty_hunk);  // forward: old rebuilds the empty new side
  const size_t after = stream_is_new ? empty_hunk.size() : 0;

  ZlibStreamDeflater deflater(kGitLooseCompression);
  auto over = [&] {
    return out->size() + LiteralHunkSize(size, deflater.output().size()) + after > max_bytes;
  };
  GENTLE_RETURN_IF_ERROR(deflater.Append(prefix));
  if (over()) return BudgetExceeded(max_bytes);
  std::vector<char> chunk(kChunkBytes);
  while (stream->consumed() < size) {
    GENTLE_ASSIGN_OR_RETURN(size_t got, stream->Read(chunk.data(), chunk.size()));
    GENTLE_RETURN_IF_ERROR(deflater.Append(std::string_view(chunk.data(), got)));
    if (over()) return BudgetExceeded(max_bytes);
  }
  GENTLE_RETURN_IF_ERROR(stream->Finish());
  GENTLE_RETURN_IF_ERROR(deflater.Finish());
  if (over()) return BudgetExceeded(max_bytes);
  AppendLiteralHunk(size, deflater.output(), out);
  if (stream_is_new) out->append(empty_hunk);  // reverse: new rebuilds the empty old side
  return Status::Ok();
}

}  // namespace gentle::exporter
