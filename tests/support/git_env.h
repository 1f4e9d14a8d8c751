// The pinned environments git (and the built gentle-ai) run under in tests and tools.
//
// OracleEnv() is the environment pin of docs/engine.md for the git CLI oracle: no system or
// global configuration, no system attributes, the C locale, an empty HOME, no terminal prompt.
// GitEnv() is OracleEnv() plus a fixed author and committer (name, email, date), for building
// fixture repositories whose commit ids do not depend on the clock or the user. Both need no test
// framework; the empty HOME is made once per process and removed at exit.
#ifndef GENTLE_TESTS_SUPPORT_GIT_ENV_H_
#define GENTLE_TESTS_SUPPORT_GIT_ENV_H_

#include "tests/support/process.h"

namespace gentle::testing {

const Env& OracleEnv();
const Env& GitEnv();

}  // namespace gentle::testing

#endif  // GENTLE_TESTS_SUPPORT_GIT_ENV_H_
