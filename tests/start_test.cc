// review start through the built CLI on real repositories, with the git CLI as the oracle for the
// candidate tree and the changed paths.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "store/digests.h"
#include "store/file_io.h"
#include "store/file_write.h"
#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/git_repo.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

nlohmann::json StartJson(const std::string& repo, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"review", "start", "--json"};
  args.insert(args.end(), extra.begin(), extra.end());
  RunResult r = GentleAi(args, repo);
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  REQUIRE(r.exit_code == 0);
  return nlohmann::json::parse(r.out);
}

nlohmann::json Record(const std::string& repo, const std::string& lineage) {
  return nlohmann::json::parse(
      ReadFile(repo + "/.git/gentle-ai/review-transactions/v2/" + lineage + "/review-state.json"));
}

void CheckSnapshotAgainstOracle(const std::string& repo, const nlohmann::json& snapshot,
                                const std::string& oracle_base, const std::string& oracle_tree) {
  CHECK(snapshot["base_tree"] == oracle_base);
  CHECK(snapshot["candidate_tree"] == oracle_tree);
  auto paths = OraclePaths(repo, oracle_base, oracle_tree);
  CHECK(snapshot["paths"].get<std::vector<std::string>>() == paths);
  CHECK(snapshot["paths_digest"] == store::PathsDigest(paths));
}

}  // namespace

TEST_CASE(
    "start on the workspace freezes exactly what git would and touches nothing of the user's") {
  TempDir tmp;
  std::string repo = InitRepo(tmp.path());
  WriteFile(repo + "/a.txt", "alpha changed\n");
  WriteFile(repo + "/sp ace \xc3\xa9.txt", "new\n");
  WriteFile(repo + "/bin.dat", std::string("\x00\x01\x02\xff", 4));
  Git(repo, {"add", "bin.dat"});
  REQUIRE(unlink((repo + "/dir/b.txt").c_str()) == 0);
  const std::string index_before = ReadFile(repo + "/.git/index");
  const std::string head_before = Git(repo, {"rev-parse", "HEAD"});

  auto out = StartJson(repo, {"--untracked", "sp ace \xc3\xa9.txt"});
  CHECK(out["schema"] == "gentle-ai.review-start/v1");
  CHECK(out["state"] == "reviewing");
  CHECK(out["kind"] == "current-changes");
  CHECK(out["created"] == true);
  CHECK(out["changed_path_count"] == 4);
  const std::string lineage = out["lineage"];
  auto record = Record(repo, lineage);
  CHECK(record["revision"] == out["revision"]);
  const auto& snapshot = record["state"]["initial_snapshot"];
  CHECK(record["state"]["current_snapshot"] == snapshot);
  CHECK(record["state"]["generation"] == 1);
  CheckSnapshotAgainstOracle(repo, snapshot, Trim(Git(repo, {"rev-parse", "HEAD^{tree}"})),
                             OracleWorkspaceTree(repo, {"sp ace \xc3\xa9.txt"}));
  CHECK(snapshot["intended_untracked"] == nlohmann::json::array({"sp ace \xc3\xa9.txt"}));
  CHECK(out["target_identity"] == snapshot["identity"]);

  // Nothing of the user's changed: index bytes, HEAD, the untracked file still untracked.
  CHECK(ReadFile(repo + "/.git/index") == index_before);
  CHECK(Git(repo, {"rev-parse", "HEAD"}) == head_before);
  CHECK(Git(repo, {"status", "--porcelain", "--", "sp ace \xc3\xa9.txt"}).rfind("??", 0) == 0);
  // The history ref keeps both trees reachable.
  std::string pin = Trim(Git(repo, {"rev-parse", "refs/gentle-ai/reviews/" + lineage + "^{tree}"}));
  CHECK(Trim(Git(repo, {"rev-parse", pin + ":candidate"})) == snapshot["candidate_tree"]);
  CHECK(Trim(Git(repo, {"rev-parse", pin + ":base"})) == snapshot["base_tree"]);
}

// The mtime of a loose object's file, in seconds.
static time_t LooseMtime(const std::string& repo, const std::string& hex) {
  struct stat st;
  REQUIRE(stat(LooseObjectPath(repo + "/.git", hex).c_str(), &st) == 0);
  return st.st_mtime;
}

static void SetLooseMtime(const std::string& repo, const std::string& hex, time_t when) {
  const std::string path = LooseObjectPath(repo + "/.git", hex);
  const struct timespec times[2] = {{when, 0}, {when, 0}};
  REQUIRE(utimensat(AT_FDCWD, path.c_str(), times, 0) == 0);
}

TEST_CASE("start writes the trees the base lacks and freshens existing ones - not the base's") {
  TempDir tmp;
  std::string repo = InitRepo(tmp.path());
  WriteFile(repo + "/kept/sub/k.txt", "kept\n");
  WriteFile(repo + "/edited/e.txt", "one\n");
  Git(repo, {"add", "-A"});
  Git(repo, {"commit", "-q", "-m", "more"});
  // A tree for edited/ with e.txt = "two\n", stored but not reachable from HEAD.
  WriteFile(repo + "/edited/e.txt", "two\n");
  Git(repo, {"add", "edited/e.txt"});
  const std::string stored = Trim(Git(repo, {"write-tree", "--prefix=edited/"}));
  Git(repo, {"reset", "-q"});
  const std::string kept = Trim(Git(repo, {"rev-parse", "HEAD:kept"}));
  const std::string kept_sub = Trim(Git(repo, {"rev-parse", "HEAD:kept/sub"}));
  const time_t old = 1000000000;  // 2001
  for (const std::string& hex : {stored, kept, kept_sub}) SetLooseMtime(repo, hex, old);

  auto out = StartJson(repo);
  const nlohmann::json record = Record(repo, out["lineage"]);
  const auto& snapshot = record["state"]["initial_snapshot"];
  const std::string candidate = snapshot["candidate_tree"];
  // The new root is written; the existing, unreachable edited/ tree is freshened as git
  // write-tree would; the base's own trees are reused as they are. (Checked before the oracle
  // below, whose write-tree freshens every tree it computes.)
  CHECK(GitRun(repo, {"cat-file", "-e", candidate}).exit_code == 0);
  CHECK(LooseMtime(repo, stored) > old);
  CHECK(LooseMtime(repo, kept) == old);
  CHECK(LooseMtime(repo, kept_sub) == old);
  CHECK(Trim(Git(repo, {"rev-parse", candidate + ":edited"})) == stored);
  CHECK(Trim(Git(repo, {"rev-parse", candidate + ":kept"})) == kept);
  CHECK(Git(repo, {"fsck", "--connectivity-only", "--no-dangling"}).empty());
  CheckSnapshotAgainstOracle(repo, snapshot, Trim(Git(repo, {"rev-parse", "HEAD^{tree}"})),
                             OracleWorkspaceTree(repo, {}));
}

TEST_CASE("start leaves the worktree bytes unchanged") {
  TempDir tmp;
  std::string repo = InitRepo(tmp.path());
  WriteFile(repo + "/a.txt", "alpha\r\nchanged\r\n");
  WriteFile(repo + "/new.txt", "untracked\n");
  auto before = HashTree(repo);
  before.erase(before.begin(), before.end());
  for (auto& [path, hash] : HashTree(repo)) {
    if (path.rfind(".git", 0) != 0) before[path] = hash;
  }
  StartJson(repo);
  std::map<std::string, std::string> after;
  for (auto& [path, hash] : HashTree(repo)) {
    if (path.rfind(".git", 0) != 0) after[path] = hash;
  }
  CHECK(before == after);
}

TEST_CASE("start on an unborn branch diffs against the empty tree") {
  TempDir tmp;
  const std::string repo = tmp.path() + "/r";
  REQUIRE(mkdir(repo.c_str(), 0755) == 0);
  Git(repo, {"init", "-q", "-b", "main"});
  WriteFile(repo + "/first.txt", "one\n");
  Git(repo, {"add", "first.txt"});
  auto out = StartJson(repo);
  auto snapshot = Record(repo, out["lineage"])["state"]["initial_snapshot"];
  CHECK(snapshot["unborn_head"] == true);
  CheckSnapshotAgainstOracle(repo, snapshot, std::string(store::kEmptyTreeSha1),
                             OracleWorkspaceTree(repo, {}));
  CHECK(snapshot["paths"] == nlohmann::json::array({"first.txt"}));
  // The empty tree object exists, so the snapshot can be exported later.
  CHECK(GitRun(repo, {"cat-file", "-e", std::string(store::kEmptyTreeSha1)}).exit_code == 0);
}

TEST_CASE("staged projection freezes the index - not the workspace") {
  TempDir tmp;
  std::string repo = InitRepo(tmp.path());
  WriteFile(repo + "/a.txt", "staged\n");
  Git(repo, {"add", "a.txt"});
  WriteFile(repo + "/a.txt", "staged\nand unstaged\n");
  WriteFile(repo + "/dir/b.txt", "unstaged only\n");
  auto out = StartJson(repo, {"--staged"});
  auto snapshot = Record(repo, out["lineage"])["state"]["initial_snapshot"];
  CHECK(snapshot["projection"] == "staged");
  CheckSnapshotAgainstOracle(repo, snapshot, Trim(Git(repo, {"rev-parse", "HEAD^{tree}"})),
                             Trim(Git(repo, {"write-tree"})));
  CHECK(snapshot["paths"] == nlohmann::json::array({"a.txt"}));
  CHECK(snapshot["identity"] != StartJson(repo)["target_identity"]);
}

TEST_CASE("mode change - symlink - binary and odd paths are captured like git") {
  TempDir tmp;
  std::string repo = InitRepo(tmp.path());
  REQUIRE(chmod((repo + "/a.txt").c_str(), 0755) == 0);
  REQUIRE(symlink("a.txt", (repo + "/link").c_str()) == 0);
  WriteFile(repo + "/tab\there", "t\n");
  WriteFile(repo + "/\"quoted\\\".txt", "q\n");
  WriteFile(repo + "/img.bin", std::string(3000, '\0') + "tail");
  Git(repo, {"add", "link", "tab\there", "\"quoted\\\".txt", "img.bin"});
  auto out = StartJson(repo);
  auto snapshot = Record(repo, out["lineage"])["state"]["initial_snapshot"];
  CheckSnapshotAgainstOracle(repo, snapshot, Trim(Git(repo, {"rev-parse", "HEAD^{tree}"})),
                             OracleWorkspaceTree(repo, {}));
  CHECK(snapshot["paths"].size() == 5);
}

// The filters libgit2 applies while hashing a changed file read the index: .gitattributes that
// exists only there, and autocrlf's rule that an index blob with CR is not converted. start hands
// them the index it already read (not the file again); these pin that they still see it.
TEST_CASE("attributes only in the index and autocrlf's index check are applied like git") {
  TempDir tmp;
  std::string repo = InitRepo(tmp.path());
  WriteFile(repo + "/dir/.gitattributes", "*.dat text\n");
  WriteFile(repo + "/dir/x.dat", "one\ntwo\n");
  WriteFile(repo + "/crlf.txt", "a\r\nb\r\n");
  Git(repo, {"add", "-A"});
  Git(repo, {"commit", "-q", "-m", "attributes"});
  // Only the index still has dir/.gitattributes (skip-worktree keeps it there for git add -A).
  Git(repo, {"update-index", "--skip-worktree", "dir/.gitattributes"});
  REQUIRE(unlink((repo + "/dir/.gitattributes").c_str()) == 0);
  WriteFile(repo + "/dir/x.dat", "one\r\ntwo\r\nthree\r\n");  // `text`: stored with LF
  Git(repo, {"config", "core.autocrlf", "true"});
  WriteFile(repo + "/crlf.txt", "a\r\nb\r\nc\r\n");  // index blob has CR: stored as is
  auto out = StartJson(repo);
  auto snapshot = Record(repo, out["lineage"])["state"]["initial_snapshot"];
  const std::string oracle = OracleWorkspaceTree(repo, {});
  CheckSnapshotAgainstOracle(repo, snapshot, Trim(Git(repo, {"rev-parse", "HEAD^{tree}"})), oracle);
  CHECK(Git(repo, {"cat-file", "blob", oracle + ":dir/x.dat"}) == "one\ntwo\nthree\n");
  CHECK(Git(repo, {"cat-file", "blob", oracle + ":crlf.txt"}) == "a\r\nb\r\nc\r\n");
  CHECK(snapshot["paths"] == nlohmann::json::array({"crlf.txt", "dir/x.dat"}));
  // status hashes the same files without writing (git_repository_hashfile) and agrees.
  RunResult status = GentleAi({"review", "status", "--lineage", out["lineage"], "--json"}, repo);
  REQUIRE(status.exit_code == 0);
  CHECK(nlohmann::json::parse(status.out)["lineages"][0]["applicability"] == "current_target");
}

TEST_CASE("a submodule commit is captured as the new gitlink") {
  TempDir tmp;
  std::string sub = InitRepo(tmp.path(), "sub");
  std::string repo = InitRepo(tmp.path(), "super");
  Git(repo, {"submodule", "add", "-q", sub, "mod"});
  Git(repo, {"commit", "-q", "-m", "add submodule"});
  WriteFile(repo + "/mod/a.txt", "changed inside\n");
  Git(repo + "/mod", {"commit", "-q", "-am", "sub change"});
  auto out = StartJson(repo);
  auto snapshot = Record(repo, out["lineage"])["state"]["initial_snapshot"];
  CheckSnapshotAgainstOracle(repo, snapshot, Trim(Git(repo, {"rev-parse", "HEAD^{tree}"})),
                             OracleWorkspaceTree(repo, {}));
  CHECK(snapshot["paths"] == nlohmann::json::array({"mod"}));
}

TEST_CASE("base-diff and commit-range kinds") {
  TempDir tmp;
  std::string repo = InitRepo(tmp.path());
  const std::string first = Trim(Git(repo, {"rev-parse", "HEAD"}));
  Git(repo, {"checkout", "-q", "-b", "feature"});
  WriteFile(repo + "/a.txt", "feature\n");
  Git(repo, {"commit", "-q", "-am", "feature"});
  WriteFile(repo + "/c.txt", "wip\n");
  Git(repo, {"add", "c.txt"});

  auto diff = StartJson(repo, {"--kind", "base-diff", "--base", "main"});
  auto snapshot = Record(repo, diff["lineage"])["state"]["initial_snapshot"];
  CHECK(snapshot["kind"] == "base-diff");
  CheckSnapshotAgainstOracle(repo, snapshot, Trim(Git(repo, {"rev-parse", first + "^{tree}"})),
                             OracleWorkspaceTree(repo, {}));
  CHECK(snapshot["paths"] == nlohmann::json::array({"a.txt", "c.txt"}));

  auto range = StartJson(repo, {"--kind", "commit-range", "--base", "main", "--head", "feature"});
  auto rs = Record(repo, range["lineage"])["state"]["initial_snapshot"];
  CheckSnapshotAgainstOracle(repo, rs, Trim(Git(repo, {"rev-parse", "main^{tree}"})),
                             Trim(Git(repo, {"rev-parse", "feature^{tree}"})));
  CHECK(rs["paths"] == nlohmann::json::array({"a.txt"}));
}

TEST_CASE("start is idempotent: same lineage - same revision - nothing rewritten") {
  TempDir tmp;
  std::string repo = InitRepo(tmp.path());
  WriteFile(repo + "/a.txt", "changed\n");
  auto first = StartJson(repo);
  const std::string root = repo + "/.git/gentle-ai";
  auto before = HashTree(root);
  struct stat st1;
  const std::string record = root + "/review-transactions/v2/" +
                             first["lineage"].get<std::string>() + "/review-state.json";
  REQUIRE(stat(record.c_str(), &st1) == 0);
  auto second = StartJson(repo);
  CHECK(second["lineage"] == first["lineage"]);
  CHECK(second["revision"] == first["revision"]);
  CHECK(second["created"] == false);
  struct stat st2;
  REQUIRE(stat(record.c_str(), &st2) == 0);
  CHECK(st1.st_ino == st2.st_ino);
  CHECK(st1.st_mtim.tv_nsec == st2.st_mtim.tv_nsec);
  auto after = HashTree(root);
  after.erase("REVIEW-MAINTENANCE.lock");
  before.erase("REVIEW-MAINTENANCE.lock");
  after.erase("review-transactions/v2/LOCK");
  before.erase("review-transactions/v2/LOCK");
  CHECK(before == after);
}

TEST_CASE("start refuses an empty candidate - bad flags and bare repositories with usage") {
  TempDir tmp;
  std::string repo = InitRepo(tmp.path());
  RunResult empty = GentleAi({"review", "start", "--json"}, repo);
  CHECK(empty.exit_code == 2);
  auto error = nlohmann::json::parse(empty.out);
  CHECK(error["schema"] == "gentle-ai.review-error/v1");
  CHECK(error["error"]["code"] == "usage");
  CHECK(error["error"]["lineage"].is_null());
  CHECK(!error["error"]["message"].get<std::string>().empty());
  // Nothing was created for a refused start.
  CHECK(access((repo + "/.git/gentle-ai").c_str(), F_OK) != 0);

  RunResult bad_kind = GentleAi({"review", "start", "--kind", "everything"}, repo);
  CHECK(bad_kind.exit_code == 2);
  CHECK(bad_kind.err.rfind("gentle-ai: usage: ", 0) == 0);
  CHECK(GentleAi({"review", "start", "--head", "HEAD"}, repo).exit_code == 2);
  CHECK(GentleAi({"review", "start", "--untracked", "../outside"}, repo).exit_code == 2);
  CHECK(GentleAi({"review", "start", "--no-such-flag"}, repo).exit_code == 2);

  Git(tmp.path(), {"clone", "-q", "--bare", repo, tmp.path() + "/bare.git"});
  RunResult bare = GentleAi({"review", "start", "--json"}, tmp.path() + "/bare.git");
  CHECK(bare.exit_code == 2);
  CHECK(nlohmann::json::parse(bare.out)["error"]["code"] == "usage");
}

TEST_CASE("two processes starting the same candidate at once make one lineage and no torn file") {
  TempDir tmp;
  std::string repo = InitRepo(tmp.path());
  WriteFile(repo + "/a.txt", "raced\n");
  for (int round = 0; round < 3; ++round) {
    (void)store::RemoveTree(repo + "/.git/gentle-ai");
    std::vector<pid_t> children;
    for (int i = 0; i < 2; ++i) {
      pid_t pid = fork();
      REQUIRE(pid >= 0);
      if (pid == 0) {
        RunResult r = GentleAi({"review", "start", "--json"}, repo);
        _exit(r.exit_code);
      }
      children.push_back(pid);
    }
    for (pid_t pid : children) {
      int status = 0;
      waitpid(pid, &status, 0);
      CHECK(WIFEXITED(status));
      CHECK(WEXITSTATUS(status) == 0);
    }
    auto list = nlohmann::json::parse(GentleAi({"review", "list", "--json"}, repo).out);
    REQUIRE(list["lineages"].size() == 1);
    auto files = HashTree(repo + "/.git/gentle-ai/review-transactions/v2");
    for (const auto& [path, hash] : files) CHECK(path.find(".atomic-") == std::string::npos);
    CHECK(GentleAi({"review", "status", "--json"}, repo).exit_code == 0);
  }
}

}  // namespace gentle::testing

namespace gentle::testing {

TEST_CASE("a changed path that is not valid UTF-8 is refused - not recorded lossily") {
  TempDir tmp;
  std::string repo = InitRepo(tmp.path());
  WriteFile(repo + "/latin1-\xe9.txt", "x\n");
  Git(repo, {"add", "latin1-\xe9.txt"});
  RunResult r = GentleAi({"review", "start", "--json"}, repo);
  CHECK(r.exit_code == 2);
  CHECK(nlohmann::json::parse(r.out)["error"]["code"] == "usage");
  CHECK(access((repo + "/.git/gentle-ai/review-transactions/v2").c_str(), F_OK) != 0);
}

}  // namespace gentle::testing
