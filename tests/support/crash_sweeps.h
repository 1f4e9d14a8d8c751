// The operation names of the crash sweeps, for tests/verb_registry_test.cc, which checks that
// every mutating verb of the command table is in one of them (or says why not). Each is defined
// beside its sweep's operation list: the fault-point sweeps in tests/lifecycle_crash_test.cc (the
// store's verbs) and tests/loop_seen_test.cc (the seen ledger's), and the syscall sweep in
// tests/syscall_crash_test.cc.
#ifndef GENTLE_TESTS_SUPPORT_CRASH_SWEEPS_H_
#define GENTLE_TESTS_SUPPORT_CRASH_SWEEPS_H_

#include <string>
#include <vector>

namespace gentle::testing {

std::vector<std::string> FaultPointSweepOperations();
std::vector<std::string> SeenFaultPointSweepOperations();
std::vector<std::string> SyscallSweepOperations();

}  // namespace gentle::testing

#endif  // GENTLE_TESTS_SUPPORT_CRASH_SWEEPS_H_
