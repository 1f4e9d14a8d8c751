#include "tests/support/hostile.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "store/digests.h"
#include "store/go_json.h"
#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/git_repo.h"

namespace gentle::testing {

RunResult Hostile(const std::vector<std::string>& args, const std::string& cwd, int timeout_s) {
  // GENTLE_HOSTILE_LOG=FILE counts the runs for docs/reliability.md (one line per command).
  if (const char* log = std::getenv("GENTLE_HOSTILE_LOG")) {
    std::ofstream(log, std::ios::app)
        << args.size() << " " << (args.size() > 1 ? args[1] : "") << "\n";
  }
  return GentleAi(args, cwd, {{"GENTLE_LOCK_TIMEOUT_MS", "200"}}, {}, timeout_s * 1000);
}

nlohmann::json ExpectOutcome(const std::vector<std::string>& args, const std::string& cwd,
                             int exit_code, const std::string& code,
                             const std::vector<std::string>& untouched,
                             const std::vector<std::string>& may_change, int timeout_s) {
  std::vector<std::string> with_json = args;
  with_json.push_back("--json");
  // The git common dir of cwd: tests always run in a worktree root or a linked worktree of a
  // repository whose .git is a directory named by the caller via `untouched`, or cwd/.git.
  std::vector<std::string> trees = untouched;
  const bool has_git = std::filesystem::is_directory(cwd + "/.git");
  if (has_git) trees.push_back(cwd + "/.git");
  auto allowed = [&](size_t tree, const std::string& path) {
    if (!has_git || tree + 1 != trees.size()) return false;
    for (const auto& prefix : may_change) {
      if (path.compare(0, prefix.size(), prefix) == 0) return true;
    }
    return false;
  };
  std::vector<std::map<std::string, std::string>> before;
  for (const auto& t : trees) before.push_back(HashTree(t));
  RunResult r = Hostile(with_json, cwd, timeout_s);
  std::string joined;
  for (const auto& a : with_json) joined += a + " ";
  INFO("gentle-ai " << joined << "\nexit " << r.exit_code << "\nstdout: " << r.out.substr(0, 2000)
                    << "\nstderr: " << r.err.substr(0, 2000));
  REQUIRE_FALSE(r.timed_out);
  CHECK(r.exit_code == exit_code);
  for (size_t i = 0; i < trees.size(); ++i) {
    const auto after = HashTree(trees[i]);
    std::string changed;
    for (const auto& [path, hash] : after) {
      auto it = before[i].find(path);
      if ((it == before[i].end() || it->second != hash) && !allowed(i, path)) {
        changed += " " + path;
      }
    }
    for (const auto& [path, hash] : before[i]) {
      if (!after.count(path) && !allowed(i, path)) changed += " -" + path;
    }
    INFO("modified under " << trees[i] << ":" << changed);
    CHECK(changed.empty());
  }
  auto doc = nlohmann::json::parse(r.out, nullptr, false);
  REQUIRE_FALSE(doc.is_discarded());
  if (exit_code != 0) {
    CHECK(doc["schema"] == "gentle-ai.review-error/v1");
    CHECK(doc["error"]["code"] == code);
  }
  return doc;
}

std::vector<std::string> StartMayChange(bool objects) {
  std::vector<std::string> out = {"gentle-ai/review-transactions/v2/LOCK"};
  if (objects) out.push_back("objects/");
  return out;
}

std::vector<std::vector<std::string>> LineageReaders(const std::string& lineage) {
  return {{"review", "status", "--lineage", lineage},
          {"review", "export-context", "--lineage", lineage},
          {"review", "verify", "--lineage", lineage}};
}

StoreFixture::StoreFixture() {
  repo = InitRepo(tmp.path());
  WriteFile(repo + "/a.txt", "alpha\nchanged\n");
  RunResult r = GentleAi({"review", "start", "--json"}, repo);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  lineage = nlohmann::json::parse(r.out)["lineage"];
}

std::string RecordWithRawState(const std::string& state_text) {
  const std::string revision = store::StateRevision(store::CompactJson(state_text));
  return "{\n  \"schema\": \"gentle-ai.review-state-record/v2\",\n  \"revision\": \"" + revision +
         "\",\n  \"state\": " + state_text + "\n}\n";
}

void ExpectFsckFinding(const std::string& cwd, const std::string& lineage) {
  auto before = HashTree(cwd + "/.git");
  RunResult r = GentleAi({"review", "fsck", "--json"}, cwd);
  INFO("fsck: " << r.out << r.err);
  CHECK(r.exit_code == 7);
  auto doc = nlohmann::json::parse(r.out);
  CHECK(doc["clean"] == false);
  bool named = false;
  for (const auto& finding : doc["findings"]) named |= finding["lineage"] == lineage;
  CHECK(named);
  CHECK(HashTree(cwd + "/.git") == before);
}

}  // namespace gentle::testing
