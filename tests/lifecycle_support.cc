#include "tests/lifecycle_support.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "store/audit_record.h"
#include "store/digests.h"
#include "store/go_marshal.h"
#include "store/record.h"
#include "store/tombstone.h"

namespace gentle::testing::life {
namespace fs = std::filesystem;

nlohmann::json Run::Json() const {
  INFO("stdout: " << out << "\nstderr: " << err);
  auto doc = nlohmann::json::parse(out, nullptr, false);
  REQUIRE_FALSE(doc.is_discarded());
  return doc;
}

int SpawnToFiles(const std::string& program, const std::vector<std::string>& args,
                 const std::string& cwd, const Env& env, const std::string& out_path,
                 const std::string& err_path) {
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    int out = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(out, 1);
    dup2(err, 2);
    if (chdir(cwd.c_str()) != 0) _exit(127);
    for (const auto& [key, value] : env) setenv(key.c_str(), value.c_str(), 1);
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(program.c_str()));
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execvp(program.c_str(), argv.data());
    _exit(127);
  }
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

Run Exec(const std::string& program, const std::vector<std::string>& args, const std::string& cwd,
         const Env& env) {
  TempDir capture;
  const std::string out_path = capture.path() + "/out", err_path = capture.path() + "/err";
  Run run;
  run.exit_code = SpawnToFiles(program, args, cwd, env, out_path, err_path);
  REQUIRE(run.exit_code >= 0);
  run.out = ReadFile(out_path);
  run.err = ReadFile(err_path);
  return run;
}

TempDir::TempDir() {
  std::string pattern = (fs::temp_directory_path() / "lifecycle.XXXXXX").string();
  REQUIRE(mkdtemp(pattern.data()) != nullptr);
  path_ = fs::canonical(pattern).string();
}

TempDir::~TempDir() {
  std::error_code ignored;
  fs::remove_all(path_, ignored);
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void WriteFile(const std::string& path, const std::string& bytes) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

bool Exists(const std::string& path) {
  struct stat st;
  return lstat(path.c_str(), &st) == 0;
}

LifecycleRepo::LifecycleRepo() : root_(dir_.path() + "/repo") {
  fs::create_directories(root_);
  REQUIRE(Git({"init", "-q", "-b", "main"}).exit_code == 0);
  Git({"config", "user.email", "t@example.invalid"});
  Git({"config", "user.name", "t"});
  Write("a.txt", "one\n");
  REQUIRE(Git({"add", "a.txt"}).exit_code == 0);
  REQUIRE(Git({"commit", "-q", "-m", "init"}).exit_code == 0);
}

Run LifecycleRepo::Git(const std::vector<std::string>& args) const {
  return Exec("git", args, root_,
              {{"GIT_CONFIG_NOSYSTEM", "1"}, {"GIT_CONFIG_GLOBAL", "/dev/null"}});
}

Run LifecycleRepo::Review(std::vector<std::string> args, const Env& env, bool json) const {
  args.insert(args.begin(), "review");
  args.push_back("--cwd");
  args.push_back(root_);
  if (json) args.push_back("--json");
  Env full = {{"GENTLE_LOCK_TIMEOUT_MS", "2000"}};
  full.insert(full.end(), env.begin(), env.end());
  return Exec(GENTLE_AI_BIN, args, root_, full);
}

void LifecycleRepo::Write(const std::string& relative, const std::string& content) const {
  WriteFile(root_ + "/" + relative, content);
}

nlohmann::json LifecycleRepo::StartNew() {
  Write("change-" + std::to_string(++counter_) + ".txt", "change\n");
  Run run = Review({"start", "--untracked", "change-" + std::to_string(counter_) + ".txt"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  return run.Json();
}

LifecycleRepo::Approved LifecycleRepo::StartApproved() {
  nlohmann::json started = StartNew();
  const std::string lineage = started["lineage"];
  Run run = Review({"verdict", "--lineage", lineage, "--verdict", "APPROVE", "--actor", "ana",
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
  Run run = repo.Review(args, {{"GENTLE_FAULT_TRACE", trace}});
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
  Run list = repo.Review({"list"});
  INFO("list: " << list.out << list.err);
  REQUIRE(list.exit_code == 0);
  const nlohmann::json listed = list.Json();
  for (const auto& [lineage, exit_code] : answers) {
    INFO("lineage " << lineage);
    Run status = repo.Review({"status", "--lineage", lineage});
    INFO("status: " << status.out << status.err);
    CHECK(status.exit_code == exit_code);
    Run exported = repo.Review({"export-context", "--lineage", lineage});
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

namespace {

using OJson = nlohmann::ordered_json;

std::string Trim(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text;
}

struct GoTarget {
  std::string base_commit, head_commit;
  OJson snapshot;
  std::string identity;
  std::vector<std::string> paths;
};

// A new commit adding `file`; the snapshot of HEAD~1..HEAD as gentle-ai records it.
GoTarget CommitTarget(LifecycleRepo& repo, const std::string& file, bool generated_summary) {
  GoTarget t;
  t.base_commit = Trim(repo.Git({"rev-parse", "HEAD"}).out);
  repo.Write(file, "content of " + file + "\n");
  REQUIRE(repo.Git({"add", file}).exit_code == 0);
  REQUIRE(repo.Git({"commit", "-q", "-m", file}).exit_code == 0);
  t.head_commit = Trim(repo.Git({"rev-parse", "HEAD"}).out);
  const std::string base = Trim(repo.Git({"rev-parse", t.base_commit + "^{tree}"}).out);
  const std::string cand = Trim(repo.Git({"rev-parse", t.head_commit + "^{tree}"}).out);
  t.paths = {file};
  const std::string digest = store::PathsDigest(t.paths);
  t.identity = store::SnapshotIdentity({"commit-range", "", base, cand, digest, {}});
  OJson& s = t.snapshot;
  s["kind"] = "commit-range";
  if (generated_summary) s["generated_path_interpretation"] = "generated-summary/v1";
  s["base_tree"] = base;
  s["candidate_tree"] = cand;
  s["paths_digest"] = digest;
  s["intended_untracked"] = OJson::array();
  s["intended_untracked_proof"] = store::IntendedUntrackedProof({});
  s["paths"] = t.paths;
  s["identity"] = t.identity;
  return t;
}

// Replaces "@name" placeholders anywhere in `value`.
OJson Fill(const OJson& value, const std::map<std::string, OJson>& vars) {
  if (value.is_string()) {
    auto it = vars.find(value.get<std::string>());
    return it != vars.end() ? it->second : value;
  }
  if (value.is_object()) {
    OJson out = OJson::object();
    for (const auto& item : value.items()) out[item.key()] = Fill(item.value(), vars);
    return out;
  }
  if (value.is_array()) {
    OJson out = OJson::array();
    for (const auto& item : value) out.push_back(Fill(item, vars));
    return out;
  }
  return value;
}

void WriteGoFile(const std::string& path, const std::string& bytes) {
  WriteFile(path, bytes);
  chmod(path.c_str(), 0644);
}

std::string GoRecord(LifecycleRepo& repo, const std::string& lineage, const std::string& state_name,
                     const GoTarget& t, const std::string& token, bool historical) {
  const OJson extras = OJson::parse(
      ReadFile(std::string(GENTLE_FIXTURES_DIR) + "/gostore/compact-state-extras.json"));
  const std::string root = repo.root();
  const std::string worktree_identity = store::WorktreeIdentity(
      store::WorktreeIdentityJson(root, repo.common_dir(), repo.common_dir()));
  const std::map<std::string, OJson> vars = {{"@paths", t.paths},
                                             {"@identity", t.identity},
                                             {"@lineage", lineage},
                                             {"@worktree_identity", worktree_identity},
                                             {"@base_commit", t.base_commit},
                                             {"@head_commit", t.head_commit}};
  OJson state;
  state["schema"] = "gentle-ai.review-state/v2";
  state["lineage_id"] = lineage;
  state["generation"] = 1;
  state["state"] = state_name;
  state["initial_snapshot"] = t.snapshot;
  state["current_snapshot"] = t.snapshot;
  const OJson filled = Fill(extras, vars);
  for (const auto& item : filled.items()) {
    if (historical && item.key() == "fix_finding_ids") {
      state["lens_results"] = OJson::array({{{"lens", "review-risk"}, {"status", "passed"}}});
    }
    state[item.key()] = item.value();
    if (item.key() == "targeted_validator_attempts" && !token.empty()) {
      state["approved_ack_token"] = token;
    }
  }
  std::string revision;
  return store::EncodeRecordFile(state, &revision);
}

}  // namespace

GoStore BuildGoStore(LifecycleRepo& repo) {
  GoStore g;
  g.live = "review-90000000000000a1";
  g.approved = "review-90000000000000a2";
  g.approved_token = std::string(32, 'a') + std::string(32, '7');
  g.historical = "review-90000000000000a3";
  g.burned = "review-90000000000000a4";
  g.abandoned = "review-90000000000000a5";
  g.interrupted = "review-90000000000000a6";
  const std::string root = repo.store_root();
  const std::string v2 = root + "/v2/";

  GoTarget live = CommitTarget(repo, "go-live.txt", true);
  WriteGoFile(v2 + g.live + "/review-state.json",
              GoRecord(repo, g.live, "reviewing", live, "", false));
  WriteGoFile(v2 + g.live + "/reviewer-results/01-review-risk.json",
              "{\"lens\":\"review-risk\"}\n");
  GoTarget approved = CommitTarget(repo, "go-approved.txt", false);
  WriteGoFile(v2 + g.approved + "/review-state.json",
              GoRecord(repo, g.approved, "approved", approved, g.approved_token, false));
  GoTarget historical = CommitTarget(repo, "go-historical.txt", false);
  WriteGoFile(v2 + g.historical + "/review-state.json",
              GoRecord(repo, g.historical, "reviewing", historical, "", true));
  WriteGoFile(v2 + "LOCK", "");

  GoTarget burned = CommitTarget(repo, "go-burned.txt", false);
  const std::string repo_key = store::RepoKey(repo.root());
  g.tombstone =
      root + "/terminal-consumption/v1/" + store::TombstoneFileName(repo_key, burned.identity);
  WriteGoFile(g.tombstone, store::EncodeTombstone(repo_key, burned.identity, g.burned));

  auto quarantine = [&](const std::string& lineage, const std::string& dir, const char* status,
                        const char* at) {
    GoTarget t = CommitTarget(repo, lineage + ".txt", false);
    const std::string qdir = root + "/quarantine/" + dir;
    WriteGoFile(qdir + "/residue/review-state.json",
                GoRecord(repo, lineage, "reviewing", t, "", false));
    store::AuditRecord audit{status,       lineage, "operator_disposition", "go-operator", at,
                             v2 + lineage, qdir,    {"review-state.json"}};
    WriteGoFile(qdir + "/reclaim-record.json", store::EncodeAuditRecord(audit, nullptr));
    return qdir + "/reclaim-record.json";
  };
  g.abandoned_audit =
      quarantine(g.abandoned, g.abandoned + "-2318830471", "committed", "2026-09-01T10:00:00.5Z");
  g.interrupted_audit =
      quarantine(g.interrupted, g.interrupted + "-99817", "prepared", "2026-09-02T11:30:00Z");
  WriteGoFile(repo.common_dir() + "/gentle-ai/REVIEW-MAINTENANCE.lock", "");
  return g;
}

}  // namespace gentle::testing::life
