#include "export/output_pages.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>

namespace gentle::exporter {
namespace {

uintptr_t PageBytes() {
  static const uintptr_t page = [] {
    const long n = sysconf(_SC_PAGESIZE);
    return n > 0 ? static_cast<uintptr_t>(n) : uintptr_t{4096};
  }();
  return page;
}

uintptr_t PageUp(uintptr_t address) { return (address + PageBytes() - 1) & ~(PageBytes() - 1); }

// Maps the pages holding bytes [from, to) of `out`'s buffer that lie wholly after byte from - 1's
// page: that page is mapped already (it was written, or holds the allocation's header).
void MapPages(const std::string& out, size_t from, size_t to) {
#ifdef MADV_POPULATE_WRITE
  const uintptr_t base = reinterpret_cast<uintptr_t>(out.data());
  const uintptr_t first = PageUp(base + from);
  const uintptr_t last = PageUp(base + to);
  if (last <= first) return;
  // On failure (EINVAL before Linux 5.14) the pages are faulted in as they are written.
  (void)madvise(reinterpret_cast<void*>(first), last - first, MADV_POPULATE_WRITE);
#else
  (void)out;
  (void)from;
  (void)to;
#endif
}

}  // namespace

void AppendWillWrite(std::string* out, size_t new_size) {
  if (new_size <= out->size() || new_size > out->capacity()) return;
  MapPages(*out, out->size(), new_size);
}

void PagesAhead::Advance(size_t bytes) {
  const size_t want = std::max(out_->size() + bytes, mapped_ + kPagesAheadBytes);
  const size_t to = std::min(out_->capacity(), want);
  if (to <= mapped_) return;
  MapPages(*out_, std::max(mapped_, out_->size()), to);
  mapped_ = to;
}

}  // namespace gentle::exporter
