# bench_make_store_smoke: the store generator runs and fills a tiny store (no timing).
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/.git)
execute_process(COMMAND ${MAKE_STORE} --git-common-dir ${WORK}/.git --worktree-root ${WORK}
                        --live 5 --burned 5 --retired 5
                RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0 OR NOT out MATCHES "consumed=review-" OR
   NOT EXISTS ${WORK}/.git/gentle-ai/review-transactions/index.sqlite)
  message(FATAL_ERROR "make-store failed (${rc}): ${out}")
endif()
file(REMOVE_RECURSE ${WORK})
