// Support for the hostile-input and read-only tests (tests/hostile_*.cc, tests/readonly_*.cc).
//
// Hostile runs the built gentle-ai with a hard timeout (Run's: 60 s unless given, then SIGKILL to
// its process group), so a hang fails the test with exit 137 (RunResult::timed_out) instead of
// stalling the suite, and a crash shows as 128+signal instead of a lost process. With
// GENTLE_HOSTILE_LOG=FILE each run appends one line to FILE (to count runs for
// docs/reliability.md).
//
// ExpectOutcome runs one command with --json and checks: the exit code, the error envelope's code
// (stdout is exactly one JSON document), and that the git common dir and every `untouched`
// directory are byte-identical before and after (HashTree). StoreFixture builds a repository with
// one started lineage and names the store's paths.
#ifndef GENTLE_TESTS_SUPPORT_HOSTILE_H_
#define GENTLE_TESTS_SUPPORT_HOSTILE_H_

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {

RunResult Hostile(const std::vector<std::string>& args, const std::string& cwd, int timeout_s = 60);

// Runs args + {"--json"}; requires `exit_code` and, unless it is 0, the error `code`; requires the
// repository's .git (cwd/.git) and each `untouched` tree unchanged, except for .git paths starting
// with one of `may_change`; a run still going after `timeout_s` seconds is killed and fails.
// Returns the parsed stdout.
// `review fsck --json` exits 7 with a finding naming `lineage`, and changes nothing.
void ExpectFsckFinding(const std::string& cwd, const std::string& lineage);

nlohmann::json ExpectOutcome(const std::vector<std::string>& args, const std::string& cwd,
                             int exit_code, const std::string& code,
                             const std::vector<std::string>& untouched = {},
                             const std::vector<std::string>& may_change = {}, int timeout_s = 60);

// What a refused `start` may change: a writer rewrites v2/LOCK's owner record when it takes the
// lock (the locking protocol, not damage), and a start that gets past the store-wide preflight
// (store::PreflightWrite) has written the candidate's blobs and trees before it reads the
// lineage's record (content-addressed, unreachable, pruned by gc). Records, pins and anything
// outside .git must stay byte-identical.
std::vector<std::string> StartMayChange(bool objects);

// The four record-reading commands for `lineage`, each as an argv without --json:
// status --lineage, export-context, verify --lineage (and list/status-all separately: they report
// damage per entry and succeed).
std::vector<std::vector<std::string>> LineageReaders(const std::string& lineage);

struct StoreFixture {
  TempDir tmp;
  std::string repo;
  std::string lineage;
  StoreFixture();
  std::string git() const { return repo + "/.git"; }
  std::string root() const { return git() + "/gentle-ai/review-transactions"; }
  std::string v2() const { return root() + "/v2"; }
  std::string lineage_dir() const { return v2() + "/" + lineage; }
  std::string record_path() const { return lineage_dir() + "/review-state.json"; }
};

// Writes `state_text` (the raw compact or indented state member) into a record file whose revision
// is computed from exactly those bytes, so the only defect is whatever the text itself carries.
std::string RecordWithRawState(const std::string& state_text);

}  // namespace gentle::testing

#endif  // GENTLE_TESTS_SUPPORT_HOSTILE_H_
