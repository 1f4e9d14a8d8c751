// LifecycleRepo: a temporary git repository driven through the built CLI (gentle_ai.h), with
// byte-level snapshots of its store, and helpers that start lineages of each kind and check how
// every reader answers for them. Its helpers fail the running Catch test when a step fails.
#ifndef GENTLE_TESTS_SUPPORT_LIFECYCLE_REPO_H_
#define GENTLE_TESTS_SUPPORT_LIFECYCLE_REPO_H_

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {

// A git repository in a temp dir with one commit (file `a.txt`).
class LifecycleRepo {
 public:
  LifecycleRepo();
  // A fresh `git clone` of `origin`'s repository (its store is not cloned: only what git carries).
  struct CloneOf {
    const LifecycleRepo& origin;
  };
  explicit LifecycleRepo(CloneOf clone);
  const std::string& root() const { return root_; }
  std::string common_dir() const { return root_ + "/.git"; }
  std::string store_root() const { return common_dir() + "/gentle-ai/review-transactions"; }
  // <store>/v2/<lineage>/review-state.json, and the `state` object of the record there.
  std::string record_path(const std::string& lineage) const {
    return store_root() + "/v2/" + lineage + "/review-state.json";
  }
  nlohmann::json RecordState(const std::string& lineage) const;

  // git <args> in the worktree (git_repo.h GitRun).
  RunResult Git(const std::vector<std::string>& args) const;
  // The same (`input` on git's standard input), failing the running test unless git exits 0;
  // returns its stdout as printed.
  std::string GitOk(const std::vector<std::string>& args, const std::string& input = "") const;
  // The arguments `review <args> --cwd <root> [--json]`.
  std::vector<std::string> ReviewArgs(const std::vector<std::string>& args, bool json = true) const;
  // gentle-ai review <args> --cwd <root> [--json], with GENTLE_LOCK_TIMEOUT_MS=2000 unless `env`
  // sets it.
  RunResult Review(const std::vector<std::string>& args, const Env& env = {},
                   bool json = true) const;
  void Write(const std::string& relative, const std::string& content) const;

  // Review(args), failing the running test unless it exits 0; returns its JSON.
  nlohmann::json ReviewOk(const std::vector<std::string>& args) const;
  // Review(args) must fail with the error envelope's `code` and `exit_code`, and leave every byte
  // of the store and its refs as they were (StoreBytes).
  void ExpectRefused(const std::vector<std::string>& args, const std::string& code,
                     int exit_code) const;
  // Changes the worktree (a new file each call) and starts a lineage; returns its start JSON.
  nlohmann::json StartNew();
  // StartNew then APPROVE: {lineage, revision, token}.
  struct Approved {
    std::string lineage, revision, token;
  };
  Approved StartApproved();

  // Every file under <common-dir>/gentle-ai (path -> mode + bytes, index.sqlite-wal and -shm
  // included) plus every refs/gentle-ai ref.
  std::map<std::string, std::string> StoreBytes() const;

 private:
  TempDir dir_;
  std::string root_;
  int counter_ = 0;
};

// refs/gentle-ai/reviews/<lineage>: the lineage's history ref.
std::string ReviewRef(const std::string& lineage);

// The fault points a command passes, in order (GENTLE_FAULT_TRACE).
std::vector<std::string> TraceFaultPoints(const LifecycleRepo& repo,
                                          const std::vector<std::string>& args);

// Lineages with the `status --lineage` exit code each must answer: 0 live, 4 consumed, 5 retired.
using Answers = std::vector<std::pair<std::string, int>>;

// Starts a live lineage, a burned one and an abandoned one (so an index missing rows shows).
Answers StartThreeKinds(LifecycleRepo& repo);

// Every lineage of `answers` answers as it must: `status --lineage` and `export-context` exit with
// its code, and `list` shows it (consumed, retired, or in a live state).
void ExpectAnswers(const LifecycleRepo& repo, const Answers& answers);

// `review fsck --json` exits 0 and says clean: no finding.
void ExpectFsckClean(const LifecycleRepo& repo);

// After an interrupted command: every lineage of `answers` answers, the next writer (StartNew)
// succeeds, fsck is clean, and every lineage still answers.
void ExpectNextWriterRecovers(LifecycleRepo& repo, const Answers& answers);

}  // namespace gentle::testing

#endif  // GENTLE_TESTS_SUPPORT_LIFECYCLE_REPO_H_
