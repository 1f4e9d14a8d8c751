// The test build's hooks (store/test_hooks.h), driven by the environment of the process:
//   GENTLE_FAULT_TRACE=FILE   append each fault point's name and a newline to FILE
//   GENTLE_FAULT_POINT=NAME   stop the process with _exit(kFaultExitCode) at fault point NAME
//   GENTLE_FAULT_THROW=NAME[@KIND]  throw at fault point NAME: KIND `bad_alloc` (default),
//                             `json` (an nlohmann::json type_error) or `other` (not a
//                             std::exception)
//   GENTLE_FAULT_PAUSE=NAME@DIR  at fault point NAME, write "paused\n" to the FIFO DIR/paused
//                             (blocking until a reader opens it), then read the FIFO DIR/resume
//                             to its end: a test holds a writer still at one step, without sleeps
//   GENTLE_FIXED_TIME=TEXT    the wall-clock time every record takes
//   GENTLE_ADMIT_OVERSIZE=1   start and revise take a candidate over the export budget (a lineage
//                             as releases before the budget check made it)
//   GENTLE_FORGE_TIMEOUT_MS=N every forge request's whole deadline: N ms instead of 60 s
// Linked only into gentle-ai-test and the test binary, never into the installed executable.
#ifndef GENTLE_TESTS_SUPPORT_ENV_TEST_HOOKS_H_
#define GENTLE_TESTS_SUPPORT_ENV_TEST_HOOKS_H_

namespace gentle::testing {

void InstallEnvironmentTestHooks();

}  // namespace gentle::testing

#endif  // GENTLE_TESTS_SUPPORT_ENV_TEST_HOOKS_H_
