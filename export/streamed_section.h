// StreamedSection: one file's section, exactly as AppendFileSection writes it, when one side has
// content and the other has none (added, deleted, emptied or filled) and that content is read as a
// stream (store::git::BlobStream) instead of whole, so that memory stays near the budget whatever
// the blob's size:
//   - the first kFirstFewBytes decide text or binary (git's test, export/file_section.h);
//   - a text side prints every line, so one larger than what is left of the budget is refused
//     there, unread; one that fits is read whole (at most the budget) and diffed as usual;
//   - a binary side's literal hunk is deflated as it is read (export/zlib_deflate.h), and the
//     section is refused as soon as the deflated bytes so far no longer fit.
// The stream's bytes are hash-checked once all are read (objects_missing otherwise); a section
// refused before that was refused on unchecked bytes, which can only turn one refusal into
// another (store/git/object_reader.h).
#ifndef GENTLE_EXPORT_STREAMED_SECTION_H_
#define GENTLE_EXPORT_STREAMED_SECTION_H_

#include <string>
#include <string_view>

#include "export/file_section.h"
#include "store/git/object_reader.h"
#include "store/status.h"

namespace gentle::exporter {

// `stream` holds the content of new_side when `stream_is_new`, else of old_side; the other side is
// absent or empty (its `content` is empty). Appends to `out`, which stays within max_bytes.
Status AppendStreamedSection(std::string_view path, const FileSide& old_side,
                             const FileSide& new_side, store::git::BlobStream* stream,
                             bool stream_is_new, size_t max_bytes, std::string* out);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_STREAMED_SECTION_H_
