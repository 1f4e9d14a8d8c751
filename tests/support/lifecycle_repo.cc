#include "tests/support/lifecycle_repo.h"

#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <sstream>

#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/git_repo.h"

namespace gentle::testing {
namespace fs = std::filesystem;

LifecycleRepo::LifecycleRepo() : root_(dir_.path() + "/repo") {
  fs::create_directories(root_);
  REQUIRE(Git({"init", "-q", "-b", "main"}).exit_code == 0);
  Git({"config", "user.email", "t@example.invalid"});
  Git({"config", "user.name", "t"});
  Write("a.txt", "one\n");
  REQUIRE(Git({"add", "a.txt"}).exit_code == 0);
  REQUIRE(Git({"commit", "-q", "-m", "init"}).exit_code == 0);
}

LifecycleRepo::LifecycleRepo(CloneOf clone) : root_(dir_.path() + "/clone") {
  REQUIRE(GitRun(dir_.path(), {"clone", "-q", clone.origin.root(), root_}).exit_code == 0);
  Git({"config", "user.email", "t@example.invalid"});
  Git({"config", "user.name", "t"});
}

RunResult LifecycleRepo::Git(const std::vector<std::string>& args) const {
  return GitRun(root_, args);
}

std::string LifecycleRepo::GitOk(const std::vector<std::string>& args,
                                 const std::string& input) const {
  RunResult run = GitRun(root_, args, {}, input);
  INFO("git " << nlohmann::json(args).dump() << ": " << run.err);
  REQUIRE(run.exit_code == 0);
  return run.out;
}

std::string ReviewRef(const std::string& lineage) { return "refs/gentle-ai/reviews/" + lineage; }

std::vector<std::string> LifecycleRepo::ReviewArgs(const std::vector<std::string>& args,
                                                   bool json) const {
  std::vector<std::string> full = {"review"};
  full.insert(full.end(), args.begin(), args.end());
  full.push_back("--cwd");
  full.push_back(root_);
  if (json) full.push_back("--json");
  return full;
}

RunResult LifecycleRepo::Review(const std::vector<std::string>& args, const Env& env,
                                bool json) const {
  Env full = {{"GENTLE_LOCK_TIMEOUT_MS", "2000"}};
  for (const auto& [k, v] : env) full[k] = v;
  return GentleAi(ReviewArgs(args, json), root_, full);
}

void LifecycleRepo::Write(const std::string& relative, const std::string& content) const {
  WriteFile(root_ + "/" + relative, content);
}

nlohmann::json LifecycleRepo::RecordState(const std::string& lineage) const {
  return nlohmann::json::parse(ReadFile(record_path(lineage)))["state"];
}

nlohmann::json LifecycleRepo::ReviewOk(const std::vector<std::string>& args) const {
  RunResult run = Review(args);
  INFO("args: " << nlohmann::json(args).dump() << "\nstdout: " << run.out
                << "\nstderr: " << run.err);
  REQUIRE(run.exit_code == 0);
  return run.Json();
}

void LifecycleRepo::ExpectRefused(const std::vector<std::string>& args, const std::string& code,
                                  int exit_code) const {
  auto before = StoreBytes();
  RunResult run = Review(args);
  INFO("args: " << nlohmann::json(args).dump() << "\nstdout: " << run.out
                << "\nstderr: " << run.err);
  CHECK(run.exit_code == exit_code);
  CHECK(run.Json()["schema"] == "gentle-ai.review-error/v1");
  CHECK(run.Json()["error"]["code"] == code);
  CHECK(StoreBytes() == before);
}

nlohmann::json LifecycleRepo::StartNew() {
  Write("change-" + std::to_string(++counter_) + ".txt", "change\n");
  RunResult run = Review({"start", "--untracked", "change-" + std::to_string(counter_) + ".txt"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  return run.Json();
}

LifecycleRepo::Approved LifecycleRepo::StartApproved() {
  nlohmann::json started = StartNew();
  const std::string lineage = started["lineage"];
  RunResult run = Review({"verdict", "--lineage", lineage, "--verdict", "APPROVE", "--actor", "ana",
                          "--role", "reviewer", "--body", "looks good"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  nlohmann::json v = run.Json();
  return {lineage, v["revision"], v["token"]};
}

std::map<std::string, std::string> LifecycleRepo::StoreBytes() const {
  std::map<std::string, std::string> out;
  const fs::path base = common_dir() + "/gentle-ai";
  if (fs::exists(base)) {
    for (const auto& entry : fs::recursive_directory_iterator(base)) {
      const std::string rel = fs::relative(entry.path(), base).string();
      struct stat st;
      lstat(entry.path().c_str(), &st);
      std::string value = "mode=" + std::to_string(st.st_mode) + ";";
      if (entry.is_regular_file()) value += ReadFile(entry.path().string());
      out[rel] = value;
    }
  }
  out["<refs>"] = Git({"for-each-ref", "refs/gentle-ai"}).out;
  return out;
}

std::vector<std::string> TraceFaultPoints(const LifecycleRepo& repo,
                                          const std::vector<std::string>& args) {
  TempDir dir;
  const std::string trace = dir.path() + "/trace";
  RunResult run = repo.Review(args, {{"GENTLE_FAULT_TRACE", trace}});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  std::vector<std::string> points;
  std::istringstream lines(ReadFile(trace));
  for (std::string line; std::getline(lines, line);) points.push_back(line);
  return points;
}

Answers StartThreeKinds(LifecycleRepo& repo) {
  const std::string live = repo.StartNew()["lineage"];
  auto approved = repo.StartApproved();
  REQUIRE(repo.Review({"burn", "--lineage", approved.lineage, "--token", approved.token,
                       "--expected-revision", approved.revision})
              .exit_code == 0);
  const std::string abandoned = repo.StartNew()["lineage"];
  REQUIRE(repo.Review({"abandon", "--lineage", abandoned, "--reason", "operator_disposition",
                       "--actor", "ops"})
              .exit_code == 0);
  return {{live, 0}, {approved.lineage, 4}, {abandoned, 5}};
}

void ExpectAnswers(const LifecycleRepo& repo, const Answers& answers) {
  if (answers.empty()) return;
  RunResult list = repo.Review({"list"});
  INFO("list: " << list.out << list.err);
  REQUIRE(list.exit_code == 0);
  const nlohmann::json listed = list.Json();
  for (const auto& [lineage, exit_code] : answers) {
    INFO("lineage " << lineage);
    RunResult status = repo.Review({"status", "--lineage", lineage});
    INFO("status: " << status.out << status.err);
    CHECK(status.exit_code == exit_code);
    RunResult exported = repo.Review({"export-context", "--lineage", lineage});
    INFO("export-context: " << exported.out.substr(0, 300) << exported.err);
    CHECK(exported.exit_code == exit_code);
    std::string state;
    for (const auto& entry : listed["lineages"]) {
      if (entry["lineage"] == lineage) state = entry["state"];
    }
    INFO("listed as: " << state);
    if (exit_code == 4) CHECK(state == "consumed");
    if (exit_code == 5) CHECK(state == "retired");
    if (exit_code == 0) CHECK((!state.empty() && state != "consumed" && state != "retired"));
  }
}

void ExpectFsckClean(const LifecycleRepo& repo) {
  RunResult fsck = repo.Review({"fsck"});
  INFO("fsck: " << fsck.out << fsck.err);
  CHECK(fsck.exit_code == 0);
  CHECK(fsck.Json()["clean"] == true);
}

void ExpectNextWriterRecovers(LifecycleRepo& repo, const Answers& answers) {
  ExpectAnswers(repo, answers);
  repo.StartNew();
  ExpectFsckClean(repo);
  ExpectAnswers(repo, answers);
}

}  // namespace gentle::testing
