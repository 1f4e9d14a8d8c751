// Differential-testing helpers: the pinned git CLI oracle versus the native engine.
//
// OracleDiff runs `git --git-dir=<git_dir> <OracleArgv>` under OracleEnv() so no worktree,
// user or system configuration or attributes apply. EngineDiff opens the repository with libgit2
// and calls DerivePatch. FirstDifference renders where two byte strings first diverge, with the
// surrounding lines escaped, for readable test failures.
#ifndef GENTLE_TESTS_SUPPORT_GIT_ORACLE_H_
#define GENTLE_TESTS_SUPPORT_GIT_ORACLE_H_

#include <git2.h>

#include <string>

#include "export/patch_engine.h"
#include "store/status.h"

namespace gentle::testing {

// The oracle's stdout, or a Status when git fails.
Result<std::string> OracleDiff(const std::string& git_dir, const std::string& base,
                               const std::string& candidate);

// The engine's patch for two tree ids given in hex.
Result<exporter::DerivedPatch> EngineDiff(git_repository* repo, const std::string& base,
                                          const std::string& candidate,
                                          const exporter::PatchOptions& options = {});

// "" when equal; otherwise a readable description of the first difference.
std::string FirstDifference(const std::string& expected, const std::string& actual);

// A libgit2 repository handle freed on destruction.
class RepoHandle {
 public:
  explicit RepoHandle(const std::string& git_dir);
  ~RepoHandle();
  RepoHandle(const RepoHandle&) = delete;
  RepoHandle& operator=(const RepoHandle&) = delete;
  git_repository* get() const { return repo_; }

 private:
  git_repository* repo_ = nullptr;
};

}  // namespace gentle::testing

#endif  // GENTLE_TESTS_SUPPORT_GIT_ORACLE_H_
