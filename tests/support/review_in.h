// The CLI as a user in one clone runs it, for tests that move between several clones of one
// origin (a reviewer's, an author's, CI's fresh one): git that must succeed, and
// `gentle-ai review <args> --cwd DIR --json` run in DIR. The Ok forms fail the running test
// unless the command exits 0; the Refused forms check a refusal's exit code and error code.
#ifndef GENTLE_TESTS_SUPPORT_REVIEW_IN_H_
#define GENTLE_TESTS_SUPPORT_REVIEW_IN_H_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/process.h"

namespace gentle::testing {

// git <args> in `repo` (tests/support/git_repo.h's GitRun), `input` on its standard input; its
// stdout without the trailing newline.
std::string GitOk(const std::string& repo, const std::vector<std::string>& args,
                  const std::string& input = "");

// gentle-ai review <args> --cwd <dir> --json, run in `dir`.
RunResult Review(const std::string& dir, std::vector<std::string> args);

// The same, exiting 0; its JSON.
nlohmann::json ReviewOk(const std::string& dir, const std::vector<std::string>& args);

// Requires `run` to have exited `exit_code` with error `code`; returns the error object.
nlohmann::json Refused(const RunResult& run, int exit_code, const std::string& code);

// The same; returns the error's details.
nlohmann::json RefusedDetails(const RunResult& run, int exit_code, const std::string& code);

}  // namespace gentle::testing

#endif  // GENTLE_TESTS_SUPPORT_REVIEW_IN_H_
