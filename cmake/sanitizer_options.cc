// The sanitizer runtimes' options for every executable of a GENTLE_SANITIZE build: the one place
// they are set (scripts/test.sh and the `asan` preset set none). The runtimes read these defaults
// at start; an ASAN_OPTIONS, UBSAN_OPTIONS or LSAN_OPTIONS given by hand still adds to them.
//
// Any report aborts the process, so the test that ran it fails, including leaks and reports in the
// gentle-ai-test processes the tests spawn.
//
// One LeakSanitizer suppression, for a leak inside third-party code this project cannot free:
// libgit2 1.5 (Debian's libgit2.a), src/libgit2/merge.c paint_down_to_common does not free its
// priority queue (a git_vector) on its error returns, when a commit fails to parse during a
// merge-base walk. Reached by store::git::MergeBase on a repository with a replaced commit object
// (tests/object_reader_test.cc, "verified view: revisions resolve through checked commits only").
// libgit2.a has no frame pointers, so the leak's stack ends at libgit2's allocator and cannot be
// matched by paint_down_to_common; the pattern is the vector-growth allocator. It hides only leaked
// vector buffers: a libgit2 object the project forgot to free is allocated through
// stdalloc__malloc/calloc, not reallocarray, and is still reported.

#define GENTLE_SANITIZER_DEFAULT extern "C" __attribute__((visibility("default"), used)) const char*

GENTLE_SANITIZER_DEFAULT __asan_default_options() {
  return "abort_on_error=1:detect_leaks=1:check_initialization_order=1";
}

GENTLE_SANITIZER_DEFAULT __ubsan_default_options() {
  return "print_stacktrace=1:halt_on_error=1:abort_on_error=1";
}

GENTLE_SANITIZER_DEFAULT __lsan_default_options() { return "print_suppressions=0"; }

GENTLE_SANITIZER_DEFAULT __lsan_default_suppressions() { return "leak:stdalloc__reallocarray\n"; }
