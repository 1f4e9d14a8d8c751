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

namespace gentle::testing {
namespace fs = std::filesystem;

nlohmann::json Run::Json() const {
  INFO("stdout: " << out << "\nstderr: " << err);
  auto doc = nlohmann::json::parse(out, nullptr, false);
  REQUIRE_FALSE(doc.is_discarded());
  return doc;
}

Run Exec(const std::string& program, const std::vector<std::string>& args, const std::string& cwd,
         const Env& env) {
  TempDir capture;
  const std::string out_path = capture.path() + "/out", err_path = capture.path() + "/err";
  pid_t pid = fork();
  REQUIRE(pid >= 0);
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
  waitpid(pid, &status, 0);
  Run run;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
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
      if (entry.is_regular_file()) {
        std::string bytes = ReadFile(entry.path().string());
        value += rel.size() > 4 && rel.substr(rel.size() - 4) == "-shm"
                     ? "size=" + std::to_string(bytes.size())
                     : bytes;
      }
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

}  // namespace gentle::testing
