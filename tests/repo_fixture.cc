#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "store/sha256.h"
#include "tests/test_repo.h"

namespace gentle::testing {

RunResult Run(const std::vector<std::string>& argv, const std::string& cwd,
              const std::map<std::string, std::string>& env) {
  std::vector<std::string> extra;
  for (const auto& [k, v] : env) extra.push_back(k + "=" + v);
  return RunCommand(argv, extra, "", cwd);
}

namespace {

std::map<std::string, std::string> GitEnv() {
  static TempDir* home = new TempDir();  // an empty HOME for every git call of the test run
  return {{"GIT_CONFIG_NOSYSTEM", "1"},
          {"HOME", home->path()},
          {"GIT_CONFIG_GLOBAL", "/dev/null"},
          {"LC_ALL", "C"},
          {"GIT_AUTHOR_NAME", "Test"},
          {"GIT_AUTHOR_EMAIL", "test@example.com"},
          {"GIT_COMMITTER_NAME", "Test"},
          {"GIT_COMMITTER_EMAIL", "test@example.com"},
          {"GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z"},
          {"GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z"}};
}

}  // namespace

RunResult GitRun(const std::string& repo, const std::vector<std::string>& args,
                 const std::map<std::string, std::string>& env) {
  std::vector<std::string> argv = {"git", "-c", "protocol.file.allow=always"};
  argv.insert(argv.end(), args.begin(), args.end());
  auto merged = GitEnv();
  for (const auto& [k, v] : env) merged[k] = v;
  return Run(argv, repo, merged);
}

std::string Git(const std::string& repo, const std::vector<std::string>& args) {
  RunResult r = GitRun(repo, args);
  INFO("git " << (args.empty() ? "" : args[0]) << " failed: " << r.err);
  REQUIRE(r.exit_code == 0);
  return r.out;
}

RunResult GentleAi(const std::vector<std::string>& args, const std::string& cwd,
                   const std::map<std::string, std::string>& env) {
  std::vector<std::string> argv = {GENTLE_AI_BIN};
  argv.insert(argv.end(), args.begin(), args.end());
  auto merged = GitEnv();
  for (const auto& [k, v] : env) merged[k] = v;
  return Run(argv, cwd, merged);
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  REQUIRE(out.good());
  out << bytes;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::string InitRepo(const std::string& parent, const std::string& name) {
  const std::string repo = parent + "/" + name;
  REQUIRE(mkdir(repo.c_str(), 0755) == 0);
  Git(repo, {"init", "-q", "-b", "main"});
  WriteFile(repo + "/a.txt", "alpha\n");
  REQUIRE(mkdir((repo + "/dir").c_str(), 0755) == 0);
  WriteFile(repo + "/dir/b.txt", "beta\n");
  Git(repo, {"add", "-A"});
  Git(repo, {"commit", "-q", "-m", "init"});
  return repo;
}

std::map<std::string, std::string> HashTree(const std::string& root) {
  std::map<std::string, std::string> out;
  std::vector<std::string> stack = {""};
  while (!stack.empty()) {
    std::string rel = stack.back();
    stack.pop_back();
    const std::string full = rel.empty() ? root : root + "/" + rel;
    struct stat st;
    if (lstat(full.c_str(), &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      out[rel + "/"] = "dir " + std::to_string(st.st_mode & 07777);
      DIR* dir = opendir(full.c_str());
      while (dirent* e = dir ? readdir(dir) : nullptr) {
        std::string name = e->d_name;
        if (name != "." && name != "..") stack.push_back(rel.empty() ? name : rel + "/" + name);
      }
      if (dir) closedir(dir);
    } else if (S_ISLNK(st.st_mode)) {
      char target[4096];
      ssize_t n = readlink(full.c_str(), target, sizeof(target));
      out[rel] = "link " + std::string(target, n > 0 ? static_cast<size_t>(n) : 0);
    } else if (S_ISREG(st.st_mode)) {
      out[rel] = store::Sha256Hex(ReadFile(full)) + " " + std::to_string(st.st_mode & 07777);
    } else {  // a FIFO, socket or device: never opened (a FIFO would block)
      out[rel] = "special " + std::to_string(st.st_mode);
    }
  }
  return out;
}

std::string Trim(const std::string& s) {
  size_t end = s.find_last_not_of(" \n\r\t");
  return end == std::string::npos ? "" : s.substr(0, end + 1);
}

std::string LooseObjectPath(const std::string& git_dir, const std::string& hex) {
  return git_dir + "/objects/" + hex.substr(0, 2) + "/" + hex.substr(2);
}

void ReplaceLooseObject(const std::string& git_dir, const std::string& victim,
                        const std::string& donor) {
  const std::string path = LooseObjectPath(git_dir, victim);
  if (chmod(path.c_str(), 0644) != 0) throw std::runtime_error("chmod " + path);
  WriteFile(path, ReadFile(LooseObjectPath(git_dir, donor)));
}

}  // namespace gentle::testing
