// Entry point of the gentle-ai executable: tunes the allocator for a short-lived process, hands
// argv to the command table and exits with its code.
#include <malloc.h>

#include "cli/app.h"

int main(int argc, char** argv) {
  // A command lives for milliseconds and frees buffers (inflated blobs, per-file patch sections)
  // just before it allocates the next ones. glibc's defaults hand large blocks and the heap top
  // back to the kernel at once, and every page then faults again on reuse: a 2 MB export took
  // ~1,300 page faults where git takes ~730 (docs/performance.md). Keep freed memory in the
  // process until exit; peak memory is unchanged.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
  return gentle::cli::RunProcess(argc, argv);
}
