// ForgeVerdictBody: what a forger with write access to a lineage's history (or to a remote it is
// fetched from) can do to it, for tests of how untrusted recorded text is shown: the body of round
// `round`'s verdict replaced in every commit that carries it (its body_sha256 recomputed), the
// commits after it made again (same messages, identity and times; re-signed where they were
// signed, with the repository's signing key), and the history ref moved to the new tip. The
// records are untouched, so the chain still verifies. Fails the running Catch test when git does.
#ifndef GENTLE_TESTS_SUPPORT_FORGED_HISTORY_H_
#define GENTLE_TESTS_SUPPORT_FORGED_HISTORY_H_

#include <string>

#include "tests/support/lifecycle_repo.h"

namespace gentle::testing {

void ForgeVerdictBody(const LifecycleRepo& repo, const std::string& lineage, int round,
                      const std::string& body);

}  // namespace gentle::testing

#endif  // GENTLE_TESTS_SUPPORT_FORGED_HISTORY_H_
