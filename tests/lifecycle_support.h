// Test support for the lifecycle tests (namespace gentle::testing::life, apart from test_repo.h):
// temporary git repositories driven through the built CLI, byte-level snapshots of a store, and a
// builder for stores as the Go gentle-ai writes them.
#ifndef GENTLE_TESTS_LIFECYCLE_SUPPORT_H_
#define GENTLE_TESTS_LIFECYCLE_SUPPORT_H_

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace gentle::testing::life {

struct Run {
  int exit_code = -1;
  std::string out;
  std::string err;
  nlohmann::json Json() const;  // stdout parsed (fails the test if it is not JSON)
};

using Env = std::vector<std::pair<std::string, std::string>>;

// Runs `program` with `args` in `cwd`, extra environment `env`, stdout and stderr into the two
// files; returns the exit code (128 + signal), -1 if it could not be run. No Catch macros, so a
// forked test process may call it.
int SpawnToFiles(const std::string& program, const std::vector<std::string>& args,
                 const std::string& cwd, const Env& env, const std::string& out_path,
                 const std::string& err_path);

// Runs `program` with `args` in `cwd`, extra environment `env`, capturing stdout and stderr.
Run Exec(const std::string& program, const std::vector<std::string>& args, const std::string& cwd,
         const Env& env = {});

// A fresh directory, removed at scope exit.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// A git repository in a temp dir with one commit (file `a.txt`).
class LifecycleRepo {
 public:
  LifecycleRepo();
  const std::string& root() const { return root_; }
  std::string common_dir() const { return root_ + "/.git"; }
  std::string store_root() const { return common_dir() + "/gentle-ai/review-transactions"; }

  Run Git(const std::vector<std::string>& args) const;
  // gentle-ai review <args> --cwd <root> [--json]
  Run Review(std::vector<std::string> args, const Env& env = {}, bool json = true) const;
  void Write(const std::string& relative, const std::string& content) const;

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

std::string ReadFile(const std::string& path);
void WriteFile(const std::string& path, const std::string& bytes);
bool Exists(const std::string& path);

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

// A compact-v2 store as the Go gentle-ai writes it (fixtures/gostore/README.md), built in
// `repo` from real trees: no index.sqlite, no pin refs, files 0644.
struct GoStore {
  std::string live;      // reviewing, many extra state fields, reviewer-results/
  std::string approved;  // approved, with gentle-ai's plain approved_ack_token
  std::string approved_token;
  std::string historical;  // carries a retired field: read_only
  std::string burned;      // tombstone only
  std::string tombstone;   // its file
  std::string abandoned;   // committed quarantine entry
  std::string abandoned_audit;
  std::string interrupted;  // quarantine entry still `prepared`, residue in place
  std::string interrupted_audit;
};
GoStore BuildGoStore(LifecycleRepo& repo);

}  // namespace gentle::testing::life

#endif  // GENTLE_TESTS_LIFECYCLE_SUPPORT_H_
