// Read-only proof: every read command, in human and --json form, over several store states, leaves
// the whole git common dir byte-identical (HashTree before and after each command). The states are
// built by `review start` and, for the states that need the lifecycle verbs (approved, consumed,
// retired, historical-compat), by writing the files those verbs leave, as export_context_test.cc
// does. Read commands: status, status --lineage, list, export-context (native, --engine git,
// --output to a file outside the repository), verify --lineage [--against
// [--allow-trivial-rebase]], verify --envelope
// [--against], show (text, --json, --html --output outside the repository), and `review fsck`
// (human and --json; see kFsckCommands below).
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
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

// fsck (it exits non-zero on damaged states; what matters here is that it writes nothing).
const std::vector<std::vector<std::string>> kFsckCommands = {{"review", "fsck"},
                                                             {"review", "fsck", "--json"}};

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

// Every read command for the store's lineages; envelopes are written outside the repository first.
std::vector<std::vector<std::string>> ReadCommands(const Store& s, const std::string& scratch) {
  std::vector<std::vector<std::string>> out = {{"review", "status"},
                                               {"review", "status", "--json"},
                                               {"review", "list"},
                                               {"review", "list", "--json"}};
  for (const auto& l : s.lineages) {
    const std::string envelope = scratch + "/" + l + ".envelope.json";
    RunResult e = GentleAi({"review", "export-context", "--json", "--lineage", l}, s.repo);
    if (e.exit_code == 0) WriteFile(envelope, e.out);
    for (auto args : std::vector<std::vector<std::string>>{
             {"review", "status", "--lineage", l},
             {"review", "export-context", "--lineage", l},
             {"review", "export-context", "--lineage", l, "--engine", "git"},
             {"review", "export-context", "--lineage", l, "--output", scratch + "/out.patch"},
             {"review", "verify", "--lineage", l},
             {"review", "verify", "--lineage", l, "--against", "HEAD"},
             {"review", "verify", "--lineage", l, "--against", "HEAD", "--base-ref", "HEAD",
              "--allow-trivial-rebase"},
             {"review", "show", "--lineage", l}}) {
      out.push_back(args);
      args.push_back("--json");
      out.push_back(args);
    }
    out.push_back({"review", "show", "--lineage", l, "--html", "--output", scratch + "/show.html"});
    if (e.exit_code == 0) {
      out.push_back({"review", "verify", "--envelope", envelope});
      out.push_back({"review", "verify", "--json", "--envelope", envelope, "--against", "HEAD"});
    }
  }
  for (const auto& c : kFsckCommands) out.push_back(c);
  return out;
}

// Runs every read command from every cwd and requires the common dir unchanged after each.
void ProveReadOnly(const Store& s, const std::vector<std::string>& cwds) {
  TempDir scratch;
  const auto commands = ReadCommands(s, scratch.path());
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
