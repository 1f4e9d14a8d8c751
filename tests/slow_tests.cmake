# The longest CTest entries, longest first, with a COST each so that `ctest -j` starts them first
# and no long test is left running alone at the end (tests/CMakeLists.txt includes this file after
# catch_discover_tests' list). CTest's own record of test times (Testing/Temporary/CTestCostData.txt)
# cannot do this here: CMake 3.25 drops a name with spaces from it, and every Catch name has some.
# Order measured on 2026-12-03 (a full `ctest` of the normal build); a name that no longer exists is
# ignored by set_tests_properties, so a renamed test only loses its place in the queue.
set(gentle_cost 1000)
foreach(name IN ITEMS
    "huge blob: a one-byte change to a 1 GiB loose file is refused from headers"
    "huge blob: a one-byte change to a 1 GiB file git add packed is refused from headers"
    "review post: killed at each of its fault points - the next post recovers exactly one"
    "crash: every durable step of every mutation leaves a recoverable - consistent store"
    "AppendBinaryPatch matches git diff --binary on a randomized corpus"
    "syscall crash: start killed at each store call is recoverable"
    "syscall crash: post killed at each store call is recoverable"
    "syscall crash: verdict killed at each store call is recoverable"
    "syscall crash: burn killed at each store call is recoverable"
    "syscall crash: abandon killed at each store call is recoverable"
    "harness loop: following only next never meets a refusal"
    "syscall crash: index rebuild killed at each store call is recoverable"
    "history bounds: commits sharing one large record hold one copy of it"
    "ci recipe: a bare origin over git daemon on 127.0.0.1"
    "syscall crash: invalidate killed at each store call is recoverable"
    "approval policy: signers and thresholds and self-approval and forgeries over file://"
    "approval policy: signers and thresholds and self-approval and forgeries over git daemon"
    "ci recipe: a bare origin over file://"
    "syscall crash: import killed at each store call is recoverable"
    "syscall crash: seen baseline killed at each store call is recoverable"
    "docs: every command and flag --help lists has a man page entry and shell completions"
    "history bounds: records over the history's byte limit in all are refused unread"
    "syscall crash: reclaim killed at each store call is recoverable"
    "stress: 8 processes mixing start - verdict - export - status - burn and abandon"
    "a record over 32 MiB is corrupted and is not read into a parse"
    "history bounds: a review-state.json over 32 MiB is refused from its header - unread"
    "rounds: real history pairs - rounds are consecutive commits of the fixture corpus"
    "comment: every rendered comment matches docs/commands.md regexes - near-misses do not"
    "history bounds: review fetch reports a review-state.json over 32 MiB unread"
    "show: the HTML view in headless chromium runs no script and fetches nothing"
    "an import killed holding its ref lock wedges no writer - the next one removes it"
    "engine matches the git oracle on random trees"
    "export-context of many large files holds one large pair at a time - as for one"
    "AppendBinaryPatch matches git where the delta size meets the literal cap"
    "bench_compare_small_smoke"
  )
  set_tests_properties("${name}" PROPERTIES COST ${gentle_cost})
  math(EXPR gentle_cost "${gentle_cost} - 10")
endforeach()
