// The CI recipe of docs/ci.md, end to end (docs/ci.md, docs/format.md): a reviewer's clone
// approves, commits the reviewed tree with a Review-Lineage trailer and pushes the branch and the
// review history to a bare origin; a fresh CI clone runs scripts/ci-verify.sh, the recipe itself,
// with the released gentle-ai binary. Over file:// and over git daemon on 127.0.0.1.
#include <catch2/catch.hpp>

#include "tests/support/files.h"
#include "tests/support/git_daemon.h"
#include "tests/support/git_env.h"
#include "tests/support/git_repo.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

std::string GitOk(const std::string& repo, const std::vector<std::string>& args) {
  RunResult run = GitRun(repo, args);
  INFO("git " << nlohmann::json(args).dump() << ": " << run.err);
  REQUIRE(run.exit_code == 0);
  return Trim(run.out);
}

struct Key {
  std::string file;
  std::string public_key;
};

Key MakeKey(const TempDir& dir, const std::string& name) {
  const std::string file = dir.path() + "/" + name;
  RunResult made = Run({"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", file});
  INFO(made.err);
  REQUIRE(made.exit_code == 0);
  return {file, Trim(ReadFile(file + ".pub"))};
}

// The reviewer's side of docs/ci.md: on a new branch from main, change a.txt (and the branch's
// own copy of .github/allowed_signers to `own_signers` when given), start, give `verdict` (signed
// with `key` when given), commit the reviewed tree with the trailer, push the branch and the
// lineage's history. Returns the lineage.
std::string Review(LifecycleRepo& dev, const std::string& branch, const std::string& verdict,
                   const Key* key, const std::string& own_signers = "") {
  GitOk(dev.root(), {"checkout", "-q", "-b", branch, "main"});
  dev.Write("a.txt", "reviewed on " + branch + "\n");
  if (!own_signers.empty()) dev.Write(".github/allowed_signers", own_signers);
  RunResult started = dev.Review({"start"});
  INFO(started.out << started.err);
  REQUIRE(started.exit_code == 0);
  const std::string lineage = started.Json()["lineage"];
  std::vector<std::string> args = {
      "verdict", "--lineage", lineage,  "--verdict", verdict, "--actor", "ana@example.invalid",
      "--role",  "reviewer",  "--body", "Read it."};
  if (key != nullptr) {
    GitOk(dev.root(), {"config", "gpg.format", "ssh"});
    GitOk(dev.root(), {"config", "user.signingKey", key->file});
    args.push_back("--sign");
  }
  RunResult decided = dev.Review(args);
  INFO(decided.out << decided.err);
  REQUIRE(decided.exit_code == 0);
  GitOk(dev.root(),
        {"commit", "-q", "-am", "change on " + branch, "--trailer", "Review-Lineage: " + lineage});
  GitOk(dev.root(), {"push", "-q", "origin", branch});
  RunResult pushed = dev.Review({"push", "--remote", "origin", "--lineage", lineage});
  INFO(pushed.out << pushed.err);
  REQUIRE(pushed.exit_code == 0);
  return lineage;
}

// Runs the recipe in `ci` on origin/<branch>; returns its result.
RunResult RunRecipe(const std::string& ci, const std::string& branch,
                    const std::string& allowed_signers = "") {
  GitOk(ci, {"checkout", "-q", "--detach", "origin/" + branch});
  Env env = GitEnv();
  env["GENTLE_AI"] = GENTLE_AI_RELEASE_BIN;
  std::vector<std::string> argv = {"sh", std::string(GENTLE_SOURCE_DIR) + "/scripts/ci-verify.sh",
                                   "origin"};
  if (!allowed_signers.empty()) argv.push_back(allowed_signers);
  return Run(argv, ci, env);
}

void ExpectRefused(const RunResult& run, int exit_code, const std::string& code) {
  INFO(run.out << run.err);
  CHECK(run.exit_code == exit_code);
  CHECK(run.Json()["error"]["code"] == code);
}

// The whole recipe against an origin reachable at `url` (its bare repository at `bare`).
void RunScenarios(const std::string& url, const std::string& bare, const TempDir& keys) {
  const Key trusted = MakeKey(keys, "trusted");
  const Key stranger = MakeKey(keys, "stranger");
  // The signers file is the base branch's copy (docs/ci.md, "Whose signers file"): CI reads it
  // from origin/main, never from the pull request's worktree.
  const std::string signers = "ana@example.invalid " + trusted.public_key + "\n";
  const std::string allowed = "origin/main:.github/allowed_signers";

  LifecycleRepo dev;
  GitOk(dev.root(), {"remote", "add", "origin", url});
  dev.Write(".github/allowed_signers", signers);
  GitOk(dev.root(), {"add", ".github/allowed_signers"});
  GitOk(dev.root(), {"commit", "-q", "-m", "allowed signers"});
  GitOk(dev.root(), {"push", "-q", "origin", "main"});
  const std::string approved = Review(dev, "approved", "APPROVE", &trusted);
  const std::string unapproved = Review(dev, "unapproved", "REQUEST_CHANGES", nullptr);
  Review(dev, "unsigned", "APPROVE", nullptr);
  // The stranger's pull request lists the stranger's key in its own copy of the file.
  Review(dev, "stranger", "APPROVE", &stranger,
         signers + "ana@example.invalid " + stranger.public_key + "\n");

  TempDir ci_dir;
  const std::string ci = ci_dir.path() + "/ci";
  GitOk(ci_dir.path(), {"clone", "-q", url, ci});

  SECTION("approved and merged: 0") {
    RunResult run = RunRecipe(ci, "approved", allowed);
    INFO(run.out << run.err);
    REQUIRE(run.exit_code == 0);
    const nlohmann::json out = run.Json();
    CHECK(out["verified"] == true);
    CHECK(out["lineage"] == approved);
    CHECK(out["state"] == "approved");
    CHECK(out["source"] == "origin");
    CHECK(out["consumed"] == false);
    CHECK(out["against_tree"] == GitOk(ci, {"rev-parse", "HEAD^{tree}"}));
    CHECK(RunRecipe(ci, "approved").exit_code == 0);  // without the signature requirement
  }
  SECTION("another tree: not_reviewed") {
    GitOk(ci, {"checkout", "-q", "--detach", "origin/approved"});
    WriteFile(ci + "/extra.txt", "not reviewed\n");
    GitOk(ci, {"add", "extra.txt"});
    GitOk(ci, {"commit", "-q", "-m", "more", "--trailer", "Review-Lineage: " + approved});
    Env env = GitEnv();
    env["GENTLE_AI"] = GENTLE_AI_RELEASE_BIN;
    RunResult run =
        Run({"sh", std::string(GENTLE_SOURCE_DIR) + "/scripts/ci-verify.sh", "origin"}, ci, env);
    ExpectRefused(run, 10, "not_reviewed");
  }
  SECTION("cherry-picked onto a newer main: accepted with --allow-trivial-rebase") {
    GitOk(ci, {"checkout", "-q", "-b", "newer", "origin/main"});
    WriteFile(ci + "/upstream.txt", "merged upstream meanwhile\n");
    GitOk(ci, {"add", "upstream.txt"});
    GitOk(ci, {"commit", "-q", "-m", "upstream"});
    GitOk(ci, {"checkout", "-q", "--detach", "newer"});
    GitOk(ci, {"cherry-pick", "origin/approved"});  // keeps the Review-Lineage trailer
    Env env = GitEnv();
    env["GENTLE_AI"] = GENTLE_AI_RELEASE_BIN;
    const std::string script = std::string(GENTLE_SOURCE_DIR) + "/scripts/ci-verify.sh";
    ExpectRefused(Run({"sh", script, "origin"}, ci, env), 10, "not_reviewed");
    RunResult run =
        Run({"sh", script, "--base-ref", "newer", "--allow-trivial-rebase", "origin", allowed}, ci,
            env);
    INFO(run.out << run.err);
    REQUIRE(run.exit_code == 0);
    const nlohmann::json out = run.Json();
    CHECK(out["lineage"] == approved);
    CHECK(out["match"] == "trivial_rebase");
    CHECK(out["rebase"]["base_commit"] == GitOk(ci, {"rev-parse", "newer"}));
    CHECK(out["against_tree"] == GitOk(ci, {"rev-parse", "HEAD^{tree}"}));
    CHECK(out["signature"]["principal"] == "ana@example.invalid");
    ExpectRefused(Run({"sh", script, "--allow-trivial-rebase", "origin"}, ci, env), 2, "usage");
  }
  SECTION("unapproved: wrong_state") {
    ExpectRefused(RunRecipe(ci, "unapproved"), 6, "wrong_state");
  }
  SECTION("unsigned with --require-signature: untrusted") {
    CHECK(RunRecipe(ci, "unsigned").exit_code == 0);
    ExpectRefused(RunRecipe(ci, "unsigned", allowed), 10, "untrusted");
  }
  SECTION("signed by a key only the pull request's own copy lists: untrusted") {
    ExpectRefused(RunRecipe(ci, "stranger", allowed), 10, "untrusted");
    // The worktree's copy is the pull request's: it would let the stranger in.
    CHECK(RunRecipe(ci, "stranger", ".github/allowed_signers").exit_code == 0);
  }
  SECTION("a tampered history: corrupted") {
    // Someone with push access edits the unapproved record to say approved and re-commits it.
    const std::string ref = "refs/gentle-ai/reviews/" + unapproved;
    const std::string tip = GitOk(bare, {"rev-parse", ref});
    std::string record = GitOk(bare, {"cat-file", "blob", tip + ":review-state.json"}) + "\n";
    const size_t at = record.find("\"correction_required\"");
    REQUIRE(at != std::string::npos);
    record.replace(at, 21, "\"approved\"");
    RunResult blob = Run({"git", "hash-object", "-w", "--stdin"}, bare, GitEnv(), record);
    REQUIRE(blob.exit_code == 0);
    std::string listing = GitOk(bare, {"ls-tree", tip}) + "\n";
    const size_t name = listing.find("\treview-state.json");
    const size_t line = listing.rfind('\n', name) + 1;
    listing.replace(line, name - line, "100644 blob " + Trim(blob.out));
    RunResult tree = Run({"git", "mktree"}, bare, GitEnv(), listing);
    REQUIRE(tree.exit_code == 0);
    const std::string message = GitOk(bare, {"log", "-1", "--format=%B", tip});
    const std::string forged =
        GitOk(bare, {"commit-tree", Trim(tree.out), "-p", tip + "^", "-m", message});
    GitOk(bare, {"update-ref", ref, forged});
    ExpectRefused(RunRecipe(ci, "unapproved"), 7, "corrupted");
  }
}

TEST_CASE("ci recipe: a bare origin over file://") {
  TempDir base;
  TempDir keys;
  const std::string bare = base.path() + "/origin.git";
  GitOk(base.path(), {"init", "-q", "--bare", "-b", "main", bare});
  RunScenarios("file://" + bare, bare, keys);
}

TEST_CASE("ci recipe: a bare origin over git daemon on 127.0.0.1") {
  TempDir base;
  TempDir keys;
  const std::string bare = base.path() + "/origin.git";
  GitOk(base.path(), {"init", "-q", "--bare", "-b", "main", bare});
  GitDaemon daemon(base.path());
  RunScenarios(daemon.Url("origin.git"), bare, keys);
}

}  // namespace
}  // namespace gentle::testing
