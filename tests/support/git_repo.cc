#include "tests/support/git_repo.h"

#include <fcntl.h>
#include <openssl/evp.h>
#include <sys/stat.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <stdexcept>

#include "tests/support/files.h"
#include "tests/support/git_env.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {

RunResult GitRun(const std::string& repo, const std::vector<std::string>& args, const Env& env,
                 const std::string& input) {
  std::vector<std::string> argv = {"git", "-c", "protocol.file.allow=always"};
  argv.insert(argv.end(), args.begin(), args.end());
  Env merged = GitEnv();
  for (const auto& [k, v] : env) merged[k] = v;
  return Run(argv, repo, merged, input);
}

std::string Git(const std::string& repo, const std::vector<std::string>& args) {
  RunResult r = GitRun(repo, args);
  INFO("git " << (args.empty() ? "" : args[0]) << " failed: " << r.err);
  REQUIRE(r.exit_code == 0);
  return r.out;
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

void RechecksumIndex(std::string* index_bytes) {
  REQUIRE(index_bytes->size() >= 20);
  index_bytes->resize(index_bytes->size() - 20);
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  REQUIRE(EVP_Digest(index_bytes->data(), index_bytes->size(), digest, &length, EVP_sha1(),
                     nullptr) == 1);
  index_bytes->append(reinterpret_cast<const char*>(digest), length);
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

std::string OracleWorkspaceTree(const std::string& repo,
                                const std::vector<std::string>& untracked) {
  TempDir scratch;
  const std::string index = scratch.path() + "/index";
  WriteFile(index, ReadFile(repo + "/.git/index"));
  // The copy keeps the index's modification time: git tells a racily clean entry (a file written
  // in the same clock tick as the index) by comparing the two, and a fresh copy would make such an
  // entry look clean to git while the capture re-reads it.
  struct stat original;
  REQUIRE(stat((repo + "/.git/index").c_str(), &original) == 0);
  const struct timespec times[2] = {original.st_atim, original.st_mtim};
  REQUIRE(utimensat(AT_FDCWD, index.c_str(), times, 0) == 0);
  std::map<std::string, std::string> env = {{"GIT_INDEX_FILE", index}};
  REQUIRE(GitRun(repo, {"add", "-u"}, env).exit_code == 0);
  for (const auto& path : untracked) {
    REQUIRE(GitRun(repo, {"add", "-f", "--", path}, env).exit_code == 0);
  }
  return Trim(GitRun(repo, {"write-tree"}, env).out);
}

std::vector<std::string> OraclePaths(const std::string& repo, const std::string& base,
                                     const std::string& candidate) {
  std::string out = Git(repo, {"diff-tree", "-r", "-z", "--name-only", "--no-renames",
                               "--ignore-submodules=none", base, candidate});
  std::vector<std::string> paths;
  size_t start = 0;
  while (start < out.size()) {
    size_t nul = out.find('\0', start);
    paths.push_back(out.substr(start, nul - start));
    start = nul + 1;
  }
  std::sort(paths.begin(), paths.end());
  paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
  return paths;
}

}  // namespace gentle::testing
