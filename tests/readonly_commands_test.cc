// Read-only proof: every read command (tests/support/read_commands.h: every verb
// tests/verb_registry_test.cc classifies as reading, in human and --json form, with --output to a
// file outside the repository where it has one), over several store states, leaves the whole git
// common dir byte-identical (HashTree before and after each command). The states are built by
// `review start` and, for the states that need the lifecycle verbs (approved, consumed, retired,
// historical-compat), by writing the files those verbs leave, as export_context_test.cc does; one
// state also has a seen ledger and a PR state in review-loop.sqlite for the loop's readers.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "store/digests.h"
#include "store/record.h"
#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/git_repo.h"
#include "tests/support/hostile.h"
#include "tests/support/process.h"
#include "tests/support/read_commands.h"
#include "tests/support/ssh_keys.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

struct Store {
  TempDir tmp;
  std::string repo;
  std::vector<std::string> lineages;  // live, damaged and absent lineages to read
  std::string common() const { return repo + "/.git"; }
  std::string root() const { return common() + "/gentle-ai/review-transactions"; }
  std::string record(const std::string& l) const {
    return root() + "/v2/" + l + "/review-state.json";
  }
};

std::string Start(const std::string& cwd, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args = {"review", "start", "--json"};
  args.insert(args.end(), extra.begin(), extra.end());
  RunResult r = GentleAi(args, cwd);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  return nlohmann::json::parse(r.out)["lineage"];
}

void RewriteState(const std::string& path, const std::function<void(nlohmann::ordered_json&)>& f) {
  auto doc = nlohmann::ordered_json::parse(ReadFile(path));
  nlohmann::ordered_json state = doc["state"];
  f(state);
  std::string revision;
  WriteFile(path, store::EncodeRecordFile(state, &revision));
}

// Every read command for the store's lineages; envelopes and a comment are written outside the
// repository first.
std::vector<std::vector<std::string>> ReadCommandsFor(const Store& s, const std::string& scratch) {
  ReadInputs in;
  in.lineages = s.lineages;
  in.scratch = scratch;
  in.comment = scratch + "/comment.md";
  WriteFile(in.comment, "not a comment\n");
  // A real key, so the approval policies run ssh-keygen (which writes only in a private temp dir).
  in.allowed_signers = scratch + "/allowed_signers";
  TempDir keys;
  WriteAllowedSigners(in.allowed_signers, {{"ana@example.com", MakeSshKey(keys, "ana")}});
  for (const auto& l : s.lineages) {
    RunResult e = GentleAi({"review", "export-context", "--json", "--lineage", l}, s.repo);
    if (e.exit_code != 0) continue;
    in.envelopes.push_back(scratch + "/" + l + ".envelope.json");
    WriteFile(in.envelopes.back(), e.out);
    RunResult c = GentleAi({"review", "comment", "--lineage", l}, s.repo);
    if (c.exit_code == 0) WriteFile(in.comment, c.out);
  }
  return ReadCommands(in);
}

// Runs every read command from every cwd and requires the common dir unchanged after each.
void ProveReadOnly(const Store& s, const std::vector<std::string>& cwds) {
  TempDir scratch;
  const auto commands = ReadCommandsFor(s, scratch.path());
  const auto before = HashTree(s.common());
  int runs = 0;
  for (const auto& cwd : cwds) {
    for (const auto& args : commands) {
      RunResult r = Hostile(args, cwd);
      std::string joined;
      for (const auto& a : args) joined += a + " ";
      INFO("in " << cwd << ": gentle-ai " << joined << "-> exit " << r.exit_code << "\n" << r.err);
      CHECK(r.exit_code >= 0);
      CHECK(r.exit_code <= 12);
      CHECK(r.exit_code != 1);  // internal: never expected
      REQUIRE(HashTree(s.common()) == before);
      ++runs;
    }
  }
  CHECK(runs == static_cast<int>(commands.size() * cwds.size()));
}

}  // namespace

TEST_CASE("read-only: a repository with no store") {
  Store s;
  s.repo = InitRepo(s.tmp.path());
  s.lineages = {"review-0123456789abcdef"};
  ProveReadOnly(s, {s.repo});
  CHECK_FALSE(std::filesystem::exists(s.common() + "/gentle-ai"));
}

TEST_CASE("read-only: a fresh store with one lineage - workspace moved on") {
  Store s;
  s.repo = InitRepo(s.tmp.path());
  WriteFile(s.repo + "/a.txt", "one\n");
  s.lineages = {Start(s.repo)};
  WriteFile(s.repo + "/a.txt", "two\n");  // the live target differs: status recomputes it
  ProveReadOnly(s, {s.repo});
}

TEST_CASE("read-only: several lineages of every kind - from the main and a linked worktree") {
  Store s;
  s.repo = InitRepo(s.tmp.path());
  WriteFile(s.repo + "/a.txt", "one\n");
  WriteFile(s.repo + "/untracked.txt", "intended\n");
  s.lineages.push_back(Start(s.repo, {"--untracked", "untracked.txt"}));
  Git(s.repo, {"add", "a.txt"});
  s.lineages.push_back(Start(s.repo, {"--staged"}));
  Git(s.repo, {"commit", "-q", "-m", "second"});
  s.lineages.push_back(
      Start(s.repo, {"--kind", "commit-range", "--base", "HEAD~1", "--head", "HEAD"}));
  Git(s.repo, {"worktree", "add", "-q", s.tmp.path() + "/sibling", "-b", "side"});
  WriteFile(s.tmp.path() + "/sibling/dir/b.txt", "from the sibling\n");
  s.lineages.push_back(Start(s.tmp.path() + "/sibling"));
  RewriteState(s.record(s.lineages[2]), [](auto& st) { st["state"] = "approved"; });
  // The loop's file, for seen and pr-state to read.
  for (const std::vector<std::string>& write : std::vector<std::vector<std::string>>{
           {"review", "seen", "baseline", "--pr", kReadPr, "--id", "3001"},
           {"review", "seen", "add", "--pr", kReadPr, "--id", "review:4001", "--posted"},
           {"review", "pr-state", "set", "--pr", kReadPr, "--phase", "reviewing", "--round", "1",
            "--asked", "a null check"}}) {
    RunResult r = GentleAi(write, s.repo);
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
  }
  ProveReadOnly(s, {s.repo, s.tmp.path() + "/sibling"});
}

TEST_CASE("read-only: corrupted - incomplete and historical-compat entries beside a live one") {
  Store s;
  s.repo = InitRepo(s.tmp.path());
  WriteFile(s.repo + "/a.txt", "one\n");
  const std::string live = Start(s.repo);
  WriteFile(s.repo + "/a.txt", "two\n");
  const std::string damaged = Start(s.repo);
  WriteFile(s.repo + "/a.txt", "three\n");
  const std::string compat = Start(s.repo);
  std::string bytes = ReadFile(s.record(damaged));
  bytes[bytes.find("\"reviewing\"") + 2] = 'E';
  WriteFile(s.record(damaged), bytes);
  RewriteState(s.record(compat), [](auto& st) {
    st["lens_results"] = nlohmann::ordered_json::array({{{"lens", "review-risk"}}});
  });
  const std::string incomplete = "review-00000000000000aa";
  std::filesystem::create_directory(s.root() + "/v2/" + incomplete);
  s.lineages = {live, damaged, compat, incomplete};
  ProveReadOnly(s, {s.repo});
}

TEST_CASE("read-only: consumed and retired lineages beside a live one") {
  Store s;
  s.repo = InitRepo(s.tmp.path());
  WriteFile(s.repo + "/a.txt", "one\n");
  const std::string burned = Start(s.repo);
  WriteFile(s.repo + "/a.txt", "two\n");
  const std::string abandoned = Start(s.repo);
  WriteFile(s.repo + "/a.txt", "three\n");
  const std::string live = Start(s.repo);
  // Burn: tombstone written, record and pin gone.
  auto record = nlohmann::json::parse(ReadFile(s.record(burned)));
  const std::string target = record["state"]["current_snapshot"]["identity"];
  const std::string repo_key = store::RepoKey(s.repo);
  std::filesystem::create_directories(s.root() + "/terminal-consumption/v1");
  WriteFile(s.root() + "/terminal-consumption/v1/" + store::TombstoneFileName(repo_key, target),
            "{\"schema\":\"gentle-ai.review-terminal-consumption/v1\",\"repository\":\"" +
                repo_key + "\",\"target\":\"" + target + "\",\"lineage\":\"" + burned + "\"}");
  std::filesystem::remove_all(s.root() + "/v2/" + burned);
  Git(s.repo, {"update-ref", "-d", "refs/gentle-ai/reviews/" + burned});
  // Abandon: moved into quarantine with a committed audit record.
  const std::string entry = s.root() + "/quarantine/" + abandoned + "-654321";
  std::filesystem::create_directories(entry);
  REQUIRE(rename((s.root() + "/v2/" + abandoned).c_str(), (entry + "/residue").c_str()) == 0);
  WriteFile(entry + "/reclaim-record.json",
            "{\n  \"schema\": \"gentle-ai.review-reclaim-record/v1\",\n  \"status\": "
            "\"committed\",\n  \"lineage_id\": \"" +
                abandoned + "\",\n  \"reason\": \"operator_disposition\"\n}\n");
  s.lineages = {burned, abandoned, live};
  ProveReadOnly(s, {s.repo});
}

}  // namespace gentle::testing
