// OutputPages: the pages of a patch buffer that are about to be written, mapped in one system call.
//
// The engine holds the whole patch in one std::string reserved up front (export/patch_engine.cc)
// and writes it front to back. Each page of that reserve takes a page fault on its first write:
// 482 of them for a 1.9 MB patch, the largest single cost of appending it (docs/performance.md,
// "The record without a DOM, the configuration read, the large export"). Linux's
// MADV_POPULATE_WRITE (5.14 and later) maps a range of pages writable as the writes would,
// without a fault per page, and changes no byte; on a kernel without it nothing happens and the
// faults are taken as before.
//
// Only pages about to be written are mapped, so the resident set grows no further than the writes
// themselves make it grow (AppendWillWrite), or by at most kPagesAheadBytes beyond them
// (PagesAhead, for a writer that does not know its length beforehand).
//
// Thread-safety: the string is the caller's; no state is shared.
#ifndef GENTLE_EXPORT_OUTPUT_PAGES_H_
#define GENTLE_EXPORT_OUTPUT_PAGES_H_

#include <cstddef>
#include <string>

namespace gentle::exporter {

// Maps the pages of `out`'s capacity that growing it from its size to `new_size` writes. Nothing
// when new_size is beyond the capacity (the append reallocates) or within the page already holding
// its end.
void AppendWillWrite(std::string* out, size_t new_size);

// How far ahead of its end PagesAhead maps `out`'s pages.
inline constexpr size_t kPagesAheadBytes = size_t{32} << 10;
// PagesAhead maps pages only in a buffer with at least this much reserved beyond its end (the
// patch's, export/patch_engine.cc): a buffer grown as it is written is copied into its new pages
// when it grows, and a section buffer used again has its pages mapped already.
inline constexpr size_t kPagesAheadMinReserve = size_t{1} << 20;

// For a writer appending small pieces of unknown total to `out`: before each append, maps the next
// kPagesAheadBytes of its capacity (at most) once the append would pass what is mapped.
class PagesAhead {
 public:
  explicit PagesAhead(std::string* out)
      : out_(out),
        mapped_(out->size()),
        active_(out->capacity() - out->size() >= kPagesAheadMinReserve) {}

  void BeforeAppend(size_t bytes) {
    if (active_ && out_->size() + bytes > mapped_) Advance(bytes);
  }

 private:
  void Advance(size_t bytes);

  std::string* out_;
  size_t mapped_;  // bytes of out_ from its start whose pages are mapped
  bool active_;
};

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_OUTPUT_PAGES_H_
