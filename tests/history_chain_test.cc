// Whole-chain verification of a history (store/history_chain.h, docs/format.md): what a
// fetched history must pass before any verb reads it. Histories are made by the real CLI; forged
// ones with git's own plumbing (hash-object, mktree, commit-tree), as an attacker would.
#include "store/history_chain.h"

#include <catch2/catch.hpp>
#include <sstream>

#include "store/git/repository.h"
#include "store/history_ref.h"
#include "tests/support/files.h"
#include "tests/support/git_env.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"

namespace gentle::testing {
namespace {

std::string GitOut(const LifecycleRepo& repo, const std::vector<std::string>& args,
                   const std::string& input = "") {
  std::vector<std::string> argv = {"git"};
  argv.insert(argv.end(), args.begin(), args.end());
  RunResult run = Run(argv, repo.root(), GitEnv(), input);
  INFO("git " << nlohmann::json(args).dump() << ": " << run.err);
  REQUIRE(run.exit_code == 0);
  return Trim(run.out);
}

store::git::Repository Open(const LifecycleRepo& repo) {
  auto opened = store::git::Repository::Discover(repo.root());
  REQUIRE(opened.ok());
  return std::move(opened).value();
}

std::vector<std::string> Verdict(const std::string& lineage, const std::string& verdict) {
  return {"verdict", "--lineage", lineage,    "--verdict", verdict,          "--actor",
          "ana",     "--role",    "reviewer", "--body",    "Looked at it.\n"};
}

// A copy of commit `id` whose review-state.json is `record` (other entries kept), with `parent`.
std::string ForgeCommit(const LifecycleRepo& repo, const std::string& id, const std::string& record,
                        const std::string& parent, const std::string& message) {
  const std::string blob = GitOut(repo, {"hash-object", "-w", "--stdin"}, record);
  std::string listing = GitOut(repo, {"ls-tree", id});
  std::istringstream lines(listing);
  std::string tree_input;
  for (std::string line; std::getline(lines, line);) {
    if (line.size() > 17 && line.substr(line.size() - 17) == "review-state.json") {
      line = "100644 blob " + blob + "\treview-state.json";
    }
    tree_input += line + "\n";
  }
  const std::string tree = GitOut(repo, {"mktree"}, tree_input);
  std::vector<std::string> args = {"commit-tree", tree, "-m", message};
  if (!parent.empty()) args.insert(args.end(), {"-p", parent});
  return GitOut(repo, args);
}

std::string ShowRecord(const LifecycleRepo& repo, const std::string& rev) {
  RunResult run = repo.Git({"cat-file", "blob", rev + ":review-state.json"});
  REQUIRE(run.exit_code == 0);
  return run.out;
}

TEST_CASE("history chain: a history the CLI wrote verifies whole from the tip down") {
  LifecycleRepo repo;
  const std::string lineage = repo.StartNew()["lineage"];
  REQUIRE(repo.Review(Verdict(lineage, "REQUEST_CHANGES")).exit_code == 0);
  REQUIRE(repo.Review(Verdict(lineage, "APPROVE")).exit_code == 0);
  const std::string tip = GitOut(repo, {"rev-parse", ReviewRef(lineage)});
  store::git::Repository git = Open(repo);
  auto chain = store::VerifyHistoryChain(git, lineage, tip);
  INFO(chain.status().message());
  REQUIRE(chain.ok());
  REQUIRE(chain->commits.size() == 3);
  CHECK(chain->tip().id == tip);
  CHECK(chain->commits[0].verb.text() == "verdict");
  CHECK(chain->commits[1].verb.text() == "verdict");
  CHECK(chain->commits[2].verb.text() == "start");
  CHECK(chain->record.state.name() == "approved");
  CHECK(chain->terminal.empty());
  CHECK(chain->record.revision ==
        nlohmann::json::parse(
            ReadFile(repo.store_root() + "/v2/" + lineage + "/review-state.json"))["revision"]);
}

TEST_CASE("history chain: a burned approval ends in a terminal burn holding the approved record") {
  LifecycleRepo repo;
  LifecycleRepo::Approved approved = repo.StartApproved();
  REQUIRE(repo.Review({"burn", "--lineage", approved.lineage, "--token", approved.token,
                       "--expected-revision", approved.revision})
              .exit_code == 0);
  store::git::Repository git = Open(repo);
  auto chain = store::VerifyHistoryChain(git, approved.lineage,
                                         GitOut(repo, {"rev-parse", ReviewRef(approved.lineage)}));
  INFO(chain.status().message());
  REQUIRE(chain.ok());
  CHECK(chain->terminal.Is(store::HistoryVerb::kBurn));
  CHECK(chain->record.state.name() == "approved");
  CHECK(chain->record.revision == approved.revision);
}

TEST_CASE("history chain: an edited record re-committed on the chain is corrupted") {
  LifecycleRepo repo;
  LifecycleRepo::Approved approved = repo.StartApproved();
  const std::string lineage = approved.lineage;
  const std::string tip = GitOut(repo, {"rev-parse", ReviewRef(lineage)});
  const std::string parent = GitOut(repo, {"rev-parse", tip + "^"});
  std::string record = ShowRecord(repo, tip);
  const std::string message = GitOut(repo, {"log", "-1", "--format=%B", tip});
  store::git::Repository git = Open(repo);

  SECTION("the state edited without a new revision") {
    const size_t at = record.find("\"approved\"");
    REQUIRE(at != std::string::npos);
    record.replace(at, 10, "\"reviewing\"");
    const std::string forged = ForgeCommit(repo, tip, record, parent, message);
    auto chain = store::VerifyHistoryChain(git, lineage, forged);
    REQUIRE(chain.status().code() == Code::kCorrupted);
    CHECK(chain.status().details().at("commit") == forged);
  }
  SECTION("a valid record of the parent under the tip's trailers") {
    const std::string forged = ForgeCommit(repo, tip, ShowRecord(repo, parent), parent, message);
    auto chain = store::VerifyHistoryChain(git, lineage, forged);
    REQUIRE(chain.status().code() == Code::kCorrupted);
    CHECK(chain.status().message().find("Revision trailer") != std::string::npos);
  }
  SECTION("a damaged commit below a sound tip") {
    const std::string parent_message = GitOut(repo, {"log", "-1", "--format=%B", parent});
    std::string parent_record = ShowRecord(repo, parent);
    parent_record.replace(parent_record.find("\"generation\": 1"), 15, "\"generation\": 7");
    const std::string bad_parent = ForgeCommit(repo, parent, parent_record, "", parent_message);
    const std::string forged = ForgeCommit(repo, tip, record, bad_parent, message);
    auto chain = store::VerifyHistoryChain(git, lineage, forged);
    REQUIRE(chain.status().code() == Code::kCorrupted);
    CHECK(chain.status().details().at("commit") == bad_parent);
  }
  SECTION("a merge commit") {
    const std::string tree = GitOut(repo, {"rev-parse", tip + "^{tree}"});
    const std::string forged =
        GitOut(repo, {"commit-tree", tree, "-p", parent, "-p", "HEAD", "-m", message});
    auto chain = store::VerifyHistoryChain(git, lineage, forged);
    REQUIRE(chain.status().code() == Code::kCorrupted);
    CHECK(chain.status().message().find("more than one parent") != std::string::npos);
  }
  SECTION("another lineage's history") {
    const std::string other = repo.StartNew()["lineage"];
    auto chain =
        store::VerifyHistoryChain(git, lineage, GitOut(repo, {"rev-parse", ReviewRef(other)}));
    REQUIRE(chain.status().code() == Code::kCorrupted);
  }
  SECTION("a commit that is not a history commit") {
    auto chain = store::VerifyHistoryChain(git, lineage, GitOut(repo, {"rev-parse", "HEAD"}));
    REQUIRE(chain.status().code() == Code::kCorrupted);
  }
}

// A commit read back keeps its subject's first word as written; a word that names no verb this
// store writes (a newer writer's, a case variant, an old pin's) is refused by the chain with the
// subject rule, never read as a known verb.
TEST_CASE("history chain: a subject's unknown verb is read as written and refused") {
  LifecycleRepo repo;
  const std::string lineage = repo.StartNew()["lineage"];
  const std::string tip = GitOut(repo, {"rev-parse", ReviewRef(lineage)});
  const std::string message = GitOut(repo, {"log", "-1", "--format=%B", tip});
  REQUIRE(message.rfind("start " + lineage + "\n", 0) == 0);
  store::git::Repository git = Open(repo);
  for (const std::string word : {"rebase", "Start", "pin"}) {
    INFO(word);
    const std::string forged = ForgeCommit(repo, tip, ShowRecord(repo, tip), "",
                                           word + message.substr(std::string("start").size()));
    auto commit = store::ReadHistoryCommit(git, forged);
    REQUIRE(commit.ok());
    CHECK(commit->verb.text() == word);
    CHECK_FALSE(commit->verb.value().has_value());
    CHECK_FALSE(commit->terminal());
    CHECK_FALSE(commit->legacy_pin);
    auto chain = store::VerifyHistoryChain(git, lineage, forged);
    REQUIRE(chain.status().code() == Code::kCorrupted);
    CHECK(chain.status().message().find("its subject is not \"<verb> " + lineage + "\"") !=
          std::string::npos);
  }
  // An old single-commit pin: no review-state.json; its verb reads as "pin".
  const std::string tree = GitOut(repo, {"mktree"}, "");
  const std::string pin = GitOut(repo, {"commit-tree", tree, "-m", "gentle-ai review pin"});
  auto commit = store::ReadHistoryCommit(git, pin);
  REQUIRE(commit.ok());
  CHECK(commit->legacy_pin);
  CHECK(commit->verb.text() == "pin");
  CHECK_FALSE(commit->verb.value().has_value());
}

TEST_CASE("history chain: fetched history refs are listed by lineage then remote") {
  LifecycleRepo repo;
  const std::string a = repo.StartNew()["lineage"];
  const std::string b = repo.StartNew()["lineage"];
  const std::string tip_a = GitOut(repo, {"rev-parse", ReviewRef(a)});
  const std::string tip_b = GitOut(repo, {"rev-parse", ReviewRef(b)});
  GitOut(repo, {"update-ref", "refs/gentle-ai/remotes/zeta/reviews/" + a, tip_a});
  GitOut(repo, {"update-ref", "refs/gentle-ai/remotes/origin/reviews/" + a, tip_a});
  GitOut(repo, {"update-ref", "refs/gentle-ai/remotes/origin/reviews/" + b, tip_b});
  // Names this store's fetch never makes are skipped.
  GitOut(repo, {"update-ref", "refs/gentle-ai/remotes/origin/reviews/Not_A_Lineage", tip_b});
  GitOut(repo, {"update-ref", "refs/gentle-ai/remotes/a/b/reviews/" + b, tip_b});
  store::git::Repository git = Open(repo);
  auto all = store::ListFetchedHistories(git, std::nullopt);
  REQUIRE(all.ok());
  std::vector<std::string> seen;
  for (const auto& h : *all) seen.push_back(h.lineage + " " + h.remote + " " + h.tip);
  std::vector<std::string> expected = {b + " origin " + tip_b, a + " origin " + tip_a,
                                       a + " zeta " + tip_a};
  if (a < b) expected = {a + " origin " + tip_a, a + " zeta " + tip_a, b + " origin " + tip_b};
  CHECK(seen == expected);
  auto one = store::ListFetchedHistories(git, b);
  REQUIRE(one.ok());
  REQUIRE(one->size() == 1);
  CHECK(one->front().remote == "origin");
  CHECK(store::FetchedHistoryRefName("origin", a) == "refs/gentle-ai/remotes/origin/reviews/" + a);
}

TEST_CASE("history chain: remote names must be one safe ref component") {
  for (const char* good : {"origin", "up-stream", "a.b", "R_2"}) {
    INFO(good);
    CHECK(store::ValidateRemoteName(good).ok());
  }
  for (const char* bad :
       {"", "-x", ".hidden", "a/b", "../x", "a..b", "x.lock", "x.", "a b", "a:b", "a*"}) {
    INFO(bad);
    CHECK(store::ValidateRemoteName(bad).code() == Code::kUsage);
  }
  CHECK(store::ValidateRemoteName(std::string(101, 'r')).code() == Code::kUsage);
}

}  // namespace
}  // namespace gentle::testing
