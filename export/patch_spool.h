// PatchSpool: the finished front of a large patch, kept in an unlinked temporary file instead of
// the heap until the whole patch is known to be good, then copied to the output.
//
// A raw export prints the whole patch or nothing (docs/commands.md): every object is read and the
// budget checked before the first byte goes out, so the finished sections must be held somewhere
// until then. PatchSpool holds them in the page cache rather than in the process: Offer() moves the
// sections a writer has finished into the file once they reach kMinSpillBytes, so a patch under
// that size never opens a file and the front of a larger one costs no resident memory.
//
// The file: O_TMPFILE (no name, gone when the process ends, whatever the exit) in $TMPDIR when it
// is set and absolute, else /tmp; mode 0600. Nothing is ever named or written in the repository.
// Any failure to make or write the file (no O_TMPFILE, TMPDIR missing, unwritable, not a
// directory, the disk full, a file size limit) is not an error: the spool keeps what it already
// holds, refuses every later Offer, and the writer keeps the rest of the patch in memory as
// before. The patch is then size() bytes from the file followed by the writer's own bytes.
//
// Thread-safety: none; one writer thread at a time. Not copyable (owns a descriptor).
#ifndef GENTLE_EXPORT_PATCH_SPOOL_H_
#define GENTLE_EXPORT_PATCH_SPOOL_H_

#include <cstddef>
#include <string>

#include "store/status.h"

namespace gentle::exporter {

class PatchSpool {
 public:
  // A patch whose unwritten bytes stay under this never opens a file.
  static constexpr size_t kMinSpillBytes = size_t{256} << 10;

  PatchSpool() = default;
  PatchSpool(const PatchSpool&) = delete;
  PatchSpool& operator=(const PatchSpool&) = delete;
  ~PatchSpool();

  // When `tail` holds at least kMinSpillBytes and the spool still works: appends `tail` to the
  // file and clears it (capacity kept). Otherwise, or when the write fails, leaves `tail` whole.
  void Offer(std::string* tail);

  // The bytes held in the file: the front of the patch.
  size_t size() const { return size_; }

  // Writes `length` spooled bytes from offset `from` to `fd` (a pipe, terminal or file; blocking
  // or not). kInternal when the spool cannot be read back or `fd` refuses the bytes.
  Status CopyTo(int fd, size_t from, size_t length) const;

 private:
  bool Open();

  int fd_ = -1;
  size_t size_ = 0;
  bool failed_ = false;  // no file could be made or written: every Offer leaves its tail
};

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_PATCH_SPOOL_H_
